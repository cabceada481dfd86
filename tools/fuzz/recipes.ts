/** Recipes: fast-check arbitraries for what to break in a request and how (small; `materialize` builds the bytes). */
import fc from 'fast-check';
import { ROSTER_ENDPOINTS, ROSTER_PREFIX, FILTERABLE } from '../../spec/generate/openapi-rostering.js';

/** Flips the case of the characters whose bit is set (a name in an unexpected case). */
export function flipCase(s: string, bits: number): string {
  return [...s].map((c, i) => ((bits >> (i % 30)) & 1 ? (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()) : c)).join('');
}

type Json = unknown;
export type Auth = 'valid' | 'none' | 'garbage' | 'basic' | 'tampered' | 'alg-none' | 'scheme-only' | 'lowercase' | 'two-tokens' | 'huge';
type Header = { name: string; value: string };

export type BodyRecipe =
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
  | { t: 'dup-keys'; value: Json }
  // Issue 23, finding 1: a long run of digits in a double member, as text or as a literal, then a tail.
  | { t: 'numeric-text'; digits: number; quoted: boolean; tail: number }
  // Finding 2: a collection of very many items that each fail (empty, a scalar, the first item repeated).
  | { t: 'many-items'; count: number; item: 'empty' | 'scalar' | 'repeat' }
  // Finding 8: numbers spelled so that a lossy reading would store them as something else, in a
  // member of the kind given (the `member`-th of that kind of the resource).
  | { t: 'number-spelling'; spelling: string; quoted: boolean; kind: 'int32' | 'int64' | 'double'; member: number }
  // Finding 8: text that shows nothing or holds a control character, in the `member`-th text member.
  | { t: 'odd-text'; text: string; append: boolean; member: number }
  // Finding 8: two items of one collection whose string key differs only in Unicode spelling (NFC and NFD).
  | { t: 'nfc-pair'; pair: number; member: number };

export type IdRecipe =
  | { t: 'existing'; i: number; spelling: 'plain' | 'upper' | 'dashes' | 'braces' | 'dashes-upper' }
  | { t: 'hex'; hex: string }
  | { t: 'text'; text: string }
  | { t: 'raw'; raw: string }
  | { t: 'long'; n: number };

export type QueryParam = { name: string; value: string; rawName?: boolean; rawValue?: boolean };

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
  // pad: bytes of filler in the body (issue 23 point 7: over 64 KiB the token endpoint must refuse it unparsed).
  | { k: 'token'; cred: 'basic' | 'basic-wrong' | 'basic-garbage' | 'body' | 'body-wrong' | 'both' | 'none' | 'json'; grant: string; scope: string | null; ct: string | null; extra: QueryParam[]; body: BodyRecipe | null; pad: number }
  | { k: 'token-info'; body: BodyRecipe | null; ct: string | null; tokenField: 'same' | 'other' | 'none' }
  | { k: 'fixed'; which: number; method: string; query: QueryParam[] }
  | { k: 'fresh'; n: number; bytes: number }
  | { k: 'roster'; endpoint: string; sourcedId: IdRecipe | null; query: QueryParam[]; method: string; prefix: string }
  // Issue 23 point 3: an interface description (or discovery) under a varying Host, encoding and revalidation.
  | { k: 'describe'; which: number; hostChoice: number; encoding: string; ifNoneMatch: string | null; cacheControl: string | null }
  // Issue 23 point 6: the admin endpoints through a proxy (forwarding headers) and with guessed credentials.
  | { k: 'admin'; which: number; cred: 'right' | 'wrong' | 'none'; forwarded: Header | null }
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
/** Number spellings a lossy reading turns into another value (issue 23 finding 8). */
export const NUMBER_SPELLINGS = ['1e21', '1e19', '9.3e18', '-9.3e18', '9.223372036854775807e18', '9.223372036854775808e18', '1e-400', '-1e-400', '1e400', '1.0000000000000001', '2147483647.0000000001',
  '12.0', '1.2e1', '0.0', '-0', '1e999999999999', '1e-999999999999', '999999.9990000000000001', '0.00000000000000000000001'];
