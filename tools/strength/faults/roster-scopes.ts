/** Faulty deployments that break roster.roster-scopes. */
import { eachObject, pathOf, Tokens } from '../proxy.js';
import { isRoster, editJson, rosterAnswer, ROSTER_SCOPES, scoped, scopeEntries, grants, type Fault } from './helpers.js';

export const rosterScopesFaults: Fault[] = [
  {
    name: 'roster-demographics-scope-not-checked', family: 'roster.roster-scopes', suites: ['rostering/scopes.spec.ts'],
    description: '/demographics is opened by any rostering scope, not only roster-demographics.readonly',
    request: async (req, tools) => {
      if (!isRoster(req) || !/\/demographics(\/|$|\?)/.test(pathOf(req))) return;
      await tools.tokens.rewrite(req, (c) => {
        const entries = scopeEntries(c.scope);
        if (grants(entries, ROSTER_SCOPES[2]) || !ROSTER_SCOPES.some((s) => grants(entries, s))) return false;
        c.scope = [...entries, scoped(ROSTER_SCOPES[2])].join(' ');
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
        c.scope = [...entries, ...contained.map(scoped)].join(' ');
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
  // A demographic member under a name the old fixed list of 13 names missed: the suites now take
  // the demographic members from the demographics schema (any spelling) and allow users only the
  // 1.2 user schema's members.
  {
    name: 'roster-users-carry-sex-capitalised', family: 'roster.roster-scopes', suites: ['rostering/scopes.spec.ts'], grep: 'demographics record',
    description: 'user records carry the demographics record\'s sex as "Sex" (another letter case) whatever the scopes',
    response: (res, req) => {
      if (!isRoster(req) || res.status !== 200 || !/\/(users|students|teachers)(\/|$|\?)/.test(pathOf(req))) return;
      editJson(res, (body) => eachObject(body, (o) => { if (typeof o.sourcedId === 'string' && 'givenName' in o) o.Sex = 'female'; }));
    },
  },
  {
    name: 'roster-users-carry-gender', family: 'roster.roster-scopes', suites: ['rostering/scopes.spec.ts'], grep: 'demographics record',
    description: 'user records carry a "gender" member (no member of the 1.2 user schema; the sex of /demographics by another name) whatever the scopes',
    response: (res, req) => {
      if (!isRoster(req) || res.status !== 200 || !/\/(users|students|teachers)(\/|$|\?)/.test(pathOf(req))) return;
      editJson(res, (body) => eachObject(body, (o) => { if (typeof o.sourcedId === 'string' && 'givenName' in o) o.gender = 'F'; }));
    },
  },
  {
    name: 'roster-users-metadata-carries-race', family: 'roster.roster-scopes', suites: ['rostering/scopes.spec.ts'], grep: 'demographics record',
    description: 'user records carry the race and ethnicity flags inside metadata (the standard\'s free-form extension member) whatever the scopes',
    response: (res, req) => {
      if (!isRoster(req) || res.status !== 200 || !/\/(users|students|teachers)(\/|$|\?)/.test(pathOf(req))) return;
      editJson(res, (body) => eachObject(body, (o) => {
        if (typeof o.sourcedId === 'string' && 'givenName' in o) o.metadata = { ...(o.metadata as object), demographics: { american_indian_or_alaska_native: 'false', hispanicOrLatinoEthnicity: 'true' } };
      }));
    },
  },
  {
    name: 'roster-enrollments-carry-birth-date', family: 'roster.roster-scopes', suites: ['rostering/scopes.spec.ts'], grep: 'demographics record',
    description: 'enrollments carry the enrolled person\'s birth date inside their user reference (a core resource other than users holding a demographic member)',
    response: (res, req) => {
      if (!isRoster(req) || res.status !== 200 || !/\/enrollments(\/|$|\?)/.test(pathOf(req))) return;
      editJson(res, (body) => eachObject(body, (o) => { if (typeof o.sourcedId === 'string' && o.user && typeof o.user === 'object') (o.user as Record<string, unknown>).birthDate = '2009-05-05'; }));
    },
  },
  {
    name: 'roster-missing-scope-403', family: 'roster.roster-scopes', suites: ['rostering/scopes.spec.ts'],
    description: 'a valid token without the scope a route needs is answered 403, as upstream does (seed 001: any failed check is 401; decision 36)',
    request: async (req, tools) => {
      const token = isRoster(req) && /\/std\/roster\/rostering\/v1p2\/[^/?]+/.test(pathOf(req)) ? Tokens.bearer(req) : undefined;
      const claims = token ? await tools.tokens.signed(token) : undefined;
      if (!claims) return undefined;
      const entries = scopeEntries(claims.scope);
      const demographics = /\/v1p2\/demographics(\/|$|\?)/.test(pathOf(req));
      const opens = demographics ? grants(entries, ROSTER_SCOPES[2]) : grants(entries, ROSTER_SCOPES[0]) || grants(entries, ROSTER_SCOPES[1]);
      if (opens || !ROSTER_SCOPES.some((s) => grants(entries, s))) return undefined;
      return rosterAnswer(403, { stdx_codeMajor: 'failure', stdx_severity: 'error', stdx_description: 'Insufficient scope: your token must have the scope this route needs.' });
    },
  },
];
