/** Faulty deployments that break roster.roster-scopes. */
import { eachObject, pathOf } from '../proxy.js';
import { isRoster, editJson, ROSTER_SCOPES, scopeEntries, grants, type Fault } from './helpers.js';

export const rosterScopesFaults: Fault[] = [
  {
    name: 'roster-demographics-scope-not-checked', family: 'roster.roster-scopes', suites: ['rostering/scopes.spec.ts'],
    description: '/demographics is opened by any rostering scope, not only roster-demographics.readonly',
    request: async (req, tools) => {
      if (!isRoster(req) || !/\/demographics(\/|$|\?)/.test(pathOf(req))) return;
      await tools.tokens.rewrite(req, (c) => {
        const entries = scopeEntries(c.scope);
        if (grants(entries, ROSTER_SCOPES[2]) || !ROSTER_SCOPES.some((s) => grants(entries, s))) return false;
        c.scope = [...entries, ROSTER_SCOPES[2]].join(' ');
        return true;
      });
    },
  },
  {
    name: 'roster-scope-substring-match', family: 'roster.roster-scopes', suites: ['rostering/tokens.spec.ts'],
    description: 'a scope entry that merely contains a rostering scope (roster-core.readonly.extra) grants it',
    request: async (req, tools) => {
      if (!isRoster(req)) return;
      await tools.tokens.rewrite(req, (c) => {
        const entries = scopeEntries(c.scope);
        const contained = ROSTER_SCOPES.filter((s) => !grants(entries, s) && entries.some((e) => e.toLowerCase().includes(s)));
        if (!contained.length) return false;
        c.scope = [...entries, ...contained].join(' ');
        return true;
      });
    },
  },
  {
    name: 'roster-users-carry-demographics', family: 'roster.roster-scopes', suites: ['rostering/scopes.spec.ts'],
    description: 'user records carry birthDate whatever the scopes',
    response: (res, req) => {
      if (!isRoster(req) || res.status !== 200 || !/\/(users|students|teachers)(\/|$|\?)/.test(pathOf(req))) return;
      editJson(res, (body) => eachObject(body, (o) => { if (typeof o.sourcedId === 'string' && 'givenName' in o && !('birthDate' in o)) o.birthDate = '2010-12-10'; }));
    },
  },
];
