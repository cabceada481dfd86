/** Faulty deployments that break data.upsert. */
import { header, setJson } from '../proxy.js';
import { collection, editJson, editRequestJson, hasType, item, onOneResource, problem, problemOf, type Fault } from './helpers.js';

export const upsertFaults: Fault[] = [
  {
    name: 'id-unlike-location-on-one-resource', family: 'data.upsert', suites: ['discovery/every-resource-json.spec.ts'],
    description: 'cohorts returns a record by id with its id in upper case, not the Location\'s last segment',
    response: (res, req) => {
      if (!item(req) || req.method !== 'GET' || res.status !== 200 || !onOneResource(req)) return;
      editJson(res, (b) => { const o = b as Record<string, unknown>; if (typeof o.id === 'string') o.id = o.id.toUpperCase(); return b; });
    },
  },
  {
    name: 'id-in-post-accepted-on-one-resource', family: 'data.upsert', suites: ['discovery/every-resource-json.spec.ts'],
    description: 'cohorts (a resource no hand-written upsert test writes) drops an id in a POST body instead of refusing it with 400',
    request: (req) => { if (collection(req) && req.method === 'POST' && onOneResource(req)) editRequestJson(req, (b) => 'id' in b && delete b.id); },
  },
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
    name: 'location-missing-on-200', family: 'data.upsert', suites: ['upsert'], expect: 'conformant', warns: ['data.upsert.location-on-200'],
    description: 'a POST that updates an existing record (200) sends no Location',
    response: (res, req) => { if (collection(req) && req.method === 'POST' && res.status === 200) delete res.headers.location; },
  },
  {
    name: 'id-in-post-body-accepted', family: 'data.upsert', suites: ['upsert'],
    description: 'an id in a POST body is silently dropped instead of refused with 400',
    request: (req) => { if (collection(req) && req.method === 'POST') editRequestJson(req, (b) => 'id' in b && delete b.id); },
  },
  {
    name: 'upsert-conflict-on-one-resource', family: 'data.upsert', suites: ['discovery/every-resource-json.spec.ts'],
    description: 'cohorts (a resource no hand-written upsert test writes) answers a POST of an existing natural key with 409 non-unique-identity instead of updating it',
    response: (res, req) => {
      if (collection(req) && req.method === 'POST' && res.status === 200 && onOneResource(req)) Object.assign(res, problem('data-conflict:non-unique-identity'));
    },
  },
  // Conforming deviations: the seed allows them, so the verdict must stay conformant.
  {
    name: 'id-in-post-other-wording', family: 'data.upsert', suites: ['upsert', 'descriptors', 'errors/problem-details.spec.ts'], expect: 'conformant',
    description: 'the refusal of an id in a POST body is worded otherwise: detail "The request was malformed.", entry "A POST body must not carry an id."',
    response: (res, req) => {
      const p = collection(req) && req.method === 'POST' && hasType(res, 'data-validation-failed') ? problemOf(res) : undefined;
      if (!p || !(p.errors as string[] | undefined)?.some((e) => /identifiers cannot be assigned/.test(e))) return;
      p.detail = 'The request was malformed.';
      p.errors = ['A POST body must not carry an id.'];
      setJson(res, p);
    },
  },
  {
    name: 'location-relative', family: 'data.upsert', suites: ['upsert', 'descriptors', 'properties'], expect: 'conformant',
    description: 'Location headers are a path from the origin (/v7.3/api/data/v3/...), not an absolute URL',
    response: (res, req) => {
      const location = header(res, 'location');
      if (collection(req) && location && /^https?:/.test(location)) res.headers.location = new URL(location).pathname;
    },
  },
];
