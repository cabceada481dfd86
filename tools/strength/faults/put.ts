/** Faulty deployments that break data.put. */
import { dataPath, header, jsonOf } from '../proxy.js';
import { item, hasType, empty, onOneResource, problem, type Fault } from './helpers.js';

export const putFaults: Fault[] = [
  {
    name: 'put-id-in-body-refused-on-one-resource', family: 'data.put', suites: ['discovery/every-resource-json.spec.ts'],
    description: 'cohorts (a resource no hand-written PUT test writes) refuses a PUT whose body carries an id with 400 data-validation-failed instead of ignoring the id',
    request: (req) => {
      if (!item(req) || req.method !== 'PUT' || !(onOneResource(req))) return;
      const body = jsonOf(req);
      if (body && typeof body === 'object' && 'id' in body) return problem('bad-request:data-validation-failed', { errors: ['The id in the body must not be sent.'] });
    },
  },
  {
    name: 'put-204-as-200', family: 'data.put', suites: ['put'],
    description: 'a successful PUT answers 200 instead of 204',
    response: (res, req) => { if (item(req) && req.method === 'PUT' && res.status === 204) res.status = 200; },
  },
  {
    name: 'put-unknown-id-204', family: 'data.put', suites: ['put'],
    description: 'a PUT to an id that does not exist answers 204 instead of 404',
    response: (res, req) => { if (item(req) && req.method === 'PUT' && res.status === 404) empty(res, 204); },
  },
  {
    name: 'key-change-ignored', family: 'data.put', suites: ['put'],
    description: 'a natural-key change on a non-updatable resource answers 204 instead of 400 key-change-not-supported',
    response: (res, req) => { if (item(req) && req.method === 'PUT' && hasType(res, 'key-change-not-supported')) empty(res, 204); },
  },
  {
    name: 'put-not-applied', family: 'data.put', suites: ['put'],
    description: 'a PUT answers 204 without changing the record',
    request: (req) => { if (item(req) && req.method === 'PUT' && !header(req, 'if-match')) return { status: 204, headers: {}, body: Buffer.alloc(0) }; },
  },
  {
    name: 'put-body-id-names-record', family: 'data.put', suites: ['put'],
    description: 'a PUT whose body carries another record\'s id updates that record, not the one the path names',
    request: (req) => {
      const p = item(req) && req.method === 'PUT' ? dataPath(req) : undefined;
      const id = (jsonOf(req) as { id?: unknown } | undefined)?.id;
      if (p && typeof id === 'string' && /^[0-9a-f]{32}$/i.test(id) && id !== p.rest[0]) req.url = req.url.replace(p.rest[0], id);
    },
  },
];
