/** Faulty deployments that break roster.roster-resources. */
import { eachObject, pathOf } from '../proxy.js';
import { isRoster, editJson, rosterFailure, ROSTER_WRITES, type Fault } from './helpers.js';

export const rosterResourcesFaults: Fault[] = [
  {
    name: 'roster-null-members-sent', family: 'roster.roster-resources', suites: ['rostering/resources.spec.ts'],
    description: 'users without a middle name carry "middleName": null',
    response: (res, req) => {
      if (!isRoster(req) || res.status !== 200) return;
      editJson(res, (body) => eachObject(body, (o) => { if (typeof o.sourcedId === 'string' && 'givenName' in o && !('middleName' in o)) o.middleName = null; }));
    },
  },
  {
    name: 'roster-single-record-as-list', family: 'roster.roster-resources', suites: ['rostering/resources.spec.ts'],
    description: 'a single read answers {"<key>": [record]} instead of {"<key>": record}',
    response: (res, req) => {
      if (!isRoster(req) || res.status !== 200) return;
      editJson(res, (body) => {
        const entries = Object.entries(body as object);
        if (entries.length === 1 && entries[0][1] && typeof entries[0][1] === 'object' && !Array.isArray(entries[0][1])) return { [entries[0][0]]: [entries[0][1]] };
        return body;
      });
    },
  },
  {
    name: 'roster-subset-endpoints-unfiltered', family: 'roster.roster-resources', suites: ['rostering/resources.spec.ts'],
    description: '/students and /teachers list every user, whatever the role',
    request: (req) => { if (isRoster(req) && /\/(students|teachers)$/.test(pathOf(req))) req.url = req.url.replace(/\/(students|teachers)(\?|$)/, '/users$2'); },
  },
  {
    name: 'roster-write-accepted', family: 'roster.roster-resources', suites: ['rostering/read-only.spec.ts'],
    description: 'the rostering service answers POST, PUT, PATCH and DELETE with 2xx (decision 40: read-only)',
    response: (res, req) => {
      if (!isRoster(req) || !ROSTER_WRITES.includes(req.method) || res.status < 400 || res.status >= 500) return;
      res.status = req.method === 'POST' ? 201 : 204;
      res.body = Buffer.alloc(0);
      delete res.headers['content-type'];
      delete res.headers.allow;
    },
  },
  // ---- conforming deviations: the seed allows them, the verdict must stay conformant ----
  {
    name: 'roster-envelope-other-keys', family: 'roster.roster-resources', suites: ['rostering'], expect: 'conformant',
    description: 'collections answer {"data": [...]} and single reads {"record": {...}} (decision 24\'s keys are SHOULD; the seed shows no envelope)',
    response: (res, req) => {
      if (!isRoster(req) || res.status !== 200) return;
      editJson(res, (body) => {
        const entries = body && typeof body === 'object' && !Array.isArray(body) ? Object.entries(body) : [];
        if (entries.length !== 1 || !entries[0][1] || typeof entries[0][1] !== 'object') return body;
        return { [Array.isArray(entries[0][1]) ? 'data' : 'record']: entries[0][1] };
      });
    },
  },
  {
    name: 'roster-identifiers-mapped-otherwise', family: 'roster.roster-resources', suites: ['rostering'], expect: 'conformant',
    description: 'every identifier member is prefixed "X-" (upstream\'s mapping is SHOULD; records stay findable by the names and codes written)',
    response: (res, req) => {
      if (!isRoster(req) || res.status !== 200) return;
      editJson(res, (body) => eachObject(body, (o) => { if (typeof o.identifier === 'string') o.identifier = `X-${o.identifier}`; }));
    },
  },
  {
    name: 'roster-write-refused-404', family: 'roster.roster-resources', suites: ['rostering/read-only.spec.ts'], expect: 'conformant',
    description: 'a write on a rostering path is refused 404 without Allow, not 405 (any 4xx conforms; 405 with Allow is SHOULD)',
    response: (res, req) => { if (isRoster(req) && ROSTER_WRITES.includes(req.method) && res.status === 405) rosterFailure(res, 404, 'The specified resource was not found.'); },
  },
];
