/**
 * Malformed requests for both services of the reference, and the judge of their answers. One
 * module serves the full fuzzer (`npm run fuzz`, reference/tools/fuzz.ts) and the fixed-seed
 * slice that `npm test` runs (reference/tests/reliability/fuzz-slice.test.ts).
 *
 * fast-check generates small *recipes* (what to break and how); `materialize` turns a recipe
 * into the HTTP request (huge strings and deep nesting are only built then), `send` sends it over
 * loopback with a timeout, and `judge` lists what is wrong with the answer: a 5xx, a 4xx that is
 * not a well-formed problem (data API) or status body (rostering), a stack trace, a file path,
 * a connection string or a secret, a hang, a reset connection.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import registry from '../../spec/errors/problem-types.json' with { type: 'json' };
import { ROSTER_ENDPOINTS, ROSTER_PREFIX, FILTERABLE } from '../../spec/generate/openapi-rostering.js';
import { AVAILABLE_CHANGE_VERSIONS_PATH, DATA_ROOT, TOKEN_PATH } from '../../spec/generate/openapi-data.js';
import { model } from '../../spec/model/index.js';
import { REPO_ROOT, startChildReference, type ChildReference } from './child-reference.js';

// ---------------------------------------------------------------------------------------------
// The target: where the services are, a valid client, and valid documents to break.

export interface ResourceSample {
  name: string;
  endpoint: string;
  /** Valid documents (as stored, without id and system members). */
  docs: Record<string, unknown>[];
  ids: string[];
  etags: string[];
  queryFields: string[];
}

export interface FuzzTarget {
  /** `{base_url}`: origin + basePath. */
  dataApiBaseUrl: string;
  /** Origin of the rostering service. */
  rosteringBaseUrl: string;
  client: { key: string; secret: string };
  /** A bearer token of the client (with rostering scopes). */
  token: string;
  /** The configured maxBodyBytes: larger bodies must get 413 (or a closed connection). */
  maxBodyBytes: number;
  samples: ResourceSample[];
  /** Values no response may contain (secrets, keys, connection strings), with a label each. */
  forbidden: { label: string; value: string }[];
}

/** Fetches a token and one or two valid documents of every resource (the reference should hold demo data). */
export async function prepareTarget(opts: Omit<FuzzTarget, 'token' | 'samples'>): Promise<FuzzTarget> {
  const res = await fetch(`${opts.dataApiBaseUrl}${TOKEN_PATH}`, {
    method: 'POST',
    headers: { Authorization: `Basic ${Buffer.from(`${opts.client.key}:${opts.client.secret}`).toString('base64')}`, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials',
  });
  if (res.status !== 200) throw new Error(`token request failed: ${res.status} ${await res.text()}`);
  const token = ((await res.json()) as { access_token: string }).access_token;
  const samples: ResourceSample[] = [];
  for (const r of model.resources) {
    const page = await fetch(`${opts.dataApiBaseUrl}${DATA_ROOT}/core/${r.endpoint}?limit=2`, { headers: { Authorization: `Bearer ${token}` } });
    const items = page.status === 200 ? ((await page.json()) as Record<string, unknown>[]) : [];
    samples.push({
      name: r.name,
      endpoint: r.endpoint,
      docs: items.map(({ id: _id, _etag, _lastModifiedDate, [`${r.name}Id`]: _descriptorId, ...doc }) => doc),
      ids: items.map((i) => String(i.id)),
      etags: items.map((i) => String(i._etag)),
      queryFields: Object.keys(r.queryFields),
    });
  }
  return { ...opts, token, samples };
}

/** The client the fuzzing configuration declares. */
export const FUZZ_CLIENT = { key: 'fuzz-client', secret: 'fuzz-client-secret-3f9c2a71' };
export const FUZZ_MAX_BODY_BYTES = 1024 * 1024;

export interface FuzzSetup {
  child: ChildReference;
  target: FuzzTarget;
  /** Absolute paths no answer may name. */
  roots: string[];
  /** Stops the child (SIGTERM) and removes its directory. */
  close: () => Promise<void>;
}

/**
 * Starts the reference as a child process with the fuzzing configuration (demo data, so that
 * there are valid documents to break; a 1 MiB body limit; a durable store) and prepares the target.
 */
export async function startFuzzTarget(opts: { heapMb?: number } = {}): Promise<FuzzSetup> {
  const dir = mkdtempSync(join(tmpdir(), 'fuzz-'));
  const child = await startChildReference({
    dir,
    ...(opts.heapMb ? { heapMb: opts.heapMb } : {}),
    config: {
      demoData: true,
      maxBodyBytes: FUZZ_MAX_BODY_BYTES,
      dataStore: `file:${join(dir, 'store.json')}`,
      clients: [{ ...FUZZ_CLIENT, permissionSet: 'unrestricted', rosterScopes: ['roster-core.readonly', 'roster.readonly', 'roster-demographics.readonly'] }],
    },
  });
  const close = async () => { await child.stop(); rmSync(dir, { recursive: true, force: true }); };
  try {
    const target = await prepareTarget({
      dataApiBaseUrl: child.dataApiBaseUrl,
      rosteringBaseUrl: child.rosteringBaseUrl,
      client: FUZZ_CLIENT,
      maxBodyBytes: FUZZ_MAX_BODY_BYTES,
      forbidden: [{ label: 'client secret', value: FUZZ_CLIENT.secret }, { label: 'store path', value: dir }],
    });
    return { child, target, roots: [REPO_ROOT.replace(/\/$/, ''), dir], close };
  } catch (err) {
    await close();
    throw err;
  }
}

// ---------------------------------------------------------------------------------------------
// Recipes.

type Json = unknown;
type Auth = 'valid' | 'none' | 'garbage' | 'basic' | 'tampered' | 'alg-none' | 'scheme-only' | 'lowercase' | 'two-tokens' | 'huge';
type Header = { name: string; value: string };

type BodyRecipe =
  | { t: 'json'; value: Json }
  | { t: 'sample' }
  | { t: 'drop'; path: number[] }
  | { t: 'wrong-type'; path: number[]; variant: number }
  | { t: 'replace'; path: number[]; value: Json }
  | { t: 'truncate'; cut: number }
  | { t: 'deep'; depth: number; shape: 'array' | 'object' | 'mixed'; inField: boolean }
  | { t: 'huge'; bytes: number; where: 'field' | 'key' | 'array' | 'raw' | 'number' | 'escapes'; char: string }
  | { t: 'proto'; keys: string[]; nested: boolean; value: Json }
  | { t: 'bigint'; digits: number; negative: boolean; fraction: boolean }
  | { t: 'charset'; enc: 'utf16le' | 'utf16le-bom' | 'latin1' | 'invalid-utf8' | 'utf8-bom' | 'nul' | 'lone-surrogate' }
  | { t: 'text'; text: string }
  | { t: 'bytes'; bytes: number[] }
  | { t: 'empty'; ws: string }
  | { t: 'dup-keys'; value: Json };

type IdRecipe =
  | { t: 'existing'; i: number; spelling: 'plain' | 'upper' | 'dashes' | 'braces' | 'dashes-upper' }
  | { t: 'hex'; hex: string }
  | { t: 'text'; text: string }
  | { t: 'raw'; raw: string }
  | { t: 'long'; n: number };

type QueryParam = { name: string; value: string; rawName?: boolean; rawValue?: boolean };

interface Common { auth: Auth; headers: Header[]; correlation?: string; host?: string }

export type Recipe = Common & (
  | { k: 'post'; res: number; sample: number; body: BodyRecipe; ct: string | null; chunked: boolean }
  | { k: 'put'; res: number; sample: number; id: IdRecipe; body: BodyRecipe; ct: string | null; ifMatch: string | null; chunked: boolean }
  | { k: 'delete'; res: number; id: IdRecipe; ifMatch: string | null }
  | { k: 'get-item'; res: number; id: IdRecipe; query: QueryParam[]; snapshot: boolean }
  | { k: 'get-collection'; res: number; query: QueryParam[]; caseFlip: number; profileAccept: string | null }
  | { k: 'feed'; res: number; feed: string; query: QueryParam[] }
  | { k: 'method'; res: number; method: string; target: 'collection' | 'item' | 'deletes'; body: BodyRecipe | null }
  | { k: 'path'; under: string; segments: string[]; method: string; query: QueryParam[] }
  | { k: 'token'; cred: 'basic' | 'basic-wrong' | 'basic-garbage' | 'body' | 'body-wrong' | 'both' | 'none' | 'json'; grant: string; scope: string | null; ct: string | null; extra: QueryParam[]; body: BodyRecipe | null }
  | { k: 'token-info'; body: BodyRecipe | null; ct: string | null; tokenField: 'same' | 'other' | 'none' }
  | { k: 'fixed'; which: number; method: string; query: QueryParam[] }
  | { k: 'roster'; endpoint: string; sourcedId: IdRecipe | null; query: QueryParam[]; method: string; prefix: string }
);

const NASTY_SEGMENTS = ['%', '%%', '%E0%A4%A', '%C0%AF', '%00', '%2F', '%2e%2e', '..', '.', '%uD800', '%FF%FE', '%25', '%20', '%0A', '%3F', '%23', '%5C', '~', '%F0%9F%98%80', '%ED%A0%80', '%E2%80%8B', '%C3%28'];
const NASTY_VALUES = [...NASTY_SEGMENTS, '-1', '-0', '1e309', 'NaN', 'Infinity', '0x10', '1.5', '9223372036854775808', '99999999999999999999999', ' 5', '5 ', '+5', '1,2', 'true', 'TRUE', 'null', 'undefined', '[]', '{}', "'", '"', '<script>', '${x}', '*', '\\'];
const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS'];
const CONTENT_TYPES = [
  'application/json; charset=utf-16', 'application/json; charset=latin1', 'application/json; charset="UTF-8"', 'application/json;charset=utf8',
  'application/json; charset=', 'application/json; charset=ebcdic', 'APPLICATION/JSON', 'text/plain', 'text/json', 'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x', 'application/xml', '*/*', 'application/json; profile=x', 'application/vnd.core.students.p.writable+json',
  'application/vnd.core.x.y.readable+json', 'application/merge-patch+json', ';', 'application/', 'json',
];
const KNOWN_HEADERS = ['if-match', 'if-none-match', 'use-snapshot', 'accept', 'accept-charset', 'accept-encoding', 'accept-language', 'origin', 'referer',
  'x-forwarded-for', 'x-forwarded-proto', 'x-forwarded-host', 'forwarded', 'cookie', 'range', 'if-modified-since', 'cache-control', 'content-encoding',
  'content-language', 'user-agent', 'x-http-method-override', 'prefer', 'total-count', 'correlation-id'];
const PROTO_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'valueOf', 'hasOwnProperty', '__defineGetter__'];

