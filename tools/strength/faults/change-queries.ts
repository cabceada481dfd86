/** Faulty deployments that break data.change-queries. */
import { dataPath, pathOf, queryOf, setQuery, type ProxiedRequest } from '../proxy.js';
import { collection, isData, item, feed, editJson, onOneResource, problem, rewriteParameter, type Fault } from './helpers.js';

/** A feed (the one `which` names) that drops an in-range limit (0 to 500), so the whole page comes back; an out-of-range one still reaches the deployment. */
const ignoresInRangeLimit = (which: RegExp) => (req: ProxiedRequest) => {
  if (feed(req) && which.test(pathOf(req))) rewriteParameter(req, 'limit', (v) => (/^\d+$/.test(v) && Number(v) <= 500 ? null : undefined));
};

export const changeQueriesFaults: Fault[] = [
  {
    name: 'deletes-missing-item', family: 'data.change-queries', suites: ['change-queries'],
    description: '/deletes leaves out the newest item of every page',
    response: (res, req) => {
      if (!feed(req) || !/deletes/i.test(pathOf(req)) || res.status !== 200) return;
      editJson(res, (items) => (Array.isArray(items) && items.length ? items.slice(0, -1) : items));
    },
  },
  {
    name: 'feed-order-descending', family: 'data.change-queries', suites: ['change-queries'],
    description: '/deletes and /keyChanges list items newest first',
    response: (res, req) => { if (feed(req) && res.status === 200) editJson(res, (items) => (Array.isArray(items) ? items.reverse() : items)); },
  },
  {
    name: 'feed-min-bound-exclusive', family: 'data.change-queries', suites: ['change-queries'],
    description: 'MinChangeVersion on the feeds is an exclusive bound',
    request: (req) => {
      if (!feed(req)) return;
      const q = queryOf(req);
      const name = [...q.keys()].find((k) => k.toLowerCase() === 'minchangeversion');
      if (name && /^\d+$/.test(q.get(name)!)) { q.set(name, String(Number(q.get(name)) + 1)); setQuery(req, q); }
    },
  },
  {
    name: 'key-changes-order-descending', family: 'data.change-queries', suites: ['change-queries'],
    description: '/keyChanges (only) lists items newest first',
    response: (res, req) => { if (feed(req) && /keyChanges/i.test(pathOf(req)) && res.status === 200) editJson(res, (items) => (Array.isArray(items) ? items.reverse() : items)); },
  },
  {
    name: 'deletes-not-filtered-by-authorization', family: 'data.change-queries', suites: ['change-queries'],
    description: '/deletes lists every deletion, also of records the caller may not see',
    request: async (req, tools) => { if (feed(req)) await tools.tokens.rewrite(req, (c) => c.client_id === tools.clients.schoolLimited?.key && Boolean((c.client_id = tools.clients.primary.key))); },
  },
  {
    name: 'available-change-versions-frozen', family: 'data.change-queries', suites: ['change-queries'],
    description: 'availableChangeVersions keeps answering the newestChangeVersion it first gave',
    response: (res, req, tools) => {
      if (!isData(req) || !/availableChangeVersions$/.test(pathOf(req)) || res.status !== 200) return;
      editJson(res, (b) => {
        const body = b as { newestChangeVersion?: number };
        const first = tools.state.get('newest') as number | undefined;
        if (first === undefined) tools.state.set('newest', body.newestChangeVersion);
        else body.newestChangeVersion = first;
      });
    },
  },
  {
    name: 'feed-max-change-version-ignored', family: 'data.change-queries', suites: ['change-queries'],
    description: 'the feeds ignore MaxChangeVersion',
    request: (req) => { if (feed(req)) rewriteParameter(req, 'maxchangeversion', () => null); },
  },
  {
    name: 'collection-min-change-version-ignored', family: 'data.change-queries', suites: ['change-queries'],
    description: 'GET collection ignores MinChangeVersion',
    request: (req) => { if (collection(req) && req.method === 'GET') rewriteParameter(req, 'minchangeversion', () => null); },
  },
  {
    name: 'feed-offset-ignored', family: 'data.change-queries', suites: ['change-queries'],
    description: '/deletes and /keyChanges ignore offset: every page starts at the first item',
    request: (req) => { if (feed(req)) rewriteParameter(req, 'offset', () => null); },
  },
  {
    name: 'key-changes-limit-ignored', family: 'data.change-queries', suites: ['change-queries'],
    description: '/keyChanges ignores an in-range limit (0 to 500) and always answers up to 500 items; an out-of-range limit is still refused',
    request: ignoresInRangeLimit(/keyChanges/i),
  },
  {
    name: 'deletes-missing-on-one-resource', family: 'data.change-queries', suites: ['query-paging/every-resource.spec.ts'],
    description: 'cohorts (a resource no hand-written feed test reads) has no /deletes: 404 not-found',
    request: (req) => {
      if (feed(req) && onOneResource(req) && /deletes/i.test(pathOf(req))) return problem('not-found');
    },
  },
  {
    name: 'key-changes-never-listed-on-one-resource', family: 'data.change-queries', suites: ['query-paging/every-resource.spec.ts'],
    description: 'sessions (an updatable resource no hand-written feed test reads) answers /keyChanges with an empty array whatever keys changed',
    response: (res, req) => {
      if (feed(req) && dataPath(req)!.resource.toLowerCase() === 'sessions' && /keyChanges/i.test(pathOf(req)) && res.status === 200) editJson(res, () => []);
    },
  },
  {
    name: 'collection-change-versions-ignored-on-one-resource', family: 'data.change-queries', suites: ['query-paging/every-resource.spec.ts'],
    description: 'cohorts (a resource no hand-written change-version test reads) ignores MinChangeVersion and MaxChangeVersion on GET collection',
    request: (req) => {
      if (!collection(req) || req.method !== 'GET' || !onOneResource(req)) return;
      rewriteParameter(req, 'minchangeversion', () => null);
      rewriteParameter(req, 'maxchangeversion', () => null);
    },
  },
  {
    name: 'feed-max-change-version-refused-on-one-resource', family: 'data.change-queries', suites: ['change-queries', 'query-paging/every-resource.spec.ts'],
    description: 'cohorts (a resource no hand-written feed test reads) refuses MaxChangeVersion on its /deletes and /keyChanges as an unknown parameter (400)',
    request: (req) => {
      if (!feed(req) || req.method !== 'GET' || !onOneResource(req)) return;
      if ([...queryOf(req).keys()].some((k) => k.toLowerCase() === 'maxchangeversion')) return problem('bad-request:parameter-validation-failed', { errors: ['The request parameter MaxChangeVersion is not supported.'] });
    },
  },
  {
    name: 'deletes-limit-ignored', family: 'data.change-queries', suites: ['change-queries'],
    description: '/deletes ignores an in-range limit (0 to 500) and always answers up to 500 items; an out-of-range limit is still refused',
    request: ignoresInRangeLimit(/deletes/i),
  },
  // Conforming: the seed shows neither the bounds' inclusiveness nor the feed items' fields.
  {
    name: 'change-version-bounds-exclusive', family: 'data.change-queries', suites: ['change-queries', 'snapshot', 'query-paging/every-resource.spec.ts'], expect: 'conformant',
    description: 'MinChangeVersion and MaxChangeVersion are exclusive bounds, on collections and feeds alike',
    request: (req) => {
      if (!isData(req) || req.method !== 'GET' || !(collection(req) || feed(req))) return;
      rewriteParameter(req, 'minchangeversion', (v) => (/^\d+$/.test(v) ? String(Number(v) + 1) : undefined));
      rewriteParameter(req, 'maxchangeversion', (v) => (/^\d+$/.test(v) && Number(v) > 0 ? String(Number(v) - 1) : undefined));
    },
  },
  {
    name: 'key-changes-total-count-missing', family: 'data.change-queries', suites: ['change-queries'], expect: 'conformant', warns: ['data.query-paging.total-count-header'],
    description: '/keyChanges sends no Total-Count header, even with totalCount=true (the seed does not say what totalCount does; the header is decision 13, SHOULD)',
    response: (res, req) => { if (feed(req) && /keyChanges/i.test(pathOf(req))) delete res.headers['total-count']; },
  },
  {
    name: 'feed-item-fields-renamed', family: 'data.change-queries', suites: ['change-queries', 'snapshot'], expect: 'conformant',
    description: 'feed items name their fields otherwise: {resourceId, version, keys} and {resourceId, version, oldKeys, newKeys}',
    response: (res, req) => {
      if (!feed(req) || res.status !== 200) return;
      const names: Record<string, string> = { id: 'resourceId', changeVersion: 'version', keyValues: 'keys', oldKeyValues: 'oldKeys', newKeyValues: 'newKeys' };
      editJson(res, (items) => (Array.isArray(items) ? items.map((i: Record<string, unknown>) => Object.fromEntries(Object.entries(i).map(([k, v]) => [names[k] ?? k, v]))) : items));
    },
  },
];
