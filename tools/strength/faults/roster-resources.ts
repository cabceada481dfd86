/** Faulty deployments that break roster.roster-resources. */
import { eachObject, pathOf } from '../proxy.js';
import { isRoster, editJson, type Fault } from './helpers.js';

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
];