const headerValue = fc.string({ maxLength: 60, unit: fc.integer({ min: 0x20, max: 0xff }).filter((c) => c !== 0x7f).map((c) => String.fromCharCode(c)) });
const anyString = (maxLength: number) => fc.oneof(fc.string({ maxLength }), fc.string({ maxLength, unit: 'binary' }), fc.string({ maxLength, unit: 'grapheme' }));
const json = fc.jsonValue({ maxDepth: 3 });
/** `arb` in one case out of `oneIn`, else `nil`. */
const sometimes = <T, N>(arb: fc.Arbitrary<T>, oneIn: number, nil: N): fc.Arbitrary<T | N> => fc.oneof({ weight: oneIn - 1, arbitrary: fc.constant(nil) }, { weight: 1, arbitrary: arb });
const path = fc.array(fc.nat(), { minLength: 1, maxLength: 3 });

const auth: fc.Arbitrary<Auth> = fc.oneof(
  { weight: 14, arbitrary: fc.constant('valid' as const) },
  { weight: 1, arbitrary: fc.constantFrom<Auth>('none', 'garbage', 'basic', 'tampered', 'alg-none', 'scheme-only', 'lowercase', 'two-tokens', 'huge') },
);
const headers = fc.array(fc.record({
  name: fc.oneof(fc.constantFrom(...KNOWN_HEADERS), fc.stringMatching(/^x-[a-z0-9-]{1,16}$/)),
  value: fc.oneof(headerValue, fc.constantFrom('true', 'TRUE', '*', '"1"', 'W/"1"', 'application/vnd.core.students.x.readable+json', 'gzip', 'bytes=0-1')),
}), { maxLength: 3 });
const common = {
  auth,
  headers,
  correlation: sometimes(fc.oneof(headerValue, fc.uuid()), 4, undefined),
  host: sometimes(fc.constantFrom('evil.test', 'a:b:c', '[::1]:80', 'x'.repeat(300), '127.0.0.1:1', ''), 30, undefined),
};

