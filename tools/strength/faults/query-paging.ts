/** Faulty deployments that break data.query-paging. */
import { dataPath, header, jsonOf, queryOf, setQuery, type ProxiedRequest } from '../proxy.js';
import { isData, collection, item, problem, problemOf, rewriteParameter, PAGING, type Fault } from './helpers.js';
import { model } from './served-model.js';

/**
 * The generated every-resource tests (query-paging/every-resource.spec.ts, 350 of them): left out
 * of the runs of faults they cannot notice (paging, counts, parameter names), which they would
 * only make longer, and of property-filters-ignored, which query.spec.ts catches at MUST level
 * already: there every one of them fails, and a run stopped by cursor.spec.ts's SHOULD failures
 * first, then run again to its end, would outlast the run timeout.
 */
const EVERY_RESOURCE = 'every resource: its scalar members and id as query parameters';

/** The seed's three examples of per-resource query parameters (query.spec.ts tests them by hand). */
const SEED_EXAMPLES = new Set(['academicWeek', 'accountabilityRating', 'assessment']);

/**
 * Drops, from a GET collection of a resource `which` picks, the query parameters naming a
 * top-level member that is not part of the natural key and not a descriptor (strings, numbers,
 * booleans, dates, times): a deployment whose equality search misses them.
 */
function ignoresNonKeyScalars(which: (resource: string, isDescriptor: boolean) => boolean) {
  return (req: ProxiedRequest) => {
    if (!collection(req) || req.method !== 'GET') return;
    const r = model.byEndpoint.get(dataPath(req)!.resource.toLowerCase());
    if (!r || !which(r.name, r.isDescriptor)) return;
    const ignored = new Set(Object.entries(r.fields).filter(([, f]) => !f.identity && !['descriptor', 'reference', 'collection', 'object', 'extension'].includes(f.kind)).map(([n]) => n.toLowerCase()));
    const q = queryOf(req);
    const kept = new URLSearchParams([...q].filter(([name]) => !ignored.has(name.toLowerCase())));
    if (kept.toString() !== q.toString()) setQuery(req, kept);
  };
}

