/** Faulty deployments that break data.delete. */
import { item, hasType, empty, type Fault } from './helpers.js';

export const deleteFaults: Fault[] = [
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