const body: fc.Arbitrary<BodyRecipe> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ t: fc.constant('json' as const), value: json }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('sample' as const) }) },
  { weight: 3, arbitrary: fc.record({ t: fc.constant('drop' as const), path }) },
  { weight: 5, arbitrary: fc.record({ t: fc.constant('wrong-type' as const), path, variant: fc.nat() }) },
  { weight: 3, arbitrary: fc.record({ t: fc.constant('replace' as const), path, value: json }) },
  { weight: 3, arbitrary: fc.record({ t: fc.constant('truncate' as const), cut: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('deep' as const), depth: fc.oneof(fc.integer({ min: 20, max: 800 }), fc.integer({ min: 800, max: 20_000 }), fc.integer({ min: 20_000, max: 150_000 })), shape: fc.constantFrom('array' as const, 'object' as const, 'mixed' as const), inField: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('huge' as const), bytes: fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 1000, max: 100_000 }) }, { weight: 2, arbitrary: fc.integer({ min: 100_000, max: 900_000 }) }, { weight: 1, arbitrary: fc.integer({ min: 1_100_000, max: 4_000_000 }) }), where: fc.constantFrom('field' as const, 'key' as const, 'array' as const, 'raw' as const, 'number' as const, 'escapes' as const), char: fc.constantFrom('a', 'é', '😀', '\u0000', '"', '\\', '<', ' ', '1') }) },
  { weight: 3, arbitrary: fc.record({ t: fc.constant('proto' as const), keys: fc.subarray(PROTO_KEYS, { minLength: 1 }), nested: fc.boolean(), value: json }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('bigint' as const), digits: fc.integer({ min: 15, max: 400 }), negative: fc.boolean(), fraction: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('charset' as const), enc: fc.constantFrom('utf16le' as const, 'utf16le-bom' as const, 'latin1' as const, 'invalid-utf8' as const, 'utf8-bom' as const, 'nul' as const, 'lone-surrogate' as const) }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('text' as const), text: anyString(80) }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('bytes' as const), bytes: fc.array(fc.integer({ min: 0, max: 255 }), { maxLength: 120 }) }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('empty' as const), ws: fc.constantFrom('', ' ', '\n', '\t\r\n ', '\uFEFF') }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('dup-keys' as const), value: json }) },
);
const contentType = fc.oneof({ weight: 10, arbitrary: fc.constant('application/json') }, { weight: 2, arbitrary: fc.constantFrom(...CONTENT_TYPES) }, { weight: 1, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: headerValue });
const ifMatch = fc.oneof({ weight: 4, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.oneof(headerValue, fc.constantFrom('*', '"1"', 'W/"2"', '"', '""', ',,', '"1", "2"', 'W/', '*,*')) });
const id: fc.Arbitrary<IdRecipe> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ t: fc.constant('existing' as const), i: fc.nat(), spelling: fc.constantFrom('plain' as const, 'upper' as const, 'dashes' as const, 'braces' as const, 'dashes-upper' as const) }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('hex' as const), hex: fc.stringMatching(/^[0-9a-fA-F]{0,40}$/) }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('text' as const), text: anyString(40) }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('raw' as const), raw: fc.oneof(fc.constantFrom(...NASTY_SEGMENTS), fc.array(fc.constantFrom(...NASTY_SEGMENTS, 'a', '0', '-'), { minLength: 2, maxLength: 6 }).map((a) => a.join(''))) }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('long' as const), n: fc.integer({ min: 100, max: 12_000 }) }) },
);
const queryValue = fc.oneof(
  fc.constantFrom(...NASTY_VALUES).map((value) => ({ value, rawValue: true })),
  fc.oneof(fc.integer().map(String), fc.double().map(String), fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map(String), anyString(30), fc.constantFrom('', 'true', 'false', 'True', 'FALSE', 'yes', '2020-01-01', '2020-13-45'), fc.integer({ min: 200, max: 5000 }).map((n) => 'x'.repeat(n)))
    .map((value) => ({ value, rawValue: false })),
);
const query = (names: string[]) => fc.array(fc.tuple(
  fc.oneof(
    { weight: 4, arbitrary: fc.tuple(fc.constantFrom(...names), fc.nat()).map(([n, flip]) => ({ name: flipCase(n, flip), rawName: false })) },
    { weight: 1, arbitrary: fc.constantFrom(...PROTO_KEYS).map((name) => ({ name, rawName: false })) },
    { weight: 1, arbitrary: anyString(20).map((name) => ({ name, rawName: false })) },
    { weight: 1, arbitrary: fc.constantFrom(...NASTY_SEGMENTS).map((name) => ({ name, rawName: true })) },
  ),
  queryValue,
).map(([n, v]) => ({ ...n, ...v })), { maxLength: 5 });
const COMMON_QUERY = ['offset', 'limit', 'totalCount', 'MinChangeVersion', 'MaxChangeVersion', 'correlationId', 'id'];
const ROSTER_QUERY = ['limit', 'offset', 'sort', 'orderBy', 'filter', 'fields'];
const ALL_ROSTER_FIELDS = [...new Set(Object.values(FILTERABLE).flat())];
const rosterFilter = fc.array(fc.tuple(
  fc.oneof(fc.constantFrom(...ALL_ROSTER_FIELDS), anyString(10)),
  fc.constantFrom('=', '!=', '>', '>=', '<', '<=', '~', '==', '<>', ' ', ''),
  fc.oneof(fc.string({ maxLength: 20 }).map((s) => `'${s.replace(/'/g, "''")}'`), anyString(20), fc.constantFrom("'", "''", "'a''", '"x"', "'\u0000'", `'${'y'.repeat(300)}'`)),
  fc.constantFrom(' AND ', ' OR ', ' and ', ' or ', ' NOT ', ' ', ''),
), { minLength: 1, maxLength: 25 }).map((parts) => parts.map(([f, op, v, join], i) => `${f}${op}${v}${i < parts.length - 1 ? join : ''}`).join(''));
const rosterQuery = fc.array(fc.oneof(
  fc.record({ name: fc.constant('filter'), value: rosterFilter, rawValue: fc.constant(false) }),
  fc.record({ name: fc.constantFrom('sort', 'fields'), value: fc.array(fc.oneof(fc.constantFrom(...ALL_ROSTER_FIELDS), anyString(8)), { maxLength: 4 }).map((a) => a.join(',')), rawValue: fc.constant(false) }),
  fc.tuple(fc.tuple(fc.constantFrom(...ROSTER_QUERY, ...PROTO_KEYS), fc.nat()).map(([n, f]) => flipCase(n, f)), queryValue).map(([name, v]) => ({ name, ...v })),
), { maxLength: 4 });

const dataRecipe: fc.Arbitrary<Recipe> = fc.oneof(
  { weight: 22, arbitrary: fc.record({ k: fc.constant('post' as const), res: fc.nat(), sample: fc.nat(), body, ct: contentType, chunked: fc.boolean(), ...common }) },
  { weight: 10, arbitrary: fc.record({ k: fc.constant('put' as const), res: fc.nat(), sample: fc.nat(), id, body, ct: contentType, ifMatch, chunked: fc.boolean(), ...common }) },
  { weight: 5, arbitrary: fc.record({ k: fc.constant('delete' as const), res: fc.nat(), id, ifMatch, ...common }) },
  { weight: 6, arbitrary: fc.record({ k: fc.constant('get-item' as const), res: fc.nat(), id, query: query(['fields', 'offset']), snapshot: fc.boolean(), ...common }) },
  { weight: 12, arbitrary: fc.record({ k: fc.constant('get-collection' as const), res: fc.nat(), query: query([...COMMON_QUERY, 'schoolId', 'studentUniqueId', 'codeValue', 'namespace', 'beginDate', 'schoolYear']), caseFlip: fc.nat(), profileAccept: sometimes(fc.constantFrom('application/vnd.core.students.nope.readable+json', 'application/vnd.core.x', 'application/vnd.core.students.p.writable+json'), 6, null), ...common }) },
  { weight: 4, arbitrary: fc.record({ k: fc.constant('feed' as const), res: fc.nat(), feed: fc.constantFrom('deletes', 'keyChanges', 'DELETES', 'keychanges'), query: query(COMMON_QUERY), ...common }) },
  { weight: 3, arbitrary: fc.record({ k: fc.constant('method' as const), res: fc.nat(), method: fc.constantFrom(...METHODS), target: fc.constantFrom('collection' as const, 'item' as const, 'deletes' as const), body: sometimes(body, 2, null), ...common }) },
  { weight: 6, arbitrary: fc.record({ k: fc.constant('path' as const), under: fc.constantFrom('', '/v7.3/api', '{base}', '{base}/data/v3', '{base}/data/v3/core', '{base}/metadata', '{base}/changeQueries/v1', '{base}/admin', '{base}/oauth'), segments: fc.array(fc.oneof(anyString(12).map(encodeURIComponent), fc.constantFrom(...NASTY_SEGMENTS, 'core', 'students', 'deletes', 'keyChanges', 'data', 'v3', '', 'swagger.json', 'token', 'snapshot', 'digest', 'fault')), { maxLength: 5 }), method: fc.constantFrom(...METHODS), query: query(COMMON_QUERY), ...common }) },
  { weight: 6, arbitrary: fc.record({ k: fc.constant('token' as const), cred: fc.constantFrom('basic' as const, 'basic-wrong' as const, 'basic-garbage' as const, 'body' as const, 'body-wrong' as const, 'both' as const, 'none' as const, 'json' as const), grant: fc.oneof(fc.constantFrom('client_credentials', 'CLIENT_CREDENTIALS', 'password', '', 'client_credentials ', 'authorization_code'), anyString(12)), scope: sometimes(fc.oneof(fc.constantFrom('roster-core.readonly', 'roster.readonly x', '255901', '0', 'a/b/roster-core.readonly', ''), anyString(20)), 2, null), ct: fc.oneof({ weight: 4, arbitrary: fc.constant('application/x-www-form-urlencoded') }, { weight: 1, arbitrary: contentType }), extra: query(['client_id', 'client_secret', 'grant_type', 'scope', 'CLIENT_ID', 'Grant_Type']), body: sometimes(body, 5, null), ...common }) },
  { weight: 2, arbitrary: fc.record({ k: fc.constant('token-info' as const), body: sometimes(body, 3, null), ct: contentType, tokenField: fc.constantFrom('same' as const, 'other' as const, 'none' as const), ...common }) },
  { weight: 3, arbitrary: fc.record({ k: fc.constant('fixed' as const), which: fc.nat(), method: fc.constantFrom(...METHODS), query: query(COMMON_QUERY), ...common }) },
);
const rosterRecipe: fc.Arbitrary<Recipe> = fc.record({
  k: fc.constant('roster' as const),
  endpoint: fc.oneof({ weight: 6, arbitrary: fc.tuple(fc.constantFrom(...ROSTER_ENDPOINTS.map((e) => e.endpoint)), fc.nat({ max: 8 })).map(([e, f]) => (f === 0 ? flipCase(e, 7) : e)) }, { weight: 1, arbitrary: fc.oneof(anyString(12).map(encodeURIComponent), fc.constantFrom(...NASTY_SEGMENTS)) }),
  sourcedId: sometimes(id, 2, null),
  query: rosterQuery,
  method: fc.oneof({ weight: 8, arbitrary: fc.constant('GET') }, { weight: 1, arbitrary: fc.constantFrom(...METHODS) }),
  prefix: fc.oneof({ weight: 8, arbitrary: fc.constant(ROSTER_PREFIX) }, { weight: 1, arbitrary: fc.constantFrom(`/x${ROSTER_PREFIX}`, `/%${ROSTER_PREFIX}`, `/2026${ROSTER_PREFIX}`, ROSTER_PREFIX.toUpperCase(), '/std/roster', '', '/health-check', `/a/b/c${ROSTER_PREFIX}`, `//${ROSTER_PREFIX}`) }),
  ...common,
});

