/** Materialization: a recipe becomes the HTTP request (huge strings and deep nesting are built only here). */
import { AVAILABLE_CHANGE_VERSIONS_PATH, DATA_ROOT, TOKEN_PATH } from '../../spec/generate/openapi-data.js';
import { COMMON_QUERY, flipCase, UNICODE_PAIRS, type Auth, type BodyRecipe, type IdRecipe, type QueryParam, type Recipe } from './recipes.js';
import { exactNumber, numberVerdict, shapeOf, type Shape } from './shapes.js';
import { FRESH_NAMESPACE, type FuzzTarget, type ResourceSample } from './target.js';

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
  /** What the answer must be, when the recipe knows (issue 23 findings 1, 2 and 8). */
  mustRefuse?: string;
  mustRead?: { path: string; what: string };
}

/** What a body recipe knows of its answer. */
export interface Expectation {
  /** Why the write must be refused: a 2xx is then a finding. */
  mustRefuse?: string;
  /** A member whose value the type holds: a 400 naming this path is then a finding. */
  mustRead?: { path: string; what: string };
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

/** The first top-level member holding a number (when the model has no member of the kind wanted). */
function numericMember(doc: Record<string, unknown>): string | undefined {
  return Object.keys(doc).find((k) => typeof doc[k] === 'number');
}

/** The document's JSON text with `name` set to `value`, written as is (a literal no JSON.stringify makes). */
function withMember(doc: Record<string, unknown>, name: string, value: string): string {
  const rest = Object.fromEntries(Object.entries(doc).filter(([k]) => k !== name));
  const members = JSON.stringify(rest).slice(1, -1);
  return `{${members}${members ? ',' : ''}${JSON.stringify(name)}:${value}}`;
}

/** The bytes and content type of a body recipe, built from a valid sample document. */
export function materializeBody(recipe: BodyRecipe, sample: Record<string, unknown>, maxBodyBytes: number, shape?: Shape): { bytes: Buffer; note: string } & Expectation {
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
    case 'numeric-text': {
      // Finding 1: a long run of digits in a double member (where the backtracking pattern read
      // text), as text or as a literal, then a tail after which no number is left or one is.
      const tails = recipe.quoted ? ['x', '', '.', 'e', ' ', '.5x', 'e+'] : ['', '.5', 'e5', 'e-400', '.0'];
      const tail = tails[recipe.tail % tails.length];
      // Cut to fit under the body limit with the rest of the document (the work is in the digits, not in a 413).
      const n = Math.max(1, Math.min(recipe.digits, maxBodyBytes - JSON.stringify(doc).length - 100));
      const digits = '9'.repeat(n);
      const value = recipe.quoted ? `"${digits}${tail}"` : `${digits}${tail}`;
      const doubles = shape?.numbers.double ?? [];
      const member = doubles.length ? doubles[recipe.digits % doubles.length].name : numericMember(doc) ?? firstString;
      // A thousand digits or more are past the largest double whatever the tail (1e-400 included).
      const refuse = doubles.length > 0 && n >= 1000;
      return { bytes: text(withMember(doc, member, value)), note: `numeric ${recipe.quoted ? 'text' : 'literal'} of ${n} digits in ${doubles.length ? 'a double' : 'a'} member`, ...(refuse ? { mustRefuse: `${n} digits in the double ${member}` } : {}) };
    }
    case 'many-items': {
      // Finding 2: a collection of very many items that each fail.
      const coll = shape?.collections.length ? shape.collections[recipe.count % shape.collections.length] : undefined;
      const name = coll?.name ?? Object.keys(doc).find((k) => Array.isArray(doc[k])) ?? firstString;
      const first = Array.isArray(doc[name]) ? (doc[name] as unknown[])[0] : undefined;
      const item = recipe.item === 'empty' ? '{}' : recipe.item === 'scalar' ? '1' : JSON.stringify(first ?? {});
      const count = Math.max(2, Math.min(recipe.count, Math.floor((maxBodyBytes - JSON.stringify(doc).length - 100) / (item.length + 1))));
      // Items of this collection need a member (an empty one fails), are objects, and repeat
      // one another's key when they are the same item.
      const refuse = coll && (recipe.item !== 'repeat' || first === undefined || coll.keyed);
      return { bytes: text(withMember(doc, name, `[${Array(count).fill(item).join(',')}]`)), note: `many items (${count} ${recipe.item})`, ...(refuse ? { mustRefuse: `${count} failing ${name} items` } : {}) };
    }
    case 'number-spelling': {
      // Finding 8: a number member of a kind, spelled so that a lossy reading stores something else.
      const members = shape?.numbers[recipe.kind] ?? [];
      const member = members.length ? members[recipe.member % members.length] : undefined;
      const name = member?.name ?? numericMember(doc) ?? firstString;
      const literal = !recipe.quoted && exactNumber(recipe.spelling) !== undefined;
      const value = literal ? recipe.spelling : JSON.stringify(recipe.spelling);
      const verdict = member ? numberVerdict(recipe.spelling, recipe.kind, member) : undefined;
      const note = `number spelling ${value} in ${member ? `an ${recipe.kind}` : 'a'} member`;
      const expect = verdict === 'refuse' ? { mustRefuse: `${value} in the ${recipe.kind} ${name}` } : verdict === 'read' ? { mustRead: { path: `$.${name}`, what: `${value}, a value of ${recipe.kind}${member?.maximum !== undefined || member?.minimum !== undefined ? ' within its bounds' : ''}` } } : {};
      return { bytes: text(withMember(doc, name, value)), note, ...expect };
    }
    case 'odd-text': {
      // Finding 8: text with no visible character where text is required, or with a control character.
      const blank = !/[\p{L}\p{N}\p{P}\p{S}\p{Co}]/u.test(recipe.text);
      const texts = shape ? (blank && !recipe.append && shape.texts.some((t) => t.required) ? shape.texts.filter((t) => t.required) : shape.texts) : [];
      const member = texts.length ? texts[recipe.member % texts.length] : undefined;
      const name = member?.name ?? firstString;
      doc[name] = recipe.append ? `${typeof doc[name] === 'string' ? doc[name] as string : 'x'}${recipe.text}` : recipe.text;
      // Control characters other than tab, LF and CR are refused in any text member.
      const control = /[\x01-\x08\x0B\x0C\x0E-\x1F\x7F-\x9F]/.test(recipe.text);
      const refuse = member && (control ? `a control character in ${name}` : blank && !recipe.append && member.required ? `text with no visible character in the required ${name}` : undefined);
      return { bytes: text(JSON.stringify(doc)), note: `odd text${control ? ' (control)' : blank ? ' (blank)' : ''}`, ...(refuse ? { mustRefuse: refuse } : {}) };
    }
    case 'nfc-pair': {
      // Finding 8: two items keyed by one text, in its composed and decomposed spellings: one key twice.
      const [composed, decomposed] = UNICODE_PAIRS[recipe.pair % UNICODE_PAIRS.length];
      const c = shape?.textKeyed.length ? shape.textKeyed[recipe.member % shape.textKeyed.length] : undefined;
      if (!c) return { bytes: text(JSON.stringify({ ...doc, [firstString]: decomposed })), note: 'unicode pair' };
      // Long enough for any minimum length of these members (five characters at most).
      const item = (key: string) => Object.fromEntries(c.required.map((m) => [m.name, m.name === c.key ? `fuzz ${key}` : 'fuzz filler']));
      doc[c.name] = [item(composed), item(decomposed)];
      return { bytes: text(JSON.stringify(doc)), note: 'unicode pair of item keys', mustRefuse: `two ${c.name} items whose ${c.key} differs only in Unicode spelling` };
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

const fittingCache = new WeakMap<FuzzTarget, Map<string, ResourceSample[]>>();
/** The samples a body recipe that needs a member of a kind can break (undefined: any sample will do). */
function fitting(target: FuzzTarget, b: BodyRecipe): ResourceSample[] | undefined {
  const need = b.t === 'numeric-text' ? (s: Shape) => s.numbers.double.length > 0
    : b.t === 'number-spelling' ? (s: Shape) => s.numbers[b.kind].length > 0
      : b.t === 'many-items' ? (s: Shape) => s.collections.length > 0
        : b.t === 'odd-text' ? (s: Shape) => s.texts.length > 0
          : b.t === 'nfc-pair' ? (s: Shape) => s.textKeyed.length > 0
            : undefined;
  if (!need) return undefined;
  const key = b.t === 'number-spelling' ? `${b.t} ${b.kind}` : b.t;
  let byKey = fittingCache.get(target);
  if (!byKey) fittingCache.set(target, (byKey = new Map()));
  let fit = byKey.get(key);
  if (!fit) byKey.set(key, (fit = target.samples.filter((s) => { const shape = shapeOf(s.endpoint); return !!shape && need(shape); })));
  return fit;
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
  // A body that breaks a member of a kind goes to a resource that has one.
  const sampleFor = (res: number, b: BodyRecipe | null) => {
    const fit = b ? fitting(target, b) : undefined;
    return fit?.length ? fit[res % fit.length] : sampleOf(res);
  };
  const docOf = (s: ResourceSample, i: number) => pick(s.docs, i) ?? { codeValue: 'x', namespace: 'uri://fuzz.test', shortDescription: 'x' };
  const withBody = (b: BodyRecipe | null, s: ResourceSample, i: number, ct: string | null): { body?: Buffer; note?: string; expect?: Expectation } => {
    if (!b) return {};
    const { bytes, note, ...expect } = materializeBody(b, docOf(s, i), target.maxBodyBytes, shapeOf(s.endpoint));
    if (ct !== null) headers['content-type'] = ct;
    return { body: bytes, note, expect };
  };
  const data = (path: string, rest: Partial<HttpRequest> & { method: string; kind: string }): HttpRequest => ({ service: 'data', url: `${base}${DATA_ROOT}/core/${path}`, headers, ...rest });

  switch (recipe.k) {
    case 'post': {
      const s = sampleFor(recipe.res, recipe.body);
      const b = withBody(recipe.body, s, recipe.sample, recipe.ct);
      return data(s.endpoint, { method: 'POST', body: b.body, chunked: recipe.chunked, kind: `POST ${b.note}`, ...b.expect });
    }
    case 'put': {
      const s = sampleFor(recipe.res, recipe.body);
      const b = withBody(recipe.body, s, recipe.sample, recipe.ct);
      if (recipe.ifMatch !== null) headers['if-match'] = recipe.ifMatch;
      return data(`${s.endpoint}/${idSegment(recipe.id, s)}`, { method: 'PUT', body: b.body, chunked: recipe.chunked, kind: `PUT ${recipe.id.t} id, ${b.note}`, ...b.expect });
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
      // Filler as many small members (what costs a parser most), around 16 bytes each.
      for (let i = 0; i * 16 < recipe.pad; i++) fields.push([`pad${i}`, 'xxxxxxxx']);
      let bytes: Buffer;
      let note = `${recipe.cred}${recipe.pad ? `, ${recipe.pad}-byte filler` : ''}`;
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
    case 'fresh': {
      headers['content-type'] = 'application/json';
      const doc = { codeValue: `fuzz-${recipe.n.toString(36)}`, namespace: FRESH_NAMESPACE, shortDescription: 'fresh', description: 'd'.repeat(recipe.bytes) };
      return data('gradeLevelDescriptors', { method: 'POST', body: Buffer.from(JSON.stringify(doc)), kind: 'POST a new record' });
    }
    case 'describe': {
      // The service's own names (kept, compressed) and others: foreign names, an accepted name at another port, none.
      const { host, port } = new URL(base);
      headers.host = [host, `localhost:${port}`, '127.0.0.1', `127.0.0.1:${1 + (recipe.hostChoice % 60_000)}`, `h${recipe.hostChoice % 1000}.evil.test`, `evil.test:${port}`, ''][recipe.hostChoice % 7];
      if (recipe.encoding) headers['accept-encoding'] = recipe.encoding;
      if (recipe.ifNoneMatch !== null) headers['if-none-match'] = recipe.ifNoneMatch;
      if (recipe.cacheControl !== null) headers['cache-control'] = recipe.cacheControl;
      const paths = ['/metadata/data/v3/resources/swagger.json', '/metadata/data/v3/descriptors/swagger.json', '/metadata/other/swagger.json', '/', '/metadata/'];
      const p = paths[recipe.which % paths.length];
      return { service: 'data', method: 'GET', url: `${base}${p}`, headers, kind: `describe ${p}` };
    }
    case 'admin': {
      // Never the fault trigger: its 500 is on purpose. The snapshot only dropped (taking one copies the store).
      const [method, p] = ([['GET', '/admin/digest'], ['DELETE', '/admin/snapshot']] as const)[recipe.which % 2];
      const admin = target.admin ?? { key: 'admin', secret: 'x' };
      if (recipe.cred === 'none') delete headers.authorization;
      else headers.authorization = `Basic ${Buffer.from(`${admin.key}:${recipe.cred === 'right' ? admin.secret : `guess-${recipe.which}`}`).toString('base64')}`;
      if (recipe.forwarded) headers[recipe.forwarded.name] = recipe.forwarded.value;
      return { service: 'data', method, url: `${base}${p}`, headers, kind: `admin ${recipe.cred}${recipe.forwarded ? ' forwarded' : ''}` };
    }
    case 'roster': {
      const r = new URL(target.rosteringBaseUrl).origin;
      const sourced = recipe.sourcedId ? `/${idSegment(recipe.sourcedId, undefined)}` : '';
      return { service: 'rostering', method: recipe.method, url: `${r}${recipe.prefix}/${recipe.endpoint}${sourced}${queryString(recipe.query)}`, headers, kind: `rostering ${recipe.method} ${recipe.sourcedId ? 'item' : 'list'}` };
    }
  }
}
