/** Faulty deployments that break roster.roster-query. */
import { header, jsonOf, pathOf, queryOf, setQuery, Tokens, type ProxiedRequest, type Tools } from '../proxy.js';
import { isRoster, editJson, organizationsSeen, rosterFailure, rosterItem, type Fault } from './helpers.js';

type Rec = Record<string, unknown>;
const PREFIX = '/std/roster/rostering/v1p2/';

/** The educationOrganizationId claim of a request's token, as ids (undefined: no token, or no claim). */
function claimedIds(req: ProxiedRequest, tools: Tools): string[] | undefined {
  const token = Tokens.bearer(req);
  const claim = token ? tools.tokens.decode(token)?.claims.educationOrganizationId : undefined;
  return claim === undefined ? undefined : [claim].flat().flatMap((v) => String(v).split(',')).map((v) => v.trim()).filter(Boolean);
}

/**
 * The sourcedIds of the organizations a token names, read once per token and route from the
 * service itself (its /orgs, whose records carry the ids as `identifier`).
 */
async function claimedOrgRecords(req: ProxiedRequest, tools: Tools, ids: string[]): Promise<Set<string>> {
  const path = pathOf(req);
  const prefix = path.slice(0, path.indexOf(PREFIX) + PREFIX.length);
  const key = `claimed-orgs|${prefix}|${header(req, 'authorization')}`;
  const known = tools.state.get(key) as Set<string> | undefined;
  if (known) return known;
  const res = await tools.upstream({ ...req, method: 'GET', url: `${prefix}orgs?limit=500`, body: Buffer.alloc(0) });
  const orgs = Object.values((jsonOf(res) ?? {}) as Record<string, unknown>).find(Array.isArray) as Rec[] | undefined;
  const found = new Set((orgs ?? []).filter((o) => ids.includes(String(o.identifier))).map((o) => String(o.sourcedId)));
  tools.state.set(key, found);
  return found;
}

/** Whether a record belongs to the claimed organizations alone: it is one, or every org it refers to is. */
function onlyClaimed(record: Rec, endpoint: string, allowed: Set<string>): boolean {
  if (endpoint === 'orgs' || endpoint === 'schools') return allowed.has(String(record.sourcedId));
  const refs: string[] = [];
  const walk = (v: unknown) => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') {
      const o = v as Rec;
      if (o.type === 'org' && typeof o.sourcedId === 'string') refs.push(o.sourcedId);
      else Object.values(o).forEach(walk);
    }
  };
  Object.values(record).forEach(walk);
  return refs.every((id) => allowed.has(id));
}

const SINGLE_KEYS: Record<string, string> = {
  orgs: 'org', schools: 'org', academicSessions: 'academicSession', terms: 'academicSession', gradingPeriods: 'academicSession',
  classes: 'class', courses: 'course', enrollments: 'enrollment', users: 'user', students: 'user', teachers: 'user', demographics: 'demographics',
};