/** The recipe arbitrary: about a fifth of the requests go to the rostering service. */
export const recipes: fc.Arbitrary<Recipe> = fc.oneof({ weight: 4, arbitrary: dataRecipe }, { weight: 1, arbitrary: rosterRecipe });

/** `count` recipes, deterministic for a seed. */
export function generate(seed: number, count: number): Recipe[] {
  return fc.sample(recipes, { seed, numRuns: count });
}

/** The seed of the b-th batch of a run: distinct runs never share batches. */
export const batchSeed = (seed: number, b: number): number => (Math.imul(seed ^ 0x5bd1e995, 0x27d4eb2d) + Math.imul(b + 1, 0x165667b1)) | 0;

// ---------------------------------------------------------------------------------------------
// Materialization.

export interface HttpRequest {
  service: 'data' | 'rostering';
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** Send the body chunked (no Content-Length). */
  chunked?: boolean;
  /** A short description of what was broken, for the histogram of kinds and for reports. */
  kind: string;
}

function flipCase(s: string, bits: number): string {
  return [...s].map((c, i) => ((bits >> (i % 30)) & 1 ? (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()) : c)).join('');
}

const pick = <T>(list: T[], i: number): T | undefined => (list.length ? list[i % list.length] : undefined);

function authHeader(a: Auth, target: FuzzTarget): string | undefined {
  const [h, p, s] = target.token.split('.');
  switch (a) {
    case 'valid': return `Bearer ${target.token}`;
    case 'none': return undefined;
    case 'garbage': return 'Bearer eyJhbGciOiJSUzI1NiJ9.e30.AAAA';
    case 'basic': return `Basic ${Buffer.from(`${target.client.key}:nope`).toString('base64')}`;
    case 'tampered': return `Bearer ${h}.${p}.${s.slice(0, -2)}${s.endsWith('AA') ? 'BB' : 'AA'}`;
    case 'alg-none': return `Bearer ${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${p}.`;
    case 'scheme-only': return 'Bearer';
    case 'lowercase': return `bearer    ${target.token}`;
    case 'two-tokens': return `Bearer ${target.token} ${target.token}`;
    case 'huge': return `Bearer ${'A'.repeat(6000)}`;
  }
}

/** A value of another JSON type than `v` (wrong types for a member). */
function wrongType(v: unknown, variant: number): unknown {
  const options: unknown[] = typeof v === 'string'
    ? [123, -1.5, true, null, [], {}, [v], { value: v }, '', ' '.repeat(3), `${v}\u0000`, '2020-02-30', 'x'.repeat(76), 1e308]
    : typeof v === 'number'
      ? [String(v), '', true, null, [], {}, [v], -v - 1, v + 0.5, 2 ** 53 + 1, 1e308, -2147483649, 'NaN']
      : typeof v === 'boolean'
        ? ['maybe', 2, -1, null, [], {}, [v], 'TRUE', 'yes']
        : Array.isArray(v)
          ? [{}, 'x', 1, null, true, [null], [1, 'a'], [[]], Array.from({ length: 50 }, () => v[0] ?? 1), [...v, ...v]]
          : v && typeof v === 'object'
            ? [[], 'x', 1, null, true, [v], { ...v, extra: 1 }, Object.fromEntries(Object.keys(v).map((k) => [k, null]))]
            : ['x', 1, {}, [], true];
  return options[variant % options.length];
}

/** The container and key a path of indices leads to (each index picks a member or item). */
function locate(doc: Record<string, unknown>, path: number[]): { parent: Record<string, unknown> | unknown[]; key: string | number } | undefined {
  let parent: Record<string, unknown> | unknown[] = doc;
  for (let depth = 0; depth < path.length; depth++) {
    const keys: (string | number)[] = Array.isArray(parent) ? parent.map((_, i) => i) : Object.keys(parent);
    if (!keys.length) return undefined;
    const key = keys[path[depth] % keys.length];
    const child = (parent as Record<string | number, unknown>)[key];
    if (depth === path.length - 1 || !child || typeof child !== 'object') return { parent, key };
    parent = child as Record<string, unknown> | unknown[];
  }
  return undefined;
}

function nest(depth: number, shape: 'array' | 'object' | 'mixed', inner: string): string {
  const open = shape === 'array' ? '[' : shape === 'object' ? '{"a":' : '[{"a":';
  const close = shape === 'array' ? ']' : shape === 'object' ? '}' : '}]';
  const n = shape === 'mixed' ? Math.ceil(depth / 2) : depth;
  return open.repeat(n) + inner + close.repeat(n);
}

