/** Faulty deployments that break data.delete. */
import { answerJson, pathOf, type ProxiedResponse } from '../proxy.js';
import { item, hasType, empty, onOneResource, type Fault } from './helpers.js';

const onCohortsItem = (req: Parameters<NonNullable<Fault['request']>>[0]) => item(req) && onOneResource(req);

/** cohorts (a resource no hand-written delete test reads) still reads a record it deleted: 200 with its id. */
function deletedStillRead(): Fault {
  const deleted = new Set<string>();
  return {
    name: 'deleted-record-still-read-on-one-resource', family: 'data.delete', suites: ['discovery/every-resource-json.spec.ts'],
    description: 'cohorts answers GET by id of a record it deleted with 200 and the id, as if the DELETE had not removed it',
    request: (req) => {
      if (!onCohortsItem(req) || req.method !== 'GET' || !deleted.has(pathOf(req).toLowerCase())) return;
      const res: ProxiedResponse = { status: 200, headers: {}, body: Buffer.alloc(0) };
      answerJson(res, 200, { id: pathOf(req).split('/').pop() });
      return res;
    },
    response: (res, req) => { if (onCohortsItem(req) && req.method === 'DELETE' && res.status === 204) deleted.add(pathOf(req).toLowerCase()); },
  };
}

export const deleteFaults: Fault[] = [
  deletedStillRead(),
  {
    name: 'delete-twice-204-on-one-resource', family: 'data.delete', suites: ['discovery/every-resource-json.spec.ts'],
    description: 'cohorts answers a DELETE of a record already deleted with 204 instead of 404',
    response: (res, req) => { if (onCohortsItem(req) && req.method === 'DELETE' && res.status === 404) empty(res, 204); },
  },
  {
    name: 'dependent-item-delete-allowed', family: 'data.delete', suites: ['delete'],
    description: 'deleting a record that others reference answers 204 instead of 409 dependent-item-exists',
    response: (res, req) => { if (item(req) && req.method === 'DELETE' && hasType(res, 'dependent-item-exists')) empty(res, 204); },
  },
  {
    name: 'delete-unknown-id-204', family: 'data.delete', suites: ['delete'],
    description: 'deleting an id that does not exist answers 204 instead of 404',
    response: (res, req) => { if (item(req) && req.method === 'DELETE' && res.status === 404) empty(res, 204); },
  },
];