export const queryPagingFaults: Fault[] = [
  // Caught only where every resource's routes are asked (query-paging/every-collection.spec.ts):
  // paging.spec.ts asks a descriptor.
  {
    name: 'total-count-refused-beyond-descriptors', family: 'data.query-paging', suites: ['query-paging'], grepInvert: EVERY_RESOURCE,
    description: 'only descriptor routes know totalCount: every other resource\'s collection and feeds refuse it as an unknown parameter (400)',
    request: (req) => {
      const at = req.method === 'GET' ? dataPath(req) : undefined;
      if (!at || /descriptors$/i.test(at.resource) || ![...queryOf(req).keys()].some((k) => k.toLowerCase() === 'totalcount')) return;
      return problem('bad-request:parameter-validation-failed', { errors: ['The request parameter totalCount is not supported.'] });
    },
  },
  {
    name: 'total-count-off-by-one', family: 'data.query-paging', suites: ['query-paging'], grepInvert: EVERY_RESOURCE,
    description: 'Total-Count is one more than the number of matches',
    response: (res, req) => { const t = header(res, 'total-count'); if (isData(req) && t) res.headers['total-count'] = String(Number(t) + 1); },
  },
  {
    name: 'page-repeats-item', family: 'data.query-paging', suites: ['query-paging'], grepInvert: EVERY_RESOURCE,
    description: 'every page after the first starts with the last item of the page before (offset counted from 1)',
    request: (req) => {
      if (!collection(req) || req.method !== 'GET') return;
      const q = queryOf(req);
      const offset = Number(q.get('offset') ?? 0);
      if (offset > 0) { q.set('offset', String(offset - 1)); setQuery(req, q); }
    },
  },
  {
    name: 'total-count-unasked', family: 'data.query-paging', suites: ['query-paging'], grepInvert: EVERY_RESOURCE,
    description: 'Total-Count is sent even when totalCount is missing or false',
    response: (res, req) => {
      if (!collection(req) || req.method !== 'GET' || res.status !== 200 || header(res, 'total-count')) return;
      const items = jsonOf(res);
      if (Array.isArray(items)) res.headers['total-count'] = String(items.length);
    },
  },
  {
    name: 'property-filters-ignored', family: 'data.query-paging', suites: ['query-paging'], grepInvert: EVERY_RESOURCE,
    description: 'query parameters naming properties are ignored: the whole collection is paged',
    request: (req) => {
      if (!collection(req) || req.method !== 'GET') return;
      const q = queryOf(req);
      const kept = new URLSearchParams([...q].filter(([name]) => PAGING.has(name.toLowerCase())));
      setQuery(req, kept);
    },
  },
  {
    name: 'parameter-names-case-sensitive', family: 'data.query-paging', suites: ['query-paging'], grepInvert: EVERY_RESOURCE,
    description: 'query parameter names in another casing (NAMESPACE, Offset) are refused with 400',
    request: (req) => {
      if (!collection(req) || req.method !== 'GET') return;
      const odd = [...queryOf(req).keys()].filter((n) => /^[A-Z]/.test(n) && !/^M(in|ax)ChangeVersion$/.test(n));
      if (odd.length) return problem('bad-request:parameter-validation-failed', { errors: odd.map((n) => `The query parameter '${n}' is not supported.`) });
    },
  },
  {
    name: 'id-filter-ignored', family: 'data.query-paging', suites: ['query-paging'],
    description: 'the id query parameter is ignored: the whole collection comes back',
    request: (req) => {
      if (!collection(req) || req.method !== 'GET') return;
      rewriteParameter(req, 'id', () => null);
    },
  },
  {
    name: 'limit-zero-returns-all', family: 'data.query-paging', suites: ['query-paging'], grepInvert: EVERY_RESOURCE,
    description: 'limit=0 is read as no limit',
    request: (req) => {
      if (!collection(req) || req.method !== 'GET') return;
      const q = queryOf(req);
      const name = [...q.keys()].find((k) => k.toLowerCase() === 'limit');
      if (name && q.get(name) === '0') { q.delete(name); setQuery(req, q); }
    },
  },
  {
    name: 'date-filters-ignored', family: 'data.query-paging', suites: ['query-paging'],
    description: 'query parameters with date values (beginDate=2024-09-02) are ignored',
    request: (req) => {
      if (!collection(req) || req.method !== 'GET') return;
      const q = queryOf(req);
      const kept = new URLSearchParams([...q].filter(([, v]) => !/^\d{4}-\d{2}-\d{2}$/.test(v)));
      if (kept.toString() !== q.toString()) setQuery(req, kept);
    },
  },
  {
    name: 'default-page-size-25', family: 'data.query-paging', suites: ['query-paging'], grepInvert: EVERY_RESOURCE,
    description: 'a GET collection without limit returns 25 items, not up to the maximum page size',
    request: (req) => {
      if (!collection(req) || req.method !== 'GET') return;
      const q = queryOf(req);
      if (![...q.keys()].some((k) => k.toLowerCase() === 'limit')) { q.set('limit', '25'); setQuery(req, q); }
    },
  },
  {
    name: 'total-count-zero-past-end', family: 'data.query-paging', suites: ['query-paging'], grepInvert: EVERY_RESOURCE,
    description: 'an empty page past the end carries Total-Count 0 (the count read off the page\'s rows, as a COUNT(*) OVER () would)',
    response: (res, req) => {
      const offset = Number(queryOf(req).get('offset') ?? 0);
      if (!collection(req) || req.method !== 'GET' || res.status !== 200 || !header(res, 'total-count') || !(offset > 0)) return;
      const items = jsonOf(res);
      if (Array.isArray(items) && !items.length) res.headers['total-count'] = '0';
    },
  },
  {
    name: 'page-token-alphabet-loose', family: 'data.query-paging', suites: ['query-paging'], grepInvert: EVERY_RESOURCE,
    description: 'a page token is decoded skipping characters no token holds: a real token with "!" around it pages as the token',
    request: (req) => {
      if (!collection(req) || req.method !== 'GET') return;
      rewriteParameter(req, 'pagetoken', (token) => token.replace(/[^A-Za-z0-9_-]/g, ''));
    },
  },
  {
    name: 'non-key-filters-ignored-beyond-the-examples', family: 'data.query-paging', suites: ['query-paging/every-resource.spec.ts'],
    description: 'query parameters naming a non-key scalar member (a string, number, boolean, date or time that is not part of the natural key) are ignored on every resource but the seed\'s three examples and the descriptors',
    request: ignoresNonKeyScalars((name, isDescriptor) => !SEED_EXAMPLES.has(name) && !isDescriptor),
  },
  {
    name: 'descriptor-detail-filters-ignored', family: 'data.query-paging', suites: ['query-paging/every-resource.spec.ts'],
    description: 'on descriptors, query parameters naming shortDescription, description, the effective dates or priorDescriptorId are ignored (namespace and codeValue still filter)',
    request: (req) => {
      if (!collection(req) || req.method !== 'GET' || !/Descriptors$/i.test(dataPath(req)!.resource)) return;
      const q = queryOf(req);
      const kept = new URLSearchParams([...q].filter(([name]) => !['shortdescription', 'description', 'effectivebegindate', 'effectiveenddate', 'priordescriptorid'].includes(name.toLowerCase())));
      if (kept.toString() !== q.toString()) setQuery(req, kept);
    },
  },
  {
    name: 'query-value-parameter-validation', family: 'data.query-paging', suites: ['query-paging/query.spec.ts'], expect: 'conformant', warns: ['data.query-paging.wrong-type-parameter-400'],
    description: 'a property\'s query value of the wrong type is answered parameter-validation-failed with errors, not data-validation-failed at $.<parameter> as ?id= is',
    response: (res, req) => {
      const p = collection(req) && req.method === 'GET' ? problemOf(res) : undefined;
      const errors = p?.validationErrors as Record<string, string[]> | undefined;
      if (!errors || Object.keys(errors).some((k) => k === '$.id')) return;
      Object.assign(res, problem('bad-request:parameter-validation-failed', { detail: 'The request construction was invalid.', errors: Object.values(errors).flat() }));
    },
  },
];
