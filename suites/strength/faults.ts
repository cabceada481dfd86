import { createHash, randomUUID } from 'node:crypto';
import registry from '../../spec/errors/problem-types.json' with { type: 'json' };
import {
  answerJson, dataPath, eachObject, header, jsonOf, pathOf, queryOf, setJson, setQuery, Tokens,
  type ProxiedRequest, type ProxiedResponse, type Tools, type Transformer,
} from './proxy.js';

/**
 * The catalogue of faulty deployments: each fault is one deviation from the seed, made by the
 * proxy out of the conforming reference, with the rule family it breaks and the suites that must
 * notice it. A fault that no test notices is a missing test.
 */
export interface Fault extends Transformer {
  name: string;
  /** The rule family the deviation breaks (`data.<family>` or `roster.<family>`). */
  family: string;
  description: string;
  /** Suite folders or spec files under suites/ to run against it. */
  suites: string[];
  /** Playwright --grep / --grep-invert, to leave out expensive tests that cannot notice it. */
  grep?: string;
  grepInvert?: string;
}

// ---- small predicates and builders ---------------------------------------------------------------

const isData = (req: ProxiedRequest) => req.route.service === 'data';
const isRoster = (req: ProxiedRequest) => req.route.service === 'rostering';
const isWrite = (req: ProxiedRequest) => req.method === 'POST' || req.method === 'PUT';
/** Data requests on a resource collection, an item (`<resource>/<id>`), or a feed (`/deletes`, `/keyChanges`). */
const collection = (req: ProxiedRequest) => isData(req) && dataPath(req)?.rest.length === 0;
const item = (req: ProxiedRequest) => { const p = isData(req) ? dataPath(req) : undefined; return p?.rest.length === 1 && !['deletes', 'keychanges'].includes(p.rest[0].toLowerCase()); };
const feed = (req: ProxiedRequest) => { const p = isData(req) ? dataPath(req) : undefined; return p?.rest.length === 1 && ['deletes', 'keychanges'].includes(p.rest[0].toLowerCase()); };
const tokenEndpoint = (req: ProxiedRequest) => isData(req) && /\/oauth\/token$/.test(pathOf(req));
const isJson = (m: { headers: ProxiedRequest['headers'] }) => /json/i.test(header(m, 'content-type') ?? '');

/** The problem body of a response, when it is one. */
function problemOf(res: ProxiedResponse): Record<string, unknown> | undefined {
  if (res.status < 400 || !isJson(res)) return undefined;
  const body = jsonOf(res);
  return body && typeof body === 'object' && typeof (body as { type?: unknown }).type === 'string' ? (body as Record<string, unknown>) : undefined;
}

const hasType = (res: ProxiedResponse, suffix: string) => String(problemOf(res)?.type ?? '').endsWith(suffix);

/** A problem-details response as the reference would write it. */
function problem(suffix: string, extras: Record<string, unknown> = {}): ProxiedResponse {
  const entry = registry.problemTypes.find((p) => p.suffix === suffix)!;
  const res: ProxiedResponse = { status: entry.status, headers: {}, body: Buffer.alloc(0) };
  answerJson(res, entry.status, { detail: entry.detail, type: `${registry.prefix}${suffix}`, title: entry.title, status: entry.status, correlationId: randomUUID(), ...extras });
  return res;
}

/** Changes a JSON response body in place (only when it is JSON). */
function editJson(res: ProxiedResponse, edit: (body: unknown) => unknown): void {
  if (!isJson(res)) return;
  const body = jsonOf(res);
  if (body === undefined) return;
  setJson(res, edit(body) ?? body);
}

/** Changes a JSON request body in place; answers whether it changed it. */
function editRequestJson(req: ProxiedRequest, edit: (body: Record<string, unknown>) => boolean): boolean {
  const body = jsonOf(req);
  if (!body || typeof body !== 'object' || Array.isArray(body) || !edit(body as Record<string, unknown>)) return false;
  setJson(req, body);
  return true;
}

const empty = (res: ProxiedResponse, status: number) => {
  res.status = status;
  res.body = Buffer.alloc(0);
  delete res.headers['content-type'];
};

const PAGING = new Set(['offset', 'limit', 'totalcount', 'minchangeversion', 'maxchangeversion']);

/** The rostering scopes a scope claim grants, read as the seed says (exact entries). */
const ROSTER_SCOPES = ['roster-core.readonly', 'roster.readonly', 'roster-demographics.readonly'];
const scopeEntries = (v: unknown): string[] => (Array.isArray(v) ? v : v === undefined ? [] : [v]).flatMap((x) => String(x).split(/[\s,]+/)).filter(Boolean);
const grants = (entries: string[], name: string) => entries.some((e) => e === name || e.endsWith(`/${name}`));

const now = () => Math.floor(Date.now() / 1000);

/** `{base_url}` of a data request (everything before /data/v3 or /oauth). */
const baseOf = (req: ProxiedRequest) => pathOf(req).replace(/\/(data\/v3|oauth)\/.*$/, '');

/**
 * Education organization ids written through the data API (schools, districts, state agencies),
 * remembered by the proxy so that a rostering fault can widen a token to organizations the caller
 * was never given.
 */
