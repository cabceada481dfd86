/** Faulty deployments that break roster.roster-query. */
import { header, jsonOf, pathOf, queryOf, setQuery } from '../proxy.js';
import { isRoster, grants, organizationsSeen, type Fault } from './helpers.js';

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
];