/** The bytes and content type of a body recipe, built from a valid sample document. */
export function materializeBody(recipe: BodyRecipe, sample: Record<string, unknown>, maxBodyBytes: number): { bytes: Buffer; note: string } {
  const doc = structuredClone(sample);
  const text = (t: string) => Buffer.from(t, 'utf8');
  const firstString = Object.keys(doc).find((k) => typeof doc[k] === 'string') ?? 'codeValue';
  switch (recipe.t) {
    case 'json': return { bytes: text(JSON.stringify(recipe.value)), note: 'random JSON' };
    case 'sample': return { bytes: text(JSON.stringify(doc)), note: 'valid sample' };
    case 'drop': {
      const at = locate(doc, recipe.path);
      if (at) Array.isArray(at.parent) ? at.parent.splice(at.key as number, 1) : delete at.parent[at.key as string];
      return { bytes: text(JSON.stringify(doc)), note: `member dropped` };
    }
    case 'wrong-type': {
      const at = locate(doc, recipe.path);
      if (at) (at.parent as Record<string | number, unknown>)[at.key] = wrongType((at.parent as Record<string | number, unknown>)[at.key], recipe.variant);
      return { bytes: text(JSON.stringify(doc)), note: `wrong type at ${String(at?.key)}` };
    }
    case 'replace': {
      const at = locate(doc, recipe.path);
      if (at) (at.parent as Record<string | number, unknown>)[at.key] = recipe.value;
      return { bytes: text(JSON.stringify(doc)), note: 'member replaced' };
    }
    case 'truncate': {
      const full = JSON.stringify(doc);
      return { bytes: text(full.slice(0, recipe.cut % Math.max(1, full.length))), note: 'truncated JSON' };
    }
    case 'deep': {
      const inner = nest(recipe.depth, recipe.shape, '1');
      const t = recipe.inField ? JSON.stringify(doc).replace(/^\{/, `{"${firstString}":${inner},`) : inner;
      return { bytes: text(t), note: `nesting depth ${recipe.depth}` };
    }
    case 'huge': {
      const unit = Buffer.byteLength(recipe.char === '"' || recipe.char === '\\' ? `\\${recipe.char}` : recipe.char === '\u0000' ? '\\u0000' : recipe.char);
      const n = Math.max(1, Math.floor(recipe.bytes / unit));
      const big = recipe.char.repeat(n);
      const note = `huge ${recipe.where} (${recipe.bytes} bytes, limit ${maxBodyBytes})`;
      switch (recipe.where) {
        case 'field': doc[firstString] = big; return { bytes: text(JSON.stringify(doc)), note };
        case 'key': doc[big] = 1; return { bytes: text(JSON.stringify(doc)), note };
        case 'array': doc[firstString] = Array.from({ length: Math.floor(recipe.bytes / 4) }, () => 1); return { bytes: text(JSON.stringify(doc)), note };
        case 'raw': return { bytes: text(big), note };
        case 'number': return { bytes: text(`{"${firstString}":${'9'.repeat(recipe.bytes)}}`), note };
        case 'escapes': return { bytes: text(`{"${firstString}":"${'\\ud800'.repeat(Math.floor(recipe.bytes / 6))}"}`), note };
      }
      return { bytes: text(big), note };
    }
    case 'proto': {
      // Written as text so that the keys are the object's own members after parsing.
      const inner = recipe.keys.map((k) => `${JSON.stringify(k)}:${JSON.stringify(recipe.value ?? { polluted: true })}`).join(',');
      const members = JSON.stringify(doc).slice(1, -1);
      const t = recipe.nested ? `{${members}${members ? ',' : ''}"${firstString}":{${inner}}}` : `{${inner}${members ? ',' : ''}${members}}`;
      return { bytes: text(t), note: `keys ${recipe.keys.join(',')}` };
    }
    case 'bigint': {
      const digits = `${recipe.negative ? '-' : ''}9${'8'.repeat(recipe.digits - 1)}${recipe.fraction ? '.5' : ''}`;
      const numeric = Object.keys(doc).find((k) => typeof doc[k] === 'number') ?? firstString;
      return { bytes: text(JSON.stringify(doc).replace(/^\{/, `{"${numeric}":${digits},`)), note: `${recipe.digits}-digit number` };
    }
    case 'charset': {
      doc[firstString] = `Zoë ${String(doc[firstString] ?? '')} ✓`;
      const t = JSON.stringify(doc);
      switch (recipe.enc) {
        case 'utf16le': return { bytes: Buffer.from(t, 'utf16le'), note: 'UTF-16LE body' };
        case 'utf16le-bom': return { bytes: Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(t, 'utf16le')]), note: 'UTF-16LE body with BOM' };
        case 'latin1': return { bytes: Buffer.from(t, 'latin1'), note: 'Latin-1 body' };
        case 'invalid-utf8': return { bytes: Buffer.concat([Buffer.from(t.slice(0, -2)), Buffer.from([0xc3, 0x28, 0xff, 0xfe]), Buffer.from('"}')]), note: 'invalid UTF-8' };
        case 'utf8-bom': return { bytes: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(t)]), note: 'UTF-8 with BOM' };
        case 'nul': return { bytes: Buffer.from(t.replace(/^\{/, '{\u0000')), note: 'NUL byte' };
        case 'lone-surrogate': return { bytes: Buffer.from(t.replace(/^\{/, `{"${firstString}":"\\udc00\\ud800",`)), note: 'lone surrogates' };
      }
      return { bytes: Buffer.from(t), note: 'charset' };
    }
    case 'text': return { bytes: text(recipe.text), note: 'random text' };
    case 'bytes': return { bytes: Buffer.from(recipe.bytes), note: 'random bytes' };
    case 'empty': return { bytes: text(recipe.ws), note: 'empty body' };
    case 'dup-keys': {
      const members = JSON.stringify(doc).slice(1, -1);
      return { bytes: text(`{${members}${members ? ',' : ''}"${firstString}":${JSON.stringify(recipe.value)}}`), note: 'duplicate key' };
    }
  }
}

function idSegment(recipe: IdRecipe, sample: ResourceSample | undefined): string {
  switch (recipe.t) {
    case 'existing': {
      const found = pick(sample?.ids ?? [], recipe.i) ?? '0123456789abcdef0123456789abcdef';
      const dashed = `${found.slice(0, 8)}-${found.slice(8, 12)}-${found.slice(12, 16)}-${found.slice(16, 20)}-${found.slice(20)}`;
      return { plain: found, upper: found.toUpperCase(), dashes: dashed, braces: `%7B${dashed}%7D`, 'dashes-upper': dashed.toUpperCase() }[recipe.spelling];
    }
    case 'hex': return recipe.hex || '0';
    case 'text': return encodeURIComponent(recipe.text) || '%20';
    case 'raw': return recipe.raw;
    case 'long': return 'a'.repeat(recipe.n);
  }
}

/** Raw text where HTTP allows it (a request target has no spaces or controls), else percent-encoded. */
const raw = (s: string, keep: boolean | undefined) => (keep && /^[\x21-\x7e]*$/.test(s) ? s : encodeURIComponent(s));

function queryString(params: QueryParam[]): string {
  if (!params.length) return '';
  return `?${params.map((p) => `${raw(p.name, p.rawName)}=${raw(p.value, p.rawValue)}`).join('&')}`;
}

/**
 * Node refuses request heads over 16 KiB (431, before the app sees them): long ids, query
 * strings and headers are cut so that the request reaches the service.
 */
const MAX_HEAD = 12_000;
function fitHead(req: HttpRequest): HttpRequest {
  const headerBytes = Object.entries(req.headers).reduce((n, [k, v]) => n + k.length + v.length + 4, 0);
  const room = MAX_HEAD - headerBytes;
  if (req.url.length <= room) return req;
  const [path, query] = req.url.split('?', 2);
  const url = path.length <= room ? `${path}${query === undefined ? '' : `?${query.slice(0, Math.max(0, room - path.length - 1))}`}` : path.slice(0, Math.max(room, 200));
  return { ...req, url: url.replace(/%[0-9A-Fa-f]?$/, ''), kind: `${req.kind} (cut to fit)` };
}

/** The HTTP request a recipe describes. */
export function materialize(recipe: Recipe, target: FuzzTarget): HttpRequest {
  return fitHead(materializeRaw(recipe, target));
}