function organizationsSeen(req: ProxiedRequest, tools: Tools): Set<string> {
  const known = (tools.state.get('organizations') as Set<string> | undefined) ?? new Set<string>();
  tools.state.set('organizations', known);
  if (isData(req) && req.method === 'POST') {
    const body = jsonOf(req) as Record<string, unknown> | undefined;
    for (const k of ['schoolId', 'localEducationAgencyId', 'stateEducationAgencyId']) if (Number.isInteger(body?.[k])) known.add(String(body![k]));
  }
  return known;
}

// ---- the catalogue --------------------------------------------------------------------------------

export const faults: Fault[] = [
  // upsert
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
    name: 'location-missing-on-200', family: 'data.upsert', suites: ['upsert'],
    description: 'a POST that updates an existing record (200) sends no Location',
    response: (res, req) => { if (collection(req) && req.method === 'POST' && res.status === 200) delete res.headers.location; },
  },
  {
    name: 'id-in-post-body-accepted', family: 'data.upsert', suites: ['upsert'],
    description: 'an id in a POST body is silently dropped instead of refused with 400',
    request: (req) => { if (collection(req) && req.method === 'POST') editRequestJson(req, (b) => 'id' in b && delete b.id); },
  },

  // put
  {
    name: 'put-204-as-200', family: 'data.put', suites: ['put'],
    description: 'a successful PUT answers 200 instead of 204',
    response: (res, req) => { if (item(req) && req.method === 'PUT' && res.status === 204) res.status = 200; },
  },
  {
    name: 'put-unknown-id-204', family: 'data.put', suites: ['put'],
    description: 'a PUT to an id that does not exist answers 204 instead of 404',
    response: (res, req) => { if (item(req) && req.method === 'PUT' && res.status === 404) empty(res, 204); },
  },
  {
    name: 'key-change-ignored', family: 'data.put', suites: ['put'],
    description: 'a natural-key change on a non-updatable resource answers 204 instead of 400 key-change-not-supported',
    response: (res, req) => { if (item(req) && req.method === 'PUT' && hasType(res, 'key-change-not-supported')) empty(res, 204); },
  },
  {
    name: 'put-not-applied', family: 'data.put', suites: ['put'],
    description: 'a PUT answers 204 without changing the record',
    request: (req) => { if (item(req) && req.method === 'PUT' && !header(req, 'if-match')) return { status: 204, headers: {}, body: Buffer.alloc(0) }; },
  },
  {
    name: 'put-body-id-names-record', family: 'data.put', suites: ['put'],
    description: 'a PUT whose body carries another record\'s id updates that record, not the one the path names',
    request: (req) => {
      const p = item(req) && req.method === 'PUT' ? dataPath(req) : undefined;
      const id = (jsonOf(req) as { id?: unknown } | undefined)?.id;
      if (p && typeof id === 'string' && /^[0-9a-f]{32}$/i.test(id) && id !== p.rest[0]) req.url = req.url.replace(p.rest[0], id);
    },
  },

  // delete
  {
    name: 'dependent-item-delete-allowed', family: 'data.delete', suites: ['delete'],
    description: 'deleting a record that others reference answers 204 instead of 409 dependent-item-exists',
    response: (res, req) => { if (item(req) && req.method === 'DELETE' && hasType(res, 'dependent-item-exists')) empty(res, 204); },
  },
  {
    name: 'delete-unknown-id-204', family: 'data.delete', suites: ['delete'],
    description: 'deleting an id that does not exist answers 204 instead of 404',
    response: (res, req) => { if (item(req) && req.method === 'DELETE' && res.status === 404) empty(res, 204); },
  },

  // etag
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

  // query-paging
  {
    name: 'total-count-off-by-one', family: 'data.query-paging', suites: ['query-paging'],
    description: 'Total-Count is one more than the number of matches',
    response: (res, req) => { const t = header(res, 'total-count'); if (isData(req) && t) res.headers['total-count'] = String(Number(t) + 1); },
  },
  {
    name: 'page-repeats-item', family: 'data.query-paging', suites: ['query-paging'],
    description: 'every page after the first starts with the last item of the page before (offset counted from 1)',
    request: (req) => {
      if (!collection(req) || req.method !== 'GET') return;
      const q = queryOf(req);
      const offset = Number(q.get('offset') ?? 0);
      if (offset > 0) { q.set('offset', String(offset - 1)); setQuery(req, q); }
    },
  },
  {
    name: 'total-count-unasked', family: 'data.query-paging', suites: ['query-paging'],
    description: 'Total-Count is sent even when totalCount is missing or false',
    response: (res, req) => {
      if (!collection(req) || req.method !== 'GET' || res.status !== 200 || header(res, 'total-count')) return;
      const items = jsonOf(res);
      if (Array.isArray(items)) res.headers['total-count'] = String(items.length);
    },
  },
  {
    name: 'property-filters-ignored', family: 'data.query-paging', suites: ['query-paging'],
    description: 'query parameters naming properties are ignored: the whole collection is paged',
    request: (req) => {
      if (!collection(req) || req.method !== 'GET') return;
      const q = queryOf(req);
      const kept = new URLSearchParams([...q].filter(([name]) => PAGING.has(name.toLowerCase())));
      setQuery(req, kept);
    },
  },
  {
    name: 'parameter-names-case-sensitive', family: 'data.query-paging', suites: ['query-paging'],
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
      const q = queryOf(req);
      const name = [...q.keys()].find((k) => k.toLowerCase() === 'id');
      if (name) { q.delete(name); setQuery(req, q); }
    },
  },
  {
    name: 'limit-zero-returns-all', family: 'data.query-paging', suites: ['query-paging'],
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
    name: 'default-page-size-25', family: 'data.query-paging', suites: ['query-paging'],
    description: 'a GET collection without limit returns 25 items, not up to the maximum page size',
    request: (req) => {
      if (!collection(req) || req.method !== 'GET') return;
      const q = queryOf(req);
      if (![...q.keys()].some((k) => k.toLowerCase() === 'limit')) { q.set('limit', '25'); setQuery(req, q); }
    },
  },

  // change-queries
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

  // snapshot
  {
    name: 'use-snapshot-write-accepted', family: 'data.snapshot', suites: ['snapshot'],
    description: 'writes with Use-Snapshot: true are carried out instead of refused with 405',
    request: (req) => { if (isData(req) && req.method !== 'GET') delete req.headers['use-snapshot']; },
  },
  {
    name: 'use-snapshot-read-ignored', family: 'data.snapshot', suites: ['snapshot'],
    description: 'reads with Use-Snapshot: true are served from live data',
    request: (req) => { if (isData(req) && req.method === 'GET') delete req.headers['use-snapshot']; },
  },
  {
    name: 'key-changes-snapshot-ignored', family: 'data.snapshot', suites: ['snapshot'],
    description: '/keyChanges (only) is served from live data under Use-Snapshot: true',
    request: (req) => { if (feed(req) && /keyChanges/i.test(pathOf(req))) delete req.headers['use-snapshot']; },
  },

  // validation
  {
    name: 'content-type-not-checked', family: 'data.validation', suites: ['validation'],
    description: 'a write body without Content-Type, or with a non-JSON one, is read as JSON (no 415)',
    request: (req) => { if (dataPath(req) && isWrite(req) && !isJson(req)) req.headers['content-type'] = 'application/json'; },
  },
  {
    name: 'validation-path-without-index', family: 'data.validation', suites: ['validation'],
    description: 'validationErrors paths leave out array indexes ($.items.field instead of $.items[1].field)',
    response: (res, req) => {
      const p = isData(req) ? problemOf(res) : undefined;
      if (!p?.validationErrors) return;
      p.validationErrors = Object.fromEntries(Object.entries(p.validationErrors as object).map(([k, v]) => [k.replace(/\[\d+\]/g, ''), v]));
      setJson(res, p);
    },
  },
  {
    name: 'int64-as-string', family: 'data.validation', suites: ['validation'],
    description: 'integers beyond the int32 range are returned as JSON strings',
    response: (res, req) => {
      if (!isData(req) || req.method !== 'GET' || res.status !== 200 || !dataPath(req)) return;
      editJson(res, (body) => eachObject(body, (o) => { for (const [k, v] of Object.entries(o)) if (Number.isInteger(v) && Math.abs(v as number) > 2147483647) o[k] = String(v); }));
    },
  },
  {
    name: 'int32-overflow-clamped', family: 'data.validation', suites: ['validation'],
    description: 'an integer above 2147483647 in an int32 field is clamped to 2147483647 instead of refused',
    request: (req) => {
      if (!dataPath(req) || !isWrite(req)) return;
      editRequestJson(req, (b) => {
        let changed = false;
        eachObject(b, (o) => { for (const [k, v] of Object.entries(o)) if (k === 'totalInstructionalDays' && typeof v === 'number' && v > 2147483647) { o[k] = 2147483647; changed = true; } });
        return changed;
      });
    },
  },
  {
    name: 'dangerous-markup-stripped', family: 'data.validation', suites: ['validation'],
    description: 'markup tags in strings are stripped and the write accepted instead of refused with 400',
    request: (req) => {
      if (!dataPath(req) || !isWrite(req)) return;
      editRequestJson(req, (b) => {
        let changed = false;
        eachObject(b, (o) => { for (const [k, v] of Object.entries(o)) if (typeof v === 'string' && /<\/?[a-z!?][^>]*>/i.test(v)) { o[k] = v.replace(/<\/?[a-z!?][^>]*>/gi, ''); changed = true; } });
        return changed;
      });
    },
  },
  {
    name: 'utf16-body-transcoded', family: 'data.validation', suites: ['validation'],
    description: 'a body declared and encoded as UTF-16 is transcoded and accepted instead of refused with 400',
    request: (req) => {
      const t = header(req, 'content-type') ?? '';
      if (!dataPath(req) || !/charset=utf-16/i.test(t)) return;
      req.body = Buffer.from(req.body.toString('utf16le').replace(/^\ufeff/, ''), 'utf8');
      req.headers['content-type'] = 'application/json';
    },
  },

  // references
  {
    name: 'unresolved-reference-detail-generic', family: 'data.references', suites: ['references'],
    description: 'the 409 for an unresolved reference names no referenced type (generic detail, no errors)',
    response: (res, req) => {
      const p = isData(req) && hasType(res, 'unresolved-reference') ? problemOf(res) : undefined;
      if (!p) return;
      p.detail = 'The request conflicts with the current state of the data.';
      delete p.errors;
      setJson(res, p);
    },
  },
  {
    name: 'reference-extra-member', family: 'data.references', suites: ['references'],
    description: 'reference objects in responses carry a member besides the key fields and link',
    response: (res, req) => {
      if (!isData(req) || req.method !== 'GET' || res.status !== 200 || !dataPath(req)) return;
      editJson(res, (body) => eachObject(body, (o) => {
        for (const [k, v] of Object.entries(o)) if (/Reference$/.test(k) && v && typeof v === 'object' && !Array.isArray(v)) (v as Record<string, unknown>).referenceType = k.replace(/Reference$/, '');
      }));
    },
  },
  {
    name: 'client-link-stored', family: 'data.references', suites: ['references'],
    description: 'link objects a client sends inside references are stored and served back',
    response: (res, req, tools) => {
      const links = (tools.state.get('links') as Map<string, Record<string, unknown>> | undefined) ?? new Map<string, Record<string, unknown>>();
      tools.state.set('links', links);
      const location = header(res, 'location');
      if (collection(req) && req.method === 'POST' && location) {
        const sent = Object.entries((jsonOf(req) as Record<string, unknown> | undefined) ?? {}).filter(([k, v]) => /Reference$/.test(k) && (v as { link?: unknown } | null)?.link);
        if (sent.length) links.set(new URL(location).pathname.toLowerCase(), Object.fromEntries(sent.map(([k, v]) => [k, (v as { link: unknown }).link])));
      }
      const stored = item(req) && req.method === 'GET' && res.status === 200 ? links.get(pathOf(req).toLowerCase()) : undefined;
      if (stored) editJson(res, (b) => { for (const [k, link] of Object.entries(stored)) { const ref = (b as Record<string, { link?: unknown }>)[k]; if (ref) ref.link = link; } });
    },
  },

  // descriptors
  {
    name: 'descriptor-values-without-namespace', family: 'data.descriptors', suites: ['descriptors'],
    description: 'descriptor-valued members are returned as the bare codeValue, without <namespace>#',
    response: (res, req) => {
      if (!isData(req) || req.method !== 'GET' || res.status !== 200 || !dataPath(req)) return;
      editJson(res, (body) => eachObject(body, (o) => { for (const [k, v] of Object.entries(o)) if (/Descriptor$/.test(k) && typeof v === 'string' && v.includes('#')) o[k] = v.slice(v.lastIndexOf('#') + 1); }));
    },
  },
  {
    name: 'descriptor-id-missing', family: 'data.descriptors', suites: ['descriptors'],
    description: 'descriptor records are returned without their <name>DescriptorId',
    response: (res, req) => {
      if (!isData(req) || req.method !== 'GET' || res.status !== 200 || !/descriptors$/i.test(dataPath(req)?.resource ?? '')) return;
      editJson(res, (body) => { for (const o of Array.isArray(body) ? body : [body]) for (const k of Object.keys(o as object)) if (/DescriptorId$/.test(k)) delete (o as Record<string, unknown>)[k]; });
    },
  },

  // profiles
  {
    name: 'readable-profile-accepted-on-write', family: 'data.profiles', suites: ['profiles'],
    description: 'a write whose Content-Type is a readable profile type is treated as the writable type (no 400)',
    request: (req) => { const t = header(req, 'content-type'); if (dataPath(req) && isWrite(req) && t && /\.readable\+json/i.test(t)) req.headers['content-type'] = t.replace(/\.readable\+json/i, '.writable+json'); },
  },
  {
    name: 'unassigned-profile-served', family: 'data.profiles', suites: ['profiles'],
    description: 'a read with a profile the caller is not assigned answers 200 with nothing instead of 403 incorrect-usage',
    response: (res, req) => { if (dataPath(req) && req.method === 'GET' && hasType(res, 'data-policy:incorrect-usage')) answerJson(res, 200, collection(req) ? [] : {}); },
  },
  {
    name: 'readable-profile-not-applied', family: 'data.profiles', suites: ['profiles'],
    description: 'a read with a readable profile type returns every member, the profile\'s exclusions not applied',
    request: async (req, tools) => {
      const accept = header(req, 'accept') ?? '';
      if (!dataPath(req) || req.method !== 'GET' || !/\.readable\+json/i.test(accept)) return;
      if (await tools.tokens.rewrite(req, (c) => c.client_id === tools.clients.profiled?.key && Boolean((c.client_id = tools.clients.primary.key)))) req.headers.accept = 'application/json';
    },
  },
  {
    name: 'writable-profile-not-applied', family: 'data.profiles', suites: ['profiles'],
    description: 'a write with a writable profile type stores every member, the profile\'s exclusions not applied',
    request: async (req, tools) => {
      const type = header(req, 'content-type') ?? '';
      if (!dataPath(req) || !isWrite(req) || !/\.writable\+json/i.test(type)) return;
      if (await tools.tokens.rewrite(req, (c) => c.client_id === tools.clients.profiled?.key && Boolean((c.client_id = tools.clients.primary.key)))) req.headers['content-type'] = 'application/json';
    },
  },

  // token
  {
    name: 'client-secret-not-checked', family: 'data.token', suites: ['token'],
    description: 'the token endpoint issues a token for a known client key whatever the secret',
    request: (req, tools) => {
      if (!tokenEndpoint(req)) return;
      const m = /^Basic +(\S+)$/i.exec(header(req, 'authorization') ?? '');
      if (!m) return;
      const [key] = Buffer.from(m[1], 'base64').toString('utf8').split(':');
      const secret = Object.values(tools.clients).find((c) => c.key === key)?.secret;
      if (secret) req.headers.authorization = `Basic ${Buffer.from(`${key}:${secret}`).toString('base64')}`;
    },
  },
  {
    name: 'token-expires-in-missing', family: 'data.token', suites: ['token'],
    description: 'token responses carry no expires_in',
    response: (res, req) => { if (tokenEndpoint(req) && res.status === 200) editJson(res, (b) => { delete (b as Record<string, unknown>).expires_in; }); },
  },
  {
    name: 'grant-type-not-checked', family: 'data.token', suites: ['token'],
    description: 'the token endpoint issues tokens for any grant_type, or none',
    request: (req) => {
      if (!tokenEndpoint(req) || isJson(req)) return;
      const form = new URLSearchParams(req.body.toString('utf8'));
      if (form.get('grant_type') === 'client_credentials') return;
      form.set('grant_type', 'client_credentials');
      req.body = Buffer.from(form.toString(), 'utf8');
    },
  },
  {
    name: 'requested-scope-not-checked', family: 'data.token', suites: ['token'],
    description: 'a requested scope naming an education organization the client is not associated with is ignored (no 400 invalid_scope)',
    request: (req) => {
      if (!tokenEndpoint(req) || isJson(req)) return;
      const form = new URLSearchParams(req.body.toString('utf8'));
      if (!/^\d+$/.test(form.get('scope') ?? '')) return;
      form.delete('scope');
      req.body = Buffer.from(form.toString(), 'utf8');
    },
  },
  {
    name: 'token-without-jti', family: 'data.token', suites: ['token'],
    description: 'issued tokens carry no jti claim',
    response: async (res, req, tools) => {
      if (!tokenEndpoint(req) || res.status !== 200) return;
      const body = jsonOf(res) as { access_token?: string } | undefined;
      const claims = body?.access_token ? await tools.tokens.signed(body.access_token) : undefined;
      if (!claims) return;
      delete claims.jti;
      body!.access_token = await tools.tokens.sign(claims);
      setJson(res, body);
    },
  },
  {
    name: 'token-info-without-authentication', family: 'data.token', suites: ['token'],
    description: 'token_info answers 200 (inactive) to a caller without a valid bearer token instead of 401',
    response: (res, req) => { if (isData(req) && /\/oauth\/token_info$/.test(pathOf(req)) && res.status === 401) answerJson(res, 200, { active: false }); },
  },

  // authentication
  {
    name: 'expired-token-accepted', family: 'data.authentication', suites: ['authentication'],
    description: 'data requests with an expired token are served',
    request: async (req, tools) => { if (isData(req)) await tools.tokens.rewrite(req, (c) => (c.exp ?? 0) <= now() && Boolean((c.exp = now() + 600))); },
  },
  {
    name: '401-without-errors-entry', family: 'data.authentication', suites: ['authentication'],
    description: '401 problems carry no errors entry saying why',
    response: (res, req) => { const p = isData(req) && res.status === 401 ? problemOf(res) : undefined; if (p?.errors) { delete p.errors; setJson(res, p); } },
  },
  {
    name: 'basic-credentials-accepted', family: 'data.authentication', suites: ['authentication'],
    description: 'data requests carrying a client\'s key and secret as Basic credentials are served (the scheme is not checked)',
    request: async (req, tools) => {
      const m = dataPath(req) ? /^Basic +(\S+)$/i.exec(header(req, 'authorization') ?? '') : undefined;
      if (!m) return;
      const [key, secret] = Buffer.from(m[1], 'base64').toString('utf8').split(':');
      if (!Object.values(tools.clients).some((c) => c.key === key && c.secret === secret)) return;
      const res = await tools.upstream({
        route: req.route, method: 'POST', url: `${baseOf(req)}/oauth/token`,
        headers: { host: req.headers.host, authorization: req.headers.authorization, 'content-type': 'application/x-www-form-urlencoded' },
        body: Buffer.from('grant_type=client_credentials'),
      });
      const token = (jsonOf(res) as { access_token?: string } | undefined)?.access_token;
      if (token) req.headers.authorization = `Bearer ${token}`;
    },
  },

  // authorization
  {
    name: 'namespace-prefixes-ignored', family: 'data.authorization', suites: ['authorization'],
    description: 'writes of namespaced records are not checked against the caller\'s namespace prefixes',
    request: async (req, tools) => {
      if (!dataPath(req) || !isWrite(req) || typeof (jsonOf(req) as { namespace?: unknown } | undefined)?.namespace !== 'string') return;
      await tools.tokens.rewrite(req, (c) => c.client_id === tools.clients.namespaceLimited?.key && Boolean((c.client_id = tools.clients.primary.key)));
    },
  },
  {
    name: 'education-organization-claims-ignored', family: 'data.authorization', suites: ['authorization'],
    description: 'reads by a relationship-based client are not limited to its education organizations',
    request: async (req, tools) => {
      if (!dataPath(req) || req.method !== 'GET') return;
      await tools.tokens.rewrite(req, (c) => c.client_id === tools.clients.schoolLimited?.key && Boolean((c.client_id = tools.clients.primary.key)));
    },
  },
  {
    name: 'permission-set-reads-unchecked', family: 'data.authorization', suites: ['authorization'],
    description: 'reads are not checked against the client\'s permission set (a denied resource is readable)',
    request: async (req, tools) => {
      if (dataPath(req) && req.method === 'GET') await tools.tokens.rewrite(req, (c) => c.client_id === tools.clients.namespaceLimited?.key && Boolean((c.client_id = tools.clients.primary.key)));
    },
  },

  // errors
  {
    name: 'problem-type-wrong-prefix', family: 'data.errors', suites: ['errors'],
    description: 'problem types carry the upstream prefix urn:ed-fi:api: instead of the configured one',
    response: (res, req) => {
      const p = isData(req) ? problemOf(res) : undefined;
      if (p && String(p.type).startsWith(registry.prefix)) { p.type = `urn:ed-fi:api:${String(p.type).slice(registry.prefix.length)}`; setJson(res, p); }
    },
  },
  {
    name: 'conflict-409-as-400', family: 'data.errors', suites: ['errors'],
    description: 'conflicts (unresolved reference, dependent item, duplicate identity) answer 400 instead of 409',
    response: (res, req) => { const p = isData(req) && res.status === 409 ? problemOf(res) : undefined; if (p) { res.status = 400; p.status = 400; setJson(res, p); } },
  },
  {
    name: 'problem-correlation-id-missing', family: 'data.errors', suites: ['errors'],
    description: 'problem bodies carry no correlationId',
    response: (res, req) => { const p = isData(req) ? problemOf(res) : undefined; if (p && 'correlationId' in p) { delete p.correlationId; setJson(res, p); } },
  },
  {
    name: 'problem-content-type-without-charset', family: 'data.errors', suites: ['errors'],
    description: 'problem responses are served as application/problem+json without charset',
    response: (res, req) => { if (isData(req) && problemOf(res)) res.headers['content-type'] = 'application/problem+json'; },
  },
  {
    name: 'validation-errors-first-only', family: 'data.errors', suites: ['errors'],
    description: 'a 400 data-validation-failed reports only the first failure',
    response: (res, req) => {
      const p = isData(req) ? problemOf(res) : undefined;
      const errors = p?.validationErrors as Record<string, unknown> | undefined;
      if (!errors || Object.keys(errors).length < 2) return;
      const [first] = Object.entries(errors);
      p!.validationErrors = Object.fromEntries([first]);
      setJson(res, p);
    },
  },
  {
    name: 'correlation-id-header-ignored', family: 'data.errors', suites: ['errors'],
    description: 'the correlation-id request header is not echoed: every problem gets a generated correlationId',
    request: (req) => { if (isData(req)) delete req.headers['correlation-id']; },
  },
  {
    name: 'problem-stack-trace', family: 'data.errors', suites: ['errors'],
    description: '400 problems carry the parser\'s stack trace in a debug member',
    response: (res, req) => {
      const p = isData(req) && res.status === 400 ? problemOf(res) : undefined;
      if (p) { p.debug = 'SyntaxError: Unexpected end of JSON input\n    at JSON.parse (<anonymous>)\n    at readBody (/app/src/http/body.ts:52:19)'; setJson(res, p); }
    },
  },
  {
    name: 'server-error-detail-leaks', family: 'data.errors', suites: ['errors'],
    description: 'a 500 carries the exception and its source location instead of the fixed detail',
    response: (res, req) => {
      const p = isData(req) && res.status === 500 ? problemOf(res) : undefined;
      if (p) { p.detail = "TypeError: Cannot read properties of undefined (reading 'id') at upsert (/app/src/handlers/upsert.ts:41:17)"; setJson(res, p); }
    },
  },

  // limits
  {
    name: 'limit-above-maximum-accepted', family: 'data.limits', suites: ['limits'],
    description: 'a limit above the maximum page size (500) is clamped instead of refused with 400',
    request: (req) => {
      if (!dataPath(req) || req.method !== 'GET') return;
      const q = queryOf(req);
      const name = [...q.keys()].find((k) => k.toLowerCase() === 'limit');
      if (name && Number(q.get(name)) > 500) { q.set(name, '500'); setQuery(req, q); }
    },
  },
  {
    name: 'int32-maximum-refused', family: 'data.limits', suites: ['limits'],
    description: 'the int32 range check is off by one: 2147483647 itself is refused',
    request: (req) => {
      if (!dataPath(req) || !isWrite(req)) return;
      const at: string[] = [];
      const walk = (v: unknown, path: string) => {
        if (v === 2147483647) at.push(path);
        else if (Array.isArray(v)) v.forEach((x, i) => walk(x, `${path}[${i}]`));
        else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, `${path}.${k}`);
      };
      walk(jsonOf(req), '$');
      if (at.length) return problem('bad-request:data-validation-failed', { validationErrors: Object.fromEntries(at.map((p) => [p, [`${p.split('.').pop()} must be less than 2147483647.`]])) });
    },
  },

  // versioning
  {
    name: 'interface-description-version-wrong', family: 'data.versioning', suites: ['versioning'],
    description: 'the interface description gives its version as 3.0.0 instead of 3',
    response: (res, req) => {
      if (!isData(req) || res.status !== 200) return;
      editJson(res, (doc) => { const d = doc as { openapi?: unknown; info?: { version?: unknown } }; if (d && d.openapi && d.info?.version === '3') d.info.version = '3.0.0'; });
    },
  },
  {
    name: 'legacy-error-bodies', family: 'data.versioning', suites: ['versioning'],
    description: 'errors are answered in the pre-7.2 shape {"message": ...} instead of problem details',
    response: (res, req) => { const p = isData(req) ? problemOf(res) : undefined; if (p) setJson(res, { message: p.detail }); },
  },

  // discovery
  {
    name: 'allow-header-missing', family: 'data.discovery', suites: ['discovery'],
    description: '405 responses carry no Allow header',
    response: (res, req) => { if (isData(req) && res.status === 405) delete res.headers.allow; },
  },
  {
    name: 'head-options-answered', family: 'data.discovery', suites: ['discovery'],
    description: 'HEAD and OPTIONS on data paths answer 200 (a framework default) instead of 405',
    request: (req) => {
      if (!dataPath(req) || (req.method !== 'HEAD' && req.method !== 'OPTIONS')) return;
      return { status: 200, headers: { allow: 'GET, POST, PUT, DELETE, HEAD, OPTIONS' }, body: Buffer.alloc(0) };
    },
  },
  {
    name: 'discovery-urls-relative', family: 'data.discovery', suites: ['discovery'],
    description: 'the discovery document gives its urls as paths instead of absolute URLs',
    response: (res, req) => {
      if (!isData(req) || !/\/api\/?$/.test(pathOf(req)) || res.status !== 200) return;
      editJson(res, (doc) => {
        const urls = (doc as { urls?: Record<string, unknown> }).urls;
        for (const [k, v] of Object.entries(urls ?? {})) if (typeof v === 'string') urls![k] = v.replace(/^https?:\/\/[^/]+/, '');
      });
    },
  },
  {
    name: 'identity-flags-missing', family: 'data.discovery', suites: ['discovery'],
    description: 'the interface description marks no natural-key field with x-Core-isIdentity',
    response: (res, req) => {
      if (!isData(req) || res.status !== 200 || !/swagger\.json$|openapi/i.test(pathOf(req))) return;
      editJson(res, (doc) => eachObject(doc, (o) => { delete o['x-Core-isIdentity']; }));
    },
  },
  {
    name: 'resource-paths-case-sensitive', family: 'data.discovery', suites: ['discovery'],
    description: 'resource path segments in another casing (AcademicWeeks) answer 404',
    request: (req) => { if (/^[A-Z]/.test(dataPath(req)?.resource ?? '')) return problem('not-found'); },
  },

  // rostering: tokens
  {
    name: 'roster-expired-token-accepted', family: 'roster.roster-auth', suites: ['rostering/tokens.spec.ts'],
    description: 'the rostering service serves expired tokens',
    request: async (req, tools) => { if (isRoster(req)) await tools.tokens.rewrite(req, (c) => (c.exp ?? Infinity) <= now() && Boolean((c.exp = now() + 600))); },
  },
  {
    name: 'roster-audience-not-checked', family: 'roster.roster-auth', suites: ['rostering/tokens.spec.ts'],
    description: 'the rostering service accepts a token whose aud is another service\'s, or missing',
    request: async (req, tools) => {
      const aud = req.route.audience;
      if (!isRoster(req) || !aud) return;
      await tools.tokens.rewrite(req, (c) => !(Array.isArray(c.aud) ? c.aud : [c.aud]).includes(aud) && Boolean((c.aud = aud)));
    },
  },
  {
    name: 'roster-issuer-not-checked', family: 'roster.roster-auth', suites: ['rostering/tokens.spec.ts'],
    description: 'the rostering service accepts a token from another issuer (iss not compared)',
    request: async (req, tools) => {
      const iss = req.route.issuer;
      if (!isRoster(req) || !iss) return;
      await tools.tokens.rewrite(req, (c) => c.iss !== iss && Boolean((c.iss = iss)));
    },
  },
  {
    name: 'roster-algorithm-not-enforced', family: 'roster.roster-auth', suites: ['rostering/tokens.spec.ts'],
    description: 'the rostering service accepts tokens signed with another algorithm (alg none, HS256)',
    request: async (req, tools) => {
      const token = isRoster(req) ? Tokens.bearer(req) : undefined;
      if (token && tools.tokens.decode(token)?.alg !== 'RS256') await tools.tokens.rewrite(req, () => true, { unsigned: true });
    },
  },
  {
    name: 'roster-signature-not-checked', family: 'roster.roster-auth', suites: ['rostering/tokens.spec.ts'],
    description: 'the rostering service does not verify token signatures',
    request: async (req, tools) => {
      const token = isRoster(req) ? Tokens.bearer(req) : undefined;
      if (token && tools.tokens.decode(token)?.alg === 'RS256' && !(await tools.tokens.signed(token))) await tools.tokens.rewrite(req, () => true, { unsigned: true });
    },
  },
  {
    name: 'roster-nbf-not-checked', family: 'roster.roster-auth', suites: ['rostering/tokens.spec.ts'],
    description: 'the rostering service serves tokens that are not valid yet (nbf in the future)',
    request: async (req, tools) => { if (isRoster(req)) await tools.tokens.rewrite(req, (c) => (c.nbf ?? 0) > now() && delete c.nbf); },
  },
  {
    name: 'roster-exp-not-required', family: 'roster.roster-auth', suites: ['rostering/tokens.spec.ts'],
    description: 'the rostering service serves tokens without exp',
    request: async (req, tools) => { if (isRoster(req)) await tools.tokens.rewrite(req, (c) => c.exp === undefined && Boolean((c.exp = now() + 600))); },
  },

  // rostering: scopes
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

  // rostering: query
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

  // rostering: resources
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

  // rostering: errors
  {
    name: 'roster-status-body-without-severity', family: 'roster.roster-errors', suites: ['rostering/errors.spec.ts'],
    description: 'the stdx_ failure body has no stdx_severity member',
    response: (res, req) => {
      if (!isRoster(req) || res.status < 400) return;
      editJson(res, (b) => { delete (b as Record<string, unknown>).stdx_severity; });
    },
  },
  {
    name: 'roster-token-failures-as-403', family: 'roster.roster-errors', suites: ['rostering/tokens.spec.ts'],
    description: 'token failures on the rostering service answer 403 instead of 401',
    response: (res, req) => { if (isRoster(req) && res.status === 401) res.status = 403; },
  },
  {
    name: 'roster-code-minor-missing', family: 'roster.roster-errors', suites: ['rostering/query.spec.ts'], grepInvert: 'rostering paging',
    description: '400 failures carry no stdx_codeMinor invalid_data',
    response: (res, req) => { if (isRoster(req) && res.status === 400) editJson(res, (b) => { delete (b as Record<string, unknown>).stdx_codeMinor; }); },
  },

  // rostering: routing
  {
    name: 'roster-tenant-claim-ignored', family: 'roster.roster-routing', suites: ['rostering/routing.spec.ts'], grep: 'tenant',
    description: 'a multi-tenant rostering service serves the route\'s tenant whatever the tenantId claim says',
    request: async (req, tools) => {
      if (!isRoster(req) || !req.route.multiTenant) return;
      const tenant = pathOf(req).split('/').filter(Boolean)[0];
      if (tenant) await tools.tokens.rewrite(req, (c) => c.tenantId !== tenant && Boolean((c.tenantId = tenant)));
    },
  },
  {
    name: 'roster-other-version-served', family: 'roster.roster-routing', suites: ['rostering/routing.spec.ts'], grep: 'single-tenant routing',
    description: 'the rostering resources are also served under /std/roster/rostering/v1p1',
    request: (req) => { if (isRoster(req)) req.url = req.url.replace('/std/roster/rostering/v1p1/', '/std/roster/rostering/v1p2/'); },
  },
  {
    name: 'roster-last-instance-used', family: 'roster.roster-routing', suites: ['rostering/routing.spec.ts'], grep: 'single-tenant routing',
    description: 'the rostering service resolves the data store from the last odsInstances entry, not the first',
    request: async (req, tools) => {
      if (!isRoster(req)) return;
      await tools.tokens.rewrite(req, (c) => {
        if (typeof c.odsInstances !== 'string') return false;
        try {
          const parsed = JSON.parse(c.odsInstances) as { OdsInstances?: unknown[] };
          if (!Array.isArray(parsed.OdsInstances) || parsed.OdsInstances.length < 2) return false;
          parsed.OdsInstances.reverse();
          c.odsInstances = JSON.stringify(parsed);
          return true;
        } catch {
          return false;
        }
      });
    },
  },
  {
    name: 'roster-route-context-ignored', family: 'roster.roster-routing', suites: ['rostering/routing.spec.ts'], grep: 'context',
    description: 'a context-routed rostering service serves the token\'s first instance whatever context the route names',
    request: async (req, tools) => {
      const token = isRoster(req) && req.route.contextRouting ? Tokens.bearer(req) : undefined;
      const claims = token ? await tools.tokens.signed(token) : undefined;
      if (!claims || typeof claims.odsInstances !== 'string') return;
      try {
        const first = (JSON.parse(claims.odsInstances) as { OdsInstances?: { OdsInstanceContext?: { ContextValue?: string } | null }[] }).OdsInstances?.[0];
        const value = first?.OdsInstanceContext?.ContextValue;
        const segments = pathOf(req).split('/');
        const at = segments.indexOf('std') - 1;
        if (value && at >= (req.route.multiTenant ? 2 : 1)) { segments[at] = value; req.url = `${segments.join('/')}${req.url.slice(pathOf(req).length)}`; }
      } catch { /* not JSON: leave it */ }
    },
  },
];