/** Text a required member must not be, or that stores as something else (issue 23 finding 8). */
export const ODD_TEXTS = ['\u200B', '\u2060', '\uFEFF', '\u0301', ' \u200B ', '\u00A0', 'a\u0001b', 'a\u0008', 'a\u007Fb', 'a\u0085b', 'a\u009F', 'Zoe\u0308', 'A\u030A', '\u212B', 'e\u0301\u0301\u0301'];
/** Number spellings outside JSON's number grammar: as text in a number member, never a number (decisions #28). */
export const NOT_NUMBER_FORMS = ['.5', '5.', '+5', '007', '0x10', ' 5', '5 ', '1e', '-', '1_000', 'Infinity', 'NaN'];
/** One text in its composed (NFC) and decomposed spellings: one key (issue 23 finding 8). */
export const UNICODE_PAIRS: [string, string][] = [['Zo\u00EB', 'Zoe\u0308'], ['\u00C5ngstr\u00F6m', 'A\u030Angstro\u0308m'], ['\u00C5', '\u212B'], ['caf\u00E9', 'cafe\u0301'], ['\u1E69', 's\u0323\u0307'], ['\uAC00', '\u1100\u1161']];
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

/** Every kind of body, with its weight; `--recipe <kind>` fuzzes one alone. */
export const BODY_RECIPES: { [K in BodyRecipe['t']]: { weight: number; arbitrary: fc.Arbitrary<Extract<BodyRecipe, { t: K }>> } } = {
  'json': { weight: 4, arbitrary: fc.record({ t: fc.constant('json' as const), value: json }) },
  'sample': { weight: 1, arbitrary: fc.record({ t: fc.constant('sample' as const) }) },
  'drop': { weight: 3, arbitrary: fc.record({ t: fc.constant('drop' as const), path }) },
  'wrong-type': { weight: 5, arbitrary: fc.record({ t: fc.constant('wrong-type' as const), path, variant: fc.nat() }) },
  'replace': { weight: 3, arbitrary: fc.record({ t: fc.constant('replace' as const), path, value: json }) },
  'truncate': { weight: 3, arbitrary: fc.record({ t: fc.constant('truncate' as const), cut: fc.nat() }) },
  'deep': { weight: 2, arbitrary: fc.record({ t: fc.constant('deep' as const), depth: fc.oneof(fc.integer({ min: 20, max: 800 }), fc.integer({ min: 800, max: 20_000 }), fc.integer({ min: 20_000, max: 150_000 })), shape: fc.constantFrom('array' as const, 'object' as const, 'mixed' as const), inField: fc.boolean() }) },
  'huge': { weight: 2, arbitrary: fc.record({ t: fc.constant('huge' as const), bytes: fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 1000, max: 100_000 }) }, { weight: 2, arbitrary: fc.integer({ min: 100_000, max: 900_000 }) }, { weight: 1, arbitrary: fc.integer({ min: 1_100_000, max: 4_000_000 }) }), where: fc.constantFrom('field' as const, 'key' as const, 'array' as const, 'raw' as const, 'number' as const, 'escapes' as const), char: fc.constantFrom('a', 'é', '😀', '\u0000', '"', '\\', '<', ' ', '1') }) },
  'proto': { weight: 3, arbitrary: fc.record({ t: fc.constant('proto' as const), keys: fc.subarray(PROTO_KEYS, { minLength: 1 }), nested: fc.boolean(), value: json }) },
  'bigint': { weight: 2, arbitrary: fc.record({ t: fc.constant('bigint' as const), digits: fc.integer({ min: 15, max: 400 }), negative: fc.boolean(), fraction: fc.boolean() }) },
  'charset': { weight: 2, arbitrary: fc.record({ t: fc.constant('charset' as const), enc: fc.constantFrom('utf16le' as const, 'utf16le-bom' as const, 'latin1' as const, 'invalid-utf8' as const, 'utf8-bom' as const, 'nul' as const, 'lone-surrogate' as const) }) },
  'text': { weight: 2, arbitrary: fc.record({ t: fc.constant('text' as const), text: anyString(80) }) },
  'bytes': { weight: 1, arbitrary: fc.record({ t: fc.constant('bytes' as const), bytes: fc.array(fc.integer({ min: 0, max: 255 }), { maxLength: 120 }) }) },
  'empty': { weight: 1, arbitrary: fc.record({ t: fc.constant('empty' as const), ws: fc.constantFrom('', ' ', '\n', '\t\r\n ', '\uFEFF') }) },
  'dup-keys': { weight: 1, arbitrary: fc.record({ t: fc.constant('dup-keys' as const), value: json }) },
  'numeric-text': { weight: 1, arbitrary: fc.record({ t: fc.constant('numeric-text' as const), digits: fc.oneof({ weight: 3, arbitrary: fc.integer({ min: 1000, max: 100_000 }) }, { weight: 1, arbitrary: fc.integer({ min: 100_000, max: 4_100_000 }) }), quoted: fc.boolean(), tail: fc.nat() }) },
  'many-items': { weight: 1, arbitrary: fc.record({ t: fc.constant('many-items' as const), count: fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 100, max: 70_000 }) }, { weight: 1, arbitrary: fc.integer({ min: 70_000, max: 1_400_000 }) }), item: fc.constantFrom('empty' as const, 'scalar' as const, 'repeat' as const) }) },
  'number-spelling': { weight: 1, arbitrary: fc.record({ t: fc.constant('number-spelling' as const), spelling: fc.oneof(fc.constantFrom(...NUMBER_SPELLINGS), fc.constantFrom(...NOT_NUMBER_FORMS)), quoted: fc.boolean(), kind: fc.constantFrom('int32' as const, 'int64' as const, 'double' as const), member: fc.nat() }) },
  'odd-text': { weight: 1, arbitrary: fc.record({ t: fc.constant('odd-text' as const), text: fc.constantFrom(...ODD_TEXTS), append: fc.boolean(), member: fc.nat() }) },
  'nfc-pair': { weight: 1, arbitrary: fc.record({ t: fc.constant('nfc-pair' as const), pair: fc.nat(), member: fc.nat() }) },
};
const body: fc.Arbitrary<BodyRecipe> = fc.oneof(...Object.values(BODY_RECIPES) as { weight: number; arbitrary: fc.Arbitrary<BodyRecipe> }[]);
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
export const COMMON_QUERY = ['offset', 'limit', 'totalCount', 'MinChangeVersion', 'MaxChangeVersion', 'correlationId', 'id'];
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

