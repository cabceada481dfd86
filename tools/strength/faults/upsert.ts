/** Faulty deployments that break data.upsert. */
import { header } from '../proxy.js';
import { collection, editRequestJson, type Fault } from './helpers.js';

export const upsertFaults: Fault[] = [
  {
    name: 'post-201-as-200', family: 'data.upsert', suites: ['upsert'],
    description: 'a POST that creates a record answers 200 instead of 201',
    response: (res, req) => { if (collection(req) && req.method === 'POST' && res.status === 201) res.status = 200; },
  },
  {
    name: 'location-missing', family: 'data.upsert', suites: ['upsert'],
    description: 'POST answers without a Location header',
    response: (res, req) => { if (collection(req) && req.method === 'POST') delete res.headers.location; },
  },
  {
    name: 'location-missing-on-200', family: 'data.upsert', suites: ['upsert'],
    description: 'a POST that updates an existing record (200) sends no Location',
    response: (res, req) => { if (collection(req) && req.method === 'POST' && res.status === 200) delete res.headers.location; },
  },
  {
    name: 'id-in-post-body-accepted', family: 'data.upsert', suites: ['upsert'],
    description: 'an id in a POST body is silently dropped instead of refused with 400',
    request: (req) => { if (collection(req) && req.method === 'POST') editRequestJson(req, (b) => 'id' in b && delete b.id); },
  },
];
