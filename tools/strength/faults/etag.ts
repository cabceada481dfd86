/** Faulty deployments that break data.etag. */
import { createHash } from 'node:crypto';
import { eachObject, header } from '../proxy.js';
import { isData, item, editJson, empty, onOneResource, type Fault } from './helpers.js';

/** cohorts (a resource no hand-written etag test updates) shows a record's first _etag for ever: an update leaves it as it was. */
function etagFrozenOnOneResource(): Fault {
  const first = new Map<string, string>();
  return {
    name: 'etag-unchanged-on-update-on-one-resource', family: 'data.etag', suites: ['discovery/every-resource-json.spec.ts'],
    description: 'cohorts returns the _etag of a record\'s first read on every later GET by id, however the record changed',
    response: (res, req) => {
      if (!item(req) || req.method !== 'GET' || res.status !== 200 || !onOneResource(req)) return;
      editJson(res, (b) => {
        const o = b as Record<string, unknown>;
        const url = req.url.toLowerCase();
        if (typeof o._etag === 'string') o._etag = first.get(url) ?? (first.set(url, o._etag), o._etag);
        return b;
      });
    },
  };
}

export const etagFaults: Fault[] = [
  etagFrozenOnOneResource(),
  {
    name: 'if-none-match-ignored-on-one-resource', family: 'data.etag', suites: ['discovery/every-resource-json.spec.ts'],
    description: 'cohorts (a resource no hand-written etag test reads) ignores If-None-Match on GET by id: 200, never 304',
    request: (req) => { if (item(req) && req.method === 'GET' && onOneResource(req)) delete req.headers['if-none-match']; },
  },
  {
    name: 'etag-missing-on-one-resource', family: 'data.etag', suites: ['discovery/every-resource-json.spec.ts'],
    description: 'cohorts (a resource no hand-written etag test reads) returns records by id without _etag',
    response: (res, req) => { if (item(req) && req.method === 'GET' && res.status === 200 && onOneResource(req)) editJson(res, (b) => { delete (b as Record<string, unknown>)._etag; return b; }); },
  },
  {
    name: 'if-none-match-always-304-on-one-resource', family: 'data.etag', suites: ['discovery/every-resource-json.spec.ts'],
    description: 'cohorts answers GET by id with any If-None-Match with 304, matching or not',
    response: (res, req) => { if (item(req) && req.method === 'GET' && res.status === 200 && header(req, 'if-none-match') && onOneResource(req)) empty(res, 304); },
  },
  {
    name: 'last-modified-date-not-date-time-on-one-resource', family: 'data.etag', suites: ['discovery/every-resource-json.spec.ts'],
    description: 'cohorts sends _lastModifiedDate as "2024-08-26 12:00:00", not a date-time string',
    response: (res, req) => {
      if (!item(req) || req.method !== 'GET' || res.status !== 200 || !onOneResource(req)) return;
      editJson(res, (b) => { const o = b as Record<string, unknown>; if (typeof o._lastModifiedDate === 'string') o._lastModifiedDate = o._lastModifiedDate.slice(0, 19).replace('T', ' '); return b; });
    },
  },
  {
    name: 'if-match-ignored-on-delete-on-one-resource', family: 'data.etag', suites: ['discovery/every-resource-json.spec.ts'],
    description: 'cohorts (a resource no hand-written etag test deletes) ignores If-Match on DELETE: the record is deleted whatever the value',
    request: (req) => { if (item(req) && req.method === 'DELETE' && onOneResource(req)) delete req.headers['if-match']; },
  },
  {
    name: 'if-match-ignored-on-one-resource', family: 'data.etag', suites: ['discovery/every-resource-json.spec.ts'],
    description: 'cohorts (a resource no hand-written etag test writes) ignores If-Match on PUT: no 412 for a value that does not match',
    request: (req) => { if (item(req) && req.method === 'PUT' && onOneResource(req)) delete req.headers['if-match']; },
  },
  {
    name: 'etag-header-missing', family: 'data.etag', suites: ['etag'],
    description: 'no ETag header on any response',
    response: (res, req) => { if (isData(req)) delete res.headers.etag; },
  },
  {
    name: 'etag-header-unquoted', family: 'data.etag', suites: ['etag'],
    description: 'the ETag header carries the etag without the quotes',
    response: (res, req) => { const e = header(res, 'etag'); if (isData(req) && e) res.headers.etag = e.replace(/"/g, ''); },
  },
  {
    name: 'if-match-ignored', family: 'data.etag', suites: ['etag'],
    description: 'If-Match on PUT and DELETE is ignored (no 412 for a stale etag)',
    request: (req) => { if (item(req) && (req.method === 'PUT' || req.method === 'DELETE')) delete req.headers['if-match']; },
  },
  {
    name: 'if-none-match-never-304', family: 'data.etag', suites: ['etag'],
    description: 'If-None-Match on GET is ignored (never 304)',
    request: (req) => { if (isData(req) && req.method === 'GET') delete req.headers['if-none-match']; },
  },
  {
    name: 'etag-unchanged-on-update', family: 'data.etag', suites: ['etag'],
    description: '_etag is derived from the id alone, so it stays the same when the record changes',
    response: (res, req) => {
      if (!isData(req) || req.method !== 'GET' || res.status !== 200) return;
      editJson(res, (body) => eachObject(body, (o) => { if (typeof o._etag === 'string' && typeof o.id === 'string') o._etag = createHash('sha1').update(o.id).digest('hex').slice(0, 16); }));
    },
  },
  // Conforming: the seed says _lastModifiedDate "may be present in responses".
  {
    name: 'last-modified-date-absent', family: 'data.etag', suites: ['etag'], expect: 'conformant',
    description: 'no response carries _lastModifiedDate',
    response: (res, req) => {
      if (!isData(req) || res.status !== 200) return;
      editJson(res, (body) => eachObject(body, (o) => { delete o._lastModifiedDate; }));
    },
  },
];