const FORWARDING_HEADERS = ['x-forwarded-for', 'forwarded', 'x-real-ip', 'via', 'x-forwarded-host', 'x-forwarded-proto'];
const describeRecipe = fc.record({
  k: fc.constant('describe' as const), which: fc.nat(), hostChoice: fc.nat(),
  encoding: fc.constantFrom('br', 'gzip', 'br, gzip', 'identity', '*', 'gzip;q=0, br;q=0', ''),
  ifNoneMatch: sometimes(fc.constantFrom('*', '"x"', 'W/"x"', '*, "x"', ''), 3, null),
  cacheControl: sometimes(fc.constantFrom('no-cache', 'max-age=0', 'no-store', 'no-cache, no-store'), 2, null),
  ...common,
});
const adminRecipe = fc.record({
  k: fc.constant('admin' as const), which: fc.nat(), cred: fc.constantFrom('right' as const, 'wrong' as const, 'none' as const),
  forwarded: sometimes(fc.record({ name: fc.constantFrom(...FORWARDING_HEADERS), value: fc.constantFrom('203.0.113.7', 'for=203.0.113.7', '1.1 proxy', '127.0.0.1', 'https', '') }), 2, null),
  ...common,
});

const dataRecipe: fc.Arbitrary<Recipe> = fc.oneof(
  { weight: 22, arbitrary: fc.record({ k: fc.constant('post' as const), res: fc.nat(), sample: fc.nat(), body, ct: contentType, chunked: fc.boolean(), ...common }) },
  { weight: 10, arbitrary: fc.record({ k: fc.constant('put' as const), res: fc.nat(), sample: fc.nat(), id, body, ct: contentType, ifMatch, chunked: fc.boolean(), ...common }) },
  { weight: 5, arbitrary: fc.record({ k: fc.constant('delete' as const), res: fc.nat(), id, ifMatch, ...common }) },
  { weight: 6, arbitrary: fc.record({ k: fc.constant('get-item' as const), res: fc.nat(), id, query: query(['fields', 'offset']), snapshot: fc.boolean(), ...common }) },
  { weight: 12, arbitrary: fc.record({ k: fc.constant('get-collection' as const), res: fc.nat(), query: query([...COMMON_QUERY, 'schoolId', 'studentUniqueId', 'codeValue', 'namespace', 'beginDate', 'schoolYear']), caseFlip: fc.nat(), profileAccept: sometimes(fc.constantFrom('application/vnd.core.students.nope.readable+json', 'application/vnd.core.x', 'application/vnd.core.students.p.writable+json'), 6, null), ...common }) },
  { weight: 4, arbitrary: fc.record({ k: fc.constant('feed' as const), res: fc.nat(), feed: fc.constantFrom('deletes', 'keyChanges', 'DELETES', 'keychanges'), query: query(COMMON_QUERY), ...common }) },
  { weight: 3, arbitrary: fc.record({ k: fc.constant('method' as const), res: fc.nat(), method: fc.constantFrom(...METHODS), target: fc.constantFrom('collection' as const, 'item' as const, 'deletes' as const), body: sometimes(body, 2, null), ...common }) },
  { weight: 6, arbitrary: fc.record({ k: fc.constant('path' as const), under: fc.constantFrom('', '/v7.3/api', '{base}', '{base}/data/v3', '{base}/data/v3/core', '{base}/metadata', '{base}/changeQueries/v1', '{base}/admin', '{base}/oauth'), segments: fc.array(fc.oneof(anyString(12).map(encodeURIComponent), fc.constantFrom(...NASTY_SEGMENTS, 'core', 'students', 'deletes', 'keyChanges', 'data', 'v3', '', 'swagger.json', 'token', 'snapshot', 'digest', 'fault')), { maxLength: 5 }), method: fc.constantFrom(...METHODS), query: query(COMMON_QUERY), ...common }) },
  { weight: 6, arbitrary: fc.record({ k: fc.constant('token' as const), cred: fc.constantFrom('basic' as const, 'basic-wrong' as const, 'basic-garbage' as const, 'body' as const, 'body-wrong' as const, 'both' as const, 'none' as const, 'json' as const), grant: fc.oneof(fc.constantFrom('client_credentials', 'CLIENT_CREDENTIALS', 'password', '', 'client_credentials ', 'authorization_code'), anyString(12)), scope: sometimes(fc.oneof(fc.constantFrom('roster-core.readonly', 'roster.readonly x', '255901', '0', 'a/b/roster-core.readonly', ''), anyString(20)), 2, null), ct: fc.oneof({ weight: 4, arbitrary: fc.constant('application/x-www-form-urlencoded') }, { weight: 1, arbitrary: contentType }), extra: query(['client_id', 'client_secret', 'grant_type', 'scope', 'CLIENT_ID', 'Grant_Type']), body: sometimes(body, 5, null), pad: sometimes(fc.integer({ min: 60_000, max: 300_000 }), 6, 0), ...common }) },
  { weight: 2, arbitrary: fc.record({ k: fc.constant('token-info' as const), body: sometimes(body, 3, null), ct: contentType, tokenField: fc.constantFrom('same' as const, 'other' as const, 'none' as const), ...common }) },
  { weight: 3, arbitrary: fc.record({ k: fc.constant('fixed' as const), which: fc.nat(), method: fc.constantFrom(...METHODS), query: query(COMMON_QUERY), ...common }) },
  // A valid create of a new record (issue 23 points 4 and 10): fills the client's record quota
  // and starts background compactions, which the fuzz target makes fail (tools/fuzz/target.ts).
  { weight: 3, arbitrary: fc.record({ k: fc.constant('fresh' as const), n: fc.nat(), bytes: fc.integer({ min: 0, max: 1024 }), ...common }) },
  { weight: 2, arbitrary: describeRecipe },
  { weight: 2, arbitrary: adminRecipe },
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

/** POSTs and PUTs whose body is of one kind only (`npm run fuzz -- --recipe <kind>`). */
export function recipesWithBody(kind: BodyRecipe['t']): fc.Arbitrary<Recipe> {
  const only = BODY_RECIPES[kind].arbitrary as fc.Arbitrary<BodyRecipe>;
  // A valid token, JSON and no stray headers: the body is what is judged, not what comes before it.
  const plain = { auth: fc.constant('valid' as const), headers: fc.constant([] as Header[]), correlation: common.correlation };
  return fc.oneof(
    { weight: 2, arbitrary: fc.record({ k: fc.constant('post' as const), res: fc.nat(), sample: fc.nat(), body: only, ct: fc.constant('application/json'), chunked: fc.boolean(), ...plain }) },
    // A PUT sends the sample document to its own record: a key change would be refused first.
    { weight: 1, arbitrary: fc.record({ k: fc.constant('put' as const), res: fc.nat(), sample: fc.nat(), body: only, ct: fc.constant('application/json'), ifMatch: fc.constant(null), chunked: fc.boolean(), ...plain })
      .map((r) => ({ ...r, id: { t: 'existing' as const, i: r.sample, spelling: 'plain' as const } })) },
  );
}

/** `count` recipes, deterministic for a seed (only POSTs and PUTs with one kind of body when `only` is given). */
export function generate(seed: number, count: number, only?: BodyRecipe['t']): Recipe[] {
  return fc.sample(only ? recipesWithBody(only) : recipes, { seed, numRuns: count });
}

/** The seed of the b-th batch of a run: distinct runs never share batches. */
export const batchSeed = (seed: number, b: number): number => (Math.imul(seed ^ 0x5bd1e995, 0x27d4eb2d) + Math.imul(b + 1, 0x165667b1)) | 0;