export const rosterQueryFaults: Fault[] = [
  {
    name: 'roster-filter-or-widens-visibility', family: 'roster.roster-query', suites: ['rostering/query.spec.ts'], grepInvert: 'rostering paging',
    description: 'a filter with OR is evaluated over every organization, not only the caller\'s',
    request: async (req, tools) => {
      const known = organizationsSeen(req, tools);
      if (!isRoster(req) || !/\bOR\b/i.test(queryOf(req).get('filter') ?? '')) return;
      await tools.tokens.rewrite(req, (c) => {
        const claimed = String(c.educationOrganizationId ?? '').split(',').filter(Boolean);
        c.educationOrganizationId = [...new Set([...claimed, ...known])].join(',');
        return true;
      });
    },
  },
  {
    name: 'roster-fields-ignored', family: 'roster.roster-query', suites: ['rostering/query.spec.ts'], grepInvert: 'rostering paging',
    description: 'the fields parameter is ignored: whole records come back',
    request: (req) => { if (!isRoster(req)) return; const q = queryOf(req); if (q.has('fields')) { q.delete('fields'); setQuery(req, q); } },
  },
  {
    name: 'roster-invalid-limit-ignored', family: 'roster.roster-query', suites: ['rostering/query.spec.ts'], grepInvert: 'rostering paging',
    description: 'an invalid limit (0, -1, abc) is ignored instead of refused with 400',
    request: (req) => {
      if (!isRoster(req)) return;
      const q = queryOf(req);
      const limits = q.getAll('limit');
      if (limits.length && !(limits.length === 1 && /^[1-9]\d{0,8}$/.test(limits[0]))) { q.delete('limit'); setQuery(req, q); }
    },
  },
  {
    name: 'roster-query-ignored-beyond-first-collections', family: 'roster.roster-query', suites: ['rostering/query.spec.ts'], grep: 'every collection',
    description: 'only orgs, schools, users and academicSessions read their query parameters: on classes, courses, terms, gradingPeriods, enrollments, students, teachers and demographics limit, offset, sort, orderBy, fields and filter are ignored',
    request: (req) => {
      if (!isRoster(req) || !/\/v1p2\/(classes|courses|terms|gradingPeriods|enrollments|students|teachers|demographics)$/i.test(pathOf(req)) || !queryOf(req).size) return;
      setQuery(req, new URLSearchParams());
    },
  },
  {
    name: 'roster-no-claim-sees-everything', family: 'roster.roster-query', suites: ['rostering/visibility.spec.ts'],
    description: 'a token without educationOrganizationId sees every organization instead of nothing',
    request: async (req, tools) => {
      const known = organizationsSeen(req, tools);
      if (isRoster(req)) await tools.tokens.rewrite(req, (c) => c.educationOrganizationId === undefined && Boolean((c.educationOrganizationId = [...known].join(','))));
    },
  },
  {
    name: 'roster-claim-first-organization-only', family: 'roster.roster-query', suites: ['rostering/visibility.spec.ts'],
    description: 'a comma-separated educationOrganizationId claim grants only its first organization',
    request: async (req, tools) => {
      if (!isRoster(req)) return;
      await tools.tokens.rewrite(req, (c) => typeof c.educationOrganizationId === 'string' && c.educationOrganizationId.includes(',') && Boolean((c.educationOrganizationId = c.educationOrganizationId.split(',')[0])));
    },
  },
  {
    name: 'roster-single-read-not-limited', family: 'roster.roster-query', suites: ['rostering/visibility.spec.ts'],
    description: 'a single read by sourcedId is not limited to the caller\'s organizations',
    request: async (req, tools) => {
      const known = organizationsSeen(req, tools);
      if (!isRoster(req) || !/\/std\/roster\/rostering\/v1p2\/[^/]+\/[^/?]+/.test(pathOf(req))) return;
      await tools.tokens.rewrite(req, (c) => {
        const claimed = String(c.educationOrganizationId ?? '').split(',').filter(Boolean);
        c.educationOrganizationId = [...new Set([...claimed, ...known])].join(',');
        return true;
      });
    },
  },
  {
    name: 'roster-total-count-of-page', family: 'roster.roster-query', suites: ['rostering/query.spec.ts'], grep: 'rostering paging',
    description: 'X-Total-Count holds the number of records on the page, not the number matching',
    response: (res, req) => {
      const n = isRoster(req) && res.status === 200 && header(res, 'x-total-count') !== undefined ? jsonOf(res) : undefined;
      const list = n && typeof n === 'object' ? Object.values(n as Record<string, unknown>).find(Array.isArray) : undefined;
      if (list) res.headers['x-total-count'] = String(list.length);
    },
  },
  // ---- conforming deviations: the seed allows them, the verdict must stay conformant ----
  {
    name: 'roster-claim-exact-organizations', family: 'roster.roster-query', suites: ['rostering'], expect: 'conformant',
    description: 'a token sees exactly the organizations its claim names, not their descendants (upstream\'s Down(T) is SHOULD): records of other organizations are left out',
    response: async (res, req, tools) => {
      const endpoint = isRoster(req) && res.status === 200 ? /\/std\/roster\/rostering\/v1p2\/([^/?]+)/.exec(pathOf(req))?.[1] : undefined;
      const ids = endpoint ? claimedIds(req, tools) : undefined;
      if (!endpoint || !ids) return;
      const allowed = await claimedOrgRecords(req, tools, ids);
      const body = jsonOf(res) as Rec | undefined;
      const [key, value] = Object.entries(body ?? {})[0] ?? [];
      if (Array.isArray(value)) editJson(res, () => ({ [key]: (value as Rec[]).filter((r) => onlyClaimed(r, endpoint, allowed)) }));
      else if (value && typeof value === 'object' && !onlyClaimed(value as Rec, endpoint, allowed)) rosterFailure(res, 404, `Resource not found: ${endpoint}`);
    },
  },
  {
    name: 'roster-no-claim-single-null', family: 'roster.roster-query', suites: ['rostering'], expect: 'conformant',
    description: 'without an educationOrganizationId claim a single read answers 200 {"<key>": null} instead of 404 (decision 37: either conforms)',
    response: (res, req, tools) => {
      const endpoint = isRoster(req) && req.method === 'GET' && res.status === 404 ? rosterItem(req) : undefined;
      if (!endpoint || !SINGLE_KEYS[endpoint] || !Tokens.bearer(req) || claimedIds(req, tools) !== undefined) return;
      res.status = 200;
      editJson(res, () => ({ [SINGLE_KEYS[endpoint]]: null }));
    },
  },
  {
    name: 'roster-no-claim-single-empty', family: 'roster.roster-query', suites: ['rostering/visibility.spec.ts'], expect: 'conformant',
    description: 'without an educationOrganizationId claim a single read answers 200 with an empty body {} instead of 404 (decision 37: either conforms)',
    response: (res, req, tools) => {
      const endpoint = isRoster(req) && req.method === 'GET' && res.status === 404 ? rosterItem(req) : undefined;
      if (!endpoint || !SINGLE_KEYS[endpoint] || !Tokens.bearer(req) || claimedIds(req, tools) !== undefined) return;
      res.status = 200;
      editJson(res, () => ({}));
    },
  },
];