function materializeRaw(recipe: Recipe, target: FuzzTarget): HttpRequest {
  const base = target.dataApiBaseUrl;
  const basePath = new URL(base).pathname.replace(/\/$/, '');
  const origin = new URL(base).origin;
  const headers: Record<string, string> = {};
  for (const h of recipe.headers) headers[h.name] = h.value;
  if (recipe.correlation !== undefined) headers['correlation-id'] = recipe.correlation;
  if (recipe.host !== undefined) headers.host = recipe.host;
  const authorization = authHeader(recipe.auth, target);
  if (authorization) headers.authorization = authorization;
  else delete headers.authorization;
  const sampleOf = (res: number) => target.samples[res % target.samples.length];
  const docOf = (s: ResourceSample, i: number) => pick(s.docs, i) ?? { codeValue: 'x', namespace: 'uri://fuzz.test', shortDescription: 'x' };
  const withBody = (b: BodyRecipe | null, s: ResourceSample, i: number, ct: string | null) => {
    if (!b) return {};
    const { bytes, note } = materializeBody(b, docOf(s, i), target.maxBodyBytes);
    if (ct !== null) headers['content-type'] = ct;
    return { body: bytes, note };
  };
  const data = (path: string, rest: Partial<HttpRequest> & { method: string; kind: string }): HttpRequest => ({ service: 'data', url: `${base}${DATA_ROOT}/core/${path}`, headers, ...rest });

  switch (recipe.k) {
    case 'post': {
      const s = sampleOf(recipe.res);
      const b = withBody(recipe.body, s, recipe.sample, recipe.ct);
      return data(s.endpoint, { method: 'POST', body: b.body, chunked: recipe.chunked, kind: `POST ${b.note}` });
    }
    case 'put': {
      const s = sampleOf(recipe.res);
      const b = withBody(recipe.body, s, recipe.sample, recipe.ct);
      if (recipe.ifMatch !== null) headers['if-match'] = recipe.ifMatch;
      return data(`${s.endpoint}/${idSegment(recipe.id, s)}`, { method: 'PUT', body: b.body, chunked: recipe.chunked, kind: `PUT ${recipe.id.t} id, ${b.note}` });
    }
    case 'delete': {
      const s = sampleOf(recipe.res);
      if (recipe.ifMatch !== null) headers['if-match'] = recipe.ifMatch;
      return data(`${s.endpoint}/${idSegment(recipe.id, s)}`, { method: 'DELETE', kind: `DELETE ${recipe.id.t} id` });
    }
    case 'get-item': {
      const s = sampleOf(recipe.res);
      if (recipe.snapshot) headers['use-snapshot'] = 'true';
      return data(`${s.endpoint}/${idSegment(recipe.id, s)}${queryString(recipe.query)}`, { method: 'GET', kind: `GET item ${recipe.id.t} id` });
    }
    case 'get-collection': {
      const s = sampleOf(recipe.res);
      const names = [...COMMON_QUERY, ...s.queryFields];
      // Known names of this resource, in any case, with hostile values.
      const q = recipe.query.map((p, i) => (p.rawName || i % 2 ? p : { ...p, name: flipCase(names[(recipe.caseFlip + i) % names.length], recipe.caseFlip >> i) }));
      if (recipe.profileAccept) headers.accept = recipe.profileAccept;
      return data(`${flipCase(s.endpoint, recipe.caseFlip % 3 === 0 ? recipe.caseFlip : 0)}${queryString(q)}`, { method: 'GET', kind: 'GET collection query' });
    }
    case 'feed': {
      const s = sampleOf(recipe.res);
      return data(`${s.endpoint}/${recipe.feed}${queryString(recipe.query)}`, { method: 'GET', kind: `GET ${recipe.feed.toLowerCase()}` });
    }
    case 'method': {
      const s = sampleOf(recipe.res);
      const b = withBody(recipe.body, s, 0, 'application/json');
      const path = recipe.target === 'collection' ? s.endpoint : recipe.target === 'deletes' ? `${s.endpoint}/deletes` : `${s.endpoint}/${pick(s.ids, 0) ?? 'x'}`;
      return data(path, { method: recipe.method, body: b.body, kind: `${recipe.method} on ${recipe.target}` });
    }
    case 'path': {
      const under = recipe.under.replace('{base}', basePath);
      return { service: 'data', method: recipe.method, url: `${origin}${under}/${recipe.segments.join('/')}${queryString(recipe.query)}`, headers, kind: `${recipe.method} random path` };
    }
    case 'token': {
      const good = Buffer.from(`${target.client.key}:${target.client.secret}`).toString('base64');
      if (recipe.cred === 'basic' || recipe.cred === 'both') headers.authorization = `Basic ${good}`;
      else if (recipe.cred === 'basic-wrong') headers.authorization = `Basic ${Buffer.from(`${target.client.key}:wrong-${target.client.secret.length}`).toString('base64')}`;
      else if (recipe.cred === 'basic-garbage') headers.authorization = pick(['Basic', 'Basic !!!', 'Basic Og==', `Basic ${Buffer.from('a:b:c').toString('base64')}`, 'Digest x', `Basic ${good} x`], recipe.extra.length + recipe.grant.length)!;
      else delete headers.authorization;
      const fields: [string, string][] = [['grant_type', recipe.grant]];
      if (recipe.scope !== null) fields.push(['scope', recipe.scope]);
      if (recipe.cred === 'body' || recipe.cred === 'both' || recipe.cred === 'json') fields.push(['client_id', target.client.key], ['client_secret', target.client.secret]);
      if (recipe.cred === 'body-wrong') fields.push(['client_id', target.client.key], ['client_secret', 'definitely-wrong']);
      for (const e of recipe.extra) fields.push([e.name, e.value]);
      let bytes: Buffer;
      let note = recipe.cred;
      if (recipe.body) {
        const b = materializeBody(recipe.body, Object.fromEntries(fields), target.maxBodyBytes);
        bytes = b.bytes;
        note += `, ${b.note}`;
      } else if (recipe.cred === 'json' || recipe.ct === 'application/json') bytes = Buffer.from(JSON.stringify(Object.fromEntries(fields)));
      else bytes = Buffer.from(new URLSearchParams(fields).toString());
      if (recipe.ct !== null) headers['content-type'] = recipe.cred === 'json' ? 'application/json' : recipe.ct;
      else delete headers['content-type'];
      return { service: 'data', method: 'POST', url: `${base}${TOKEN_PATH}`, headers, body: bytes, kind: `token ${note}` };
    }
    case 'token-info': {
      const token = recipe.tokenField === 'same' ? target.token : recipe.tokenField === 'other' ? 'x.y.z' : undefined;
      let bytes: Buffer;
      if (recipe.body) bytes = materializeBody(recipe.body, token ? { token } : {}, target.maxBodyBytes).bytes;
      else bytes = Buffer.from(recipe.ct?.startsWith('application/json') ? JSON.stringify(token ? { token } : {}) : token ? `token=${token}` : '');
      if (recipe.ct !== null) headers['content-type'] = recipe.ct;
      return { service: 'data', method: 'POST', url: `${base}${TOKEN_PATH}_info`, headers, body: bytes, kind: 'token_info' };
    }
    case 'fixed': {
      const paths = ['/', '/metadata/', '/metadata/data/v3/resources/swagger.json', AVAILABLE_CHANGE_VERSIONS_PATH, '/admin/digest', '/admin/snapshot', '/admin/fault', TOKEN_PATH];
      const p = paths[recipe.which % paths.length];
      return { service: 'data', method: recipe.method, url: `${base}${p}${queryString(recipe.query)}`, headers, kind: `${recipe.method} ${p}` };
    }
    case 'roster': {
      const r = new URL(target.rosteringBaseUrl).origin;
      const sourced = recipe.sourcedId ? `/${idSegment(recipe.sourcedId, undefined)}` : '';
      return { service: 'rostering', method: recipe.method, url: `${r}${recipe.prefix}/${recipe.endpoint}${sourced}${queryString(recipe.query)}`, headers, kind: `rostering ${recipe.method} ${recipe.sourcedId ? 'item' : 'list'}` };
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Sending.

export interface Exchange {
  status?: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** Transport failure before a response arrived (ECONNRESET, ECONNREFUSED, ...). */
  error?: string;
  timedOut?: boolean;
  ms: number;
}

/** Sends one request over HTTP/1.1 with a hard timeout; never rejects. */
export function send(req: HttpRequest, opts: { timeoutMs: number; agent?: http.Agent }): Promise<Exchange> {
  const started = Date.now();
  return new Promise<Exchange>((resolve) => {
    let settled = false;
    let gotResponse = false;
    const done = (e: Omit<Exchange, 'ms'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...e, ms: Date.now() - started });
    };
    // The path goes out as generated: a URL object would resolve dot segments and re-encode.
    const m = /^http:\/\/([^/:]+):(\d+)(\/.*)?$/.exec(req.url);
    // Framing is explicit: Node sends a GET or DELETE body without Content-Length otherwise.
    const headers = { ...req.headers, ...(req.body ? (req.chunked ? { 'transfer-encoding': 'chunked' } : { 'content-length': String(req.body.length) }) : {}) };
    let r: http.ClientRequest;
    try {
      if (!m) throw new Error(`not a loopback http URL: ${req.url}`);
      r = http.request({ host: m[1], port: Number(m[2]), path: m[3] ?? '/', method: req.method, headers, agent: opts.agent, setHost: !('host' in req.headers) });
    } catch (err) {
      done({ headers: {}, body: Buffer.alloc(0), error: `client refused to send: ${(err as Error).message}` });
      return;
    }
    const timer = setTimeout(() => { r.destroy(); done({ headers: {}, body: Buffer.alloc(0), timedOut: true }); }, opts.timeoutMs);
    r.on('response', (res) => {
      gotResponse = true;
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => done({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', () => done({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('aborted', () => done({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    r.on('error', (err: NodeJS.ErrnoException) => { if (!gotResponse) done({ headers: {}, body: Buffer.alloc(0), error: err.code ?? err.message }); });
    if (req.body && req.chunked) {
      // Streamed without Content-Length: the size limit must hold while reading.
      const step = 64 * 1024;
      let at = 0;
      const pump = () => {
        while (at < req.body!.length) {
          const more = r.write(req.body!.subarray(at, at + step));
          at += step;
          if (!more) { r.once('drain', pump); return; }
        }
        r.end();
      };
      pump();
    } else r.end(req.body);
  });
}

// ---------------------------------------------------------------------------------------------
// Judging.

type Registry = { prefix: string; problemTypes: { suffix: string; title: string; status: number }[] };
const REG = registry as Registry;
const PROBLEMS = new Map(REG.problemTypes.map((p) => [`${REG.prefix}${p.suffix}`, p]));
const PROBLEM_MEMBERS = new Set(['detail', 'type', 'title', 'status', 'correlationId', 'validationErrors', 'errors']);
const OAUTH_ERRORS = new Set(['invalid_client', 'invalid_request', 'unsupported_grant_type', 'invalid_scope', 'temporarily_unavailable']);

/** Internal detail an answer must never carry, found anywhere in its text. */
export function leaks(text: string, forbidden: { label: string; value: string }[] = [], roots: string[] = []): string[] {
  const found: string[] = [];
  if (/\n\s*at [^\n]*:\d+:\d+/.test(text) || /\((?:file:\/\/)?\/[^()\s]+:\d+:\d+\)/.test(text)) found.push('stack trace');
  if (/node_modules|\/reference\/[\w/-]+\.[tj]s\b|\.ts:\d+/.test(text)) found.push('source file path');
  for (const root of roots) if (root && text.includes(root)) found.push(`path ${root}`);
  if (/\b(?:Range|Type|Reference|Syntax|URI|Eval)Error\b|Maximum call stack|ERR_[A-Z_]{4,}/.test(text)) found.push('internal error name');
  if (/-----BEGIN [A-Z ]*KEY-----/.test(text)) found.push('key material');
  for (const f of forbidden) if (f.value && text.includes(f.value)) found.push(f.label);
  return found;
}

/** What is wrong with the answer to a request (an empty list when nothing is). */
export function judge(req: HttpRequest, ex: Exchange, target: Pick<FuzzTarget, 'maxBodyBytes' | 'forbidden'>, roots: string[] = []): string[] {
  if (ex.timedOut) return ['no answer within the timeout (hang)'];
  const oversize = (req.body?.length ?? 0) > target.maxBodyBytes;
  if (ex.status === undefined) {
    // A body over the limit may be cut off by the server closing the connection after its 413.
    if (oversize && /^(ECONNRESET|EPIPE)$/.test(ex.error ?? '')) return [];
    return [`transport error ${ex.error}`];
  }
  const problems: string[] = [];
  const status = ex.status;
  const text = ex.body.toString('utf8');
  if (status >= 500) problems.push(`status ${status}`);
  else if (status < 200 || (status >= 300 && status < 400 && status !== 304)) problems.push(`unexpected status ${status}`);
  // A body over the limit must never be accepted or parsed (answers decided before reading it,
  // such as 401, 404, 415 or a refused charset, are fine).
  if (oversize && readsBody(req) && (status < 300 || judgedBody(text))) problems.push(`a ${req.body!.length}-byte body (limit ${target.maxBodyBytes}) answered ${status}, not 413`);
  const found = leaks(text, target.forbidden, roots);
  if (found.length && (status >= 400 || found.some((f) => target.forbidden.some((x) => x.label === f)))) problems.push(`leaks ${found.join(', ')}`);
  if (status >= 400 && req.method !== 'HEAD') problems.push(...(req.service === 'data' ? problemBodyErrors(req, ex, text) : statusBodyErrors(ex, text)));
  return problems;
}

/** A validation answer about the body's content (not only the route's id): the body was parsed. */
function judgedBody(text: string): boolean {
  try {
    const v = (JSON.parse(text) as { validationErrors?: Record<string, unknown> }).validationErrors;
    return !!v && Object.keys(v).some((k) => k !== '$.id');
  } catch {
    return false;
  }
}

/** Requests whose body the server reads: writes to the data API and the token endpoints. */
function readsBody(req: HttpRequest): boolean {
  return req.service === 'data' && (req.method === 'POST' || req.method === 'PUT');
}

function problemBodyErrors(req: HttpRequest, ex: Exchange, text: string): string[] {
  const url = new URL(req.url);
  const status = ex.status!;
  const isToken = /\/oauth\/token$/i.test(url.pathname);
  const isTokenInfo = /\/oauth\/token_info$/i.test(url.pathname);
  if (isTokenInfo && status === 401 && text === '') return [];
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return [`4xx body is not JSON: ${JSON.stringify(text.slice(0, 120))}`];
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) return ['4xx body is not a JSON object'];
  const errors: string[] = [];
  if (!/^application\/(problem\+)?json\b/i.test(String(ex.headers['content-type'] ?? ''))) errors.push(`4xx content type ${String(ex.headers['content-type'])}`);
  if (isToken && (status === 400 || status === 401 || status === 429) && 'error' in body) {
    if (status === 429 && !ex.headers['retry-after']) errors.push('429 without Retry-After');
    if (!OAUTH_ERRORS.has(String(body.error))) errors.push(`unknown OAuth error ${String(body.error)}`);
    if (Object.keys(body).some((k) => k !== 'error' && k !== 'error_description')) errors.push('OAuth error with other members');
    return errors;
  }
  const registered = PROBLEMS.get(String(body.type));
  if (!registered) errors.push(`problem type ${String(body.type)} is not registered`);
  else {
    if (registered.status !== status) errors.push(`problem ${registered.suffix} (registered ${registered.status}) sent with status ${status}`);
    if (body.title !== registered.title) errors.push(`problem title ${String(body.title)}`);
  }
  if (body.status !== status) errors.push(`problem status member ${String(body.status)} differs from ${status}`);
  if (typeof body.detail !== 'string' || !body.detail) errors.push('problem without detail');
  if (typeof body.correlationId !== 'string' || !body.correlationId) errors.push('problem without correlationId');
  const sent = req.headers['correlation-id']?.replace(/^[ \t]+|[ \t]+$/g, '');
  if (sent && body.correlationId !== sent) errors.push('correlationId differs from the correlation-id header');
  for (const k of Object.keys(body)) if (!PROBLEM_MEMBERS.has(k)) errors.push(`problem member ${k}`);
  if ('errors' in body && !(Array.isArray(body.errors) && body.errors.every((e) => typeof e === 'string'))) errors.push('errors is not a list of strings');
  if ('validationErrors' in body) {
    const v = body.validationErrors as Record<string, unknown>;
    if (!v || typeof v !== 'object' || Array.isArray(v) || !Object.values(v).every((m) => Array.isArray(m) && m.every((x) => typeof x === 'string'))) errors.push('validationErrors is not a map of string lists');
  }
  if (status === 405 && !ex.headers.allow) errors.push('405 without Allow');
  if (status === 429 && !ex.headers['retry-after']) errors.push('429 without Retry-After');
  return errors;
}

function statusBodyErrors(ex: Exchange, text: string): string[] {
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return [`rostering 4xx body is not JSON: ${JSON.stringify(text.slice(0, 120))}`];
  }
  const errors: string[] = [];
  if (body?.stdx_codeMajor !== 'failure' || body.stdx_severity !== 'error' || typeof body.stdx_description !== 'string') errors.push('rostering 4xx is not a status body');
  for (const k of Object.keys(body ?? {})) if (!['stdx_codeMajor', 'stdx_severity', 'stdx_description', 'stdx_codeMinor'].includes(k)) errors.push(`status member ${k}`);
  if (ex.status === 401 && !/^Bearer/i.test(String(ex.headers['www-authenticate'] ?? ''))) errors.push('401 without WWW-Authenticate: Bearer');
  if (ex.status === 405 && !ex.headers.allow) errors.push('405 without Allow');
  return errors;
}

// ---------------------------------------------------------------------------------------------
// The run: recipes through a bounded pool of senders.

export interface Finding { index: number; recipe: Recipe; request: HttpRequest; exchange: Exchange; problems: string[] }

export interface FuzzSummary {
  seed: number;
  requests: number;
  /** Answers by status ('reset' for a closed connection, 'timeout' for none). */
  statuses: Record<string, number>;
  byService: Record<string, number>;
  serverErrors: number;
  hangs: number;
  findings: Finding[];
  /** Findings past the first `keepFindings` are counted only. */
  findingCount: number;
  crashed: boolean;
  durationMs: number;
  maxRssBytes?: number;
  slowestMs: number;
}

export interface RunOptions {
  target: FuzzTarget;
  seed: number;
  runs: number;
  concurrency?: number;
  timeoutMs?: number;
  keepFindings?: number;
  /** Absolute paths no answer may name (repository root, store directory). */
  roots?: string[];
  /** False once the server process has died (then the run stops: a crash). */
  alive?: () => boolean;
  /** Called about every `progressEvery` requests. */
  onProgress?: (done: number, summary: FuzzSummary) => void;
  progressEvery?: number;
  /** Samples memory of the server process (bytes). */
  rss?: () => number | undefined;
}

export async function runFuzz(opts: RunOptions): Promise<FuzzSummary> {
  const concurrency = opts.concurrency ?? 16;
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const summary: FuzzSummary = { seed: opts.seed, requests: 0, statuses: {}, byService: {}, serverErrors: 0, hangs: 0, findings: [], findingCount: 0, crashed: false, durationMs: 0, slowestMs: 0 };
  const started = Date.now();
  const batch = 1000;
  let next = 0;
  let recipesFrom = -1;
  let current: Recipe[] = [];
  const recipeAt = (i: number): Recipe => {
    const b = Math.floor(i / batch);
    if (b !== recipesFrom) { current = generate(batchSeed(opts.seed, b), Math.min(batch, opts.runs - b * batch)); recipesFrom = b; }
    return current[i - b * batch];
  };
  const sampleRss = () => {
    const rss = opts.rss?.();
    if (rss !== undefined) summary.maxRssBytes = Math.max(summary.maxRssBytes ?? 0, rss);
  };
  sampleRss();
  const rssTimer = opts.rss ? setInterval(sampleRss, 200) : undefined;
  const every = opts.progressEvery ?? 1000;
  const worker = async () => {
    while (next < opts.runs && !summary.crashed) {
      const index = next++;
      const recipe = recipeAt(index);
      const request = materialize(recipe, opts.target);
      const exchange = await send(request, { timeoutMs: opts.timeoutMs ?? 15_000, agent });
      summary.requests++;
      summary.byService[request.service] = (summary.byService[request.service] ?? 0) + 1;
      const label = exchange.timedOut ? 'timeout' : exchange.status === undefined ? `error ${exchange.error}` : String(exchange.status);
      summary.statuses[label] = (summary.statuses[label] ?? 0) + 1;
      if ((exchange.status ?? 0) >= 500) summary.serverErrors++;
      if (exchange.timedOut) summary.hangs++;
      summary.slowestMs = Math.max(summary.slowestMs, exchange.ms);
      if (opts.alive && !opts.alive()) summary.crashed = true;
      const problems = summary.crashed ? ['the server process died'] : judge(request, exchange, opts.target, opts.roots);
      if (problems.length) {
        summary.findingCount++;
        if (summary.findings.length < (opts.keepFindings ?? 25)) summary.findings.push({ index, recipe, request, exchange, problems });
      }
      if (opts.onProgress && summary.requests % every === 0) opts.onProgress(summary.requests, summary);
    }
  };
  try {
    await Promise.all(Array.from({ length: concurrency }, worker));
  } finally {
    if (rssTimer) clearInterval(rssTimer);
    sampleRss();
    agent.destroy();
  }
  summary.durationMs = Date.now() - started;
  return summary;
}

/** A finding as text: the request (token elided), what came back, and what is wrong with it. */
export function describeFinding(f: Finding, target: FuzzTarget): string {
  const r = f.request;
  const hide = (s: string) => s.split(target.token).join('<token>').split(target.client.secret).join('<secret>');
  const body = r.body ? `${r.body.length} bytes${r.chunked ? ', chunked' : ''}: ${hide(r.body.subarray(0, 300).toString('utf8'))}${r.body.length > 300 ? '…' : ''}` : '(none)';
  const answer = f.exchange.status === undefined ? (f.exchange.timedOut ? 'no answer (timeout)' : `transport error ${f.exchange.error}`) : `${f.exchange.status} ${hide(f.exchange.body.subarray(0, 400).toString('utf8'))}`;
  return [
    `#${f.index} [${r.kind}] ${f.problems.join('; ')}`,
    `  ${r.method} ${hide(r.url.length > 300 ? `${r.url.slice(0, 300)}…` : r.url)}`,
    `  headers ${hide(JSON.stringify(r.headers)).slice(0, 400)}`,
    `  body    ${body}`,
    `  answer  ${answer}`,
  ].join('\n');
}

/** The summary as the lines the fuzzer prints. */
export function formatSummary(s: FuzzSummary): string {
  const histogram = Object.entries(s.statuses).sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => `${k}: ${v}`).join(', ');
  return [
    `requests      ${s.requests} (seed ${s.seed}; ${Object.entries(s.byService).map(([k, v]) => `${k} ${v}`).join(', ')})`,
    `statuses      ${histogram}`,
    `5xx           ${s.serverErrors}`,
    `hangs         ${s.hangs}`,
    `findings      ${s.findingCount}`,
    `crash         ${s.crashed ? 'yes' : 'no'}`,
    `max RSS       ${s.maxRssBytes === undefined ? 'n/a' : `${(s.maxRssBytes / 1024 / 1024).toFixed(1)} MB`}`,
    `duration      ${(s.durationMs / 1000).toFixed(1)} s (slowest request ${s.slowestMs} ms)`,
  ].join('\n');
}
