/** Faulty deployments that break data.validation. */
import { randomUUID } from 'node:crypto';
import { answerJson, dataPath, eachObject, header, jsonOf, pathOf, queryOf, setJson, setQuery, type ProxiedRequest, type ProxiedResponse } from '../proxy.js';
import { isData, isWrite, isJson, problem, problemOf, editJson, editRequestJson, mapStrings, notJsonBody, objectsAt, type Fault } from './helpers.js';
import type { Fields } from '../../../spec/model/dsl.js';
import { model } from './served-model.js';

/** A deployment whose validationErrors messages read otherwise: each message matching `from` is rewritten to `to` (a conforming rewording). */
function rewordsValidationMessages(from: RegExp, to: string): Pick<Fault, 'response'> {
  return {
    response: (res, req) => {
      const p = isData(req) ? problemOf(res) : undefined;
      const errors = p?.validationErrors as Record<string, string[]> | undefined;
      if (!errors) return;
      p!.validationErrors = Object.fromEntries(Object.entries(errors).map(([k, v]) => [k, v.map((m) => m.replace(from, to))]));
      setJson(res, p);
    },
  };
}

/** Dangerous markup as decision 10 defines it. */
const DANGEROUS = /<[A-Za-z!/?]|&#/;
/** Markup hidden from the reference in private-use characters, and shown again in what it answers. */
const hide = (s: string) => s.replace(/</g, '\uE000').replace(/&#/g, '\uE001');
const show = (s: string) => s.replace(/\uE000/g, '<').replace(/\uE001/g, '&#');

/**
 * A deployment that stores the markup `lets` through: hidden from the reference on the way in,
 * shown again in every JSON answer (so a GET returns what was written).
 */
function storesMarkup(lets: (s: string, depth: number) => boolean): Pick<Fault, 'request' | 'response'> {
  return {
    request: (req) => {
      const body = dataPath(req) && isWrite(req) ? jsonOf(req) : undefined;
      if (body !== undefined) setJson(req, mapStrings(body, (s, depth) => (DANGEROUS.test(s) && lets(s, depth) ? hide(s) : s)));
    },
    response: (res, req) => { if (isData(req)) editJson(res, (body) => mapStrings(body, show)); },
  };
}

/** Where in a document a member sits: top level, nested object or reference, collection item. */
type Depth = 'top' | 'object' | 'item';
type Scalar = Extract<Fields[string], { kind: 'string' | 'int32' | 'int64' | 'double' | 'boolean' | 'date' | 'date-time' | 'time' }>;
/** What a faulty deployment makes of one scalar member's value (undefined: the member is absent): the value it stores. */
type ScalarEdit = (f: Scalar, value: unknown, depth: Depth) => unknown;

/** Applies `edit` to every scalar member of `fields` in `body`, present or not, nested objects and collection items included; answers whether it changed one. */
function editScalars(fields: Fields, body: Record<string, unknown>, edit: ScalarEdit, depth: Depth = 'top'): boolean {
  let changed = false;
  for (const [name, f] of Object.entries(fields)) {
    const v = body[name];
    if (f.kind === 'object' || f.kind === 'collection') {
      const inner = f.kind === 'collection' ? (Array.isArray(v) ? v : []) : v && typeof v === 'object' ? [v] : [];
      for (const o of inner) if (o && typeof o === 'object') changed = editScalars(f.kind === 'object' ? f.fields : f.item, o as Record<string, unknown>, edit, f.kind === 'collection' || depth === 'item' ? 'item' : 'object') || changed;
    } else if (f.kind !== 'reference' && f.kind !== 'descriptor' && f.kind !== 'extension' && !f.readOnly) {
      const next = edit(f, v, depth);
      if (next !== v && next !== undefined) { body[name] = next; changed = true; }
    }
  }
  return changed;
}

/** The model entry of a data request's resource, for writes only. */
const byEndpoint = new Map(model.resources.map((r) => [r.endpoint.toLowerCase(), r]));
const writtenResource = (req: ProxiedRequest) => (dataPath(req) && isWrite(req) ? byEndpoint.get(dataPath(req)!.resource.toLowerCase()) : undefined);

/** A deployment whose writes of the chosen resources store what `edit` makes of each scalar member. */
function editsScalars(resource: (name: string) => boolean, edit: ScalarEdit): Pick<Fault, 'request'> {
  return {
    request: (req) => {
      const r = writtenResource(req);
      if (r && resource(r.name)) editRequestJson(req, (b) => editScalars(r.fields, b, edit));
    },
  };
}

/** Silently cuts an over-long string to its maximum, where `where` says (the sibling of a maximum tested on one member only). */
const cutsOverMaximum = (where: (d: Depth) => boolean): ScalarEdit => (f, v, d) =>
  f.kind === 'string' && f.maxLength && typeof v === 'string' && v.length > f.maxLength && where(d) ? v.slice(0, f.maxLength) : v;

/** A value of a scalar member's kind within its bounds: what a deployment that defaults a missing member stores. */
function defaultFor(f: Scalar): unknown {
  switch (f.kind) {
    case 'string': return 'x'.repeat(Math.max(1, f.minLength ?? 1));
    case 'int32': case 'int64': return f.minimum ?? 1;
    case 'double': return f.minimum ?? 0;
    case 'boolean': return false;
    case 'date': return '2024-08-26';
    case 'date-time': return '2024-08-26T12:00:00Z';
    case 'time': return '08:30:00';
  }
}

/** Stores a default for a missing required member instead of refusing the body, where `where` says. */
const defaultsMissing = (where: (d: Depth) => boolean): ScalarEdit => (f, v, d) =>
  v === undefined && (f.required || f.identity) && where(d) ? defaultFor(f) : v;

/** Clamps an int32 value outside the int32 range to its nearer end instead of refusing it. */
const clampsInt32: ScalarEdit = (f, v) =>
  f.kind === 'int32' && typeof v === 'number' ? Math.min(2147483647, Math.max(-2147483648, v)) : v;

/** weekIdentifier values shorter than upstream's 5, padded for the reference with a marker the answers lose again. */
const PAD = '\uE002';
const padWeek = (v: string) => (v.length > 0 && v.length < 5 ? v.padEnd(5, PAD) : v);
function acceptsShortWeekIdentifiers(): Pick<Fault, 'request' | 'response'> {
  return {
    request: (req: ProxiedRequest) => {
      if (!dataPath(req)) return;
      if (isWrite(req)) {
        editRequestJson(req, (b) => {
          if (typeof b.weekIdentifier !== 'string' || padWeek(b.weekIdentifier) === b.weekIdentifier) return false;
          b.weekIdentifier = padWeek(b.weekIdentifier);
          return true;
        });
      }
      const q = queryOf(req);
      const name = [...q.keys()].find((k) => k.toLowerCase() === 'weekidentifier');
      if (name) { q.set(name, padWeek(q.get(name)!)); setQuery(req, q); }
    },
    response: (res: ProxiedResponse, req: ProxiedRequest) => { if (isData(req)) editJson(res, (body) => mapStrings(body, (s) => s.split(PAD).join(''))); },
  };
}

/** Date members sent as date-times, cut to their date for the reference and given back as sent. */
function storesDateTimes(): Pick<Fault, 'request' | 'response'> {
  const sent = new WeakMap<ProxiedRequest, Record<string, string>>();
  return {
    request: (req) => {
      if (!dataPath(req) || !isWrite(req)) return;
      const original: Record<string, string> = {};
      editRequestJson(req, (b) => {
        for (const [k, v] of Object.entries(b)) if (/Date$/.test(k) && typeof v === 'string' && /^\d{4}-\d\d-\d\d[T ]/.test(v)) { original[k] = v; b[k] = v.slice(0, 10); }
        return Object.keys(original).length > 0;
      });
      if (Object.keys(original).length) sent.set(req, original);
    },
    response: (res, req, tools) => {
      const stored = tools.state as Map<string, unknown>;
      const original = sent.get(req);
      const location = header(res, 'location');
      if (original && location && (res.status === 201 || res.status === 200)) stored.set(`date-times ${location.split('/').pop()}`, original);
      const id = dataPath(req)?.rest[0];
      const kept = id && req.method === 'GET' && res.status === 200 ? stored.get(`date-times ${id}`) as Record<string, string> | undefined : undefined;
      if (kept) editJson(res, (body) => ({ ...(body as object), ...kept }));
    },
  };
}

/** Where each member the model picks sits in `body` (JSON paths with item indexes), nested objects and every collection item included. */
function pathsOf(fields: Fields, body: Record<string, unknown>, pick: (f: Fields[string], value: unknown, depth: Depth) => boolean, base = '$', depth: Depth = 'top'): string[] {
  return Object.entries(fields).flatMap(([name, f]) => {
    const v = body[name];
    const here = pick(f, v, depth) ? [`${base}.${name}`] : [];
    const inner: Depth = f.kind === 'collection' || depth === 'item' ? 'item' : 'object';
    if (f.kind === 'object' && v && typeof v === 'object') return [...here, ...pathsOf(f.fields, v as Record<string, unknown>, pick, `${base}.${name}`, inner)];
    if (f.kind === 'collection' && Array.isArray(v)) return [...here, ...v.flatMap((x, i) => (x && typeof x === 'object' ? pathsOf(f.item, x as Record<string, unknown>, pick, `${base}.${name}[${i}]`, inner) : []))];
    return here;
  });
}

/** Trims the spaces around a natural-key string instead of refusing it, where `where` says. */
const trimsKeys = (where: (d: Depth) => boolean): ScalarEdit => (f, v, d) =>
  f.kind === 'string' && f.identity && typeof v === 'string' && where(d) ? v.trim() : v;

/** A deployment that refuses JSON null in the nullable members `where` picks, on the chosen resources, with 400 at their paths. */
function refusesNull(resource: (name: string) => boolean, where: (d: Depth) => boolean): Pick<Fault, 'request'> {
  return {
    request: (req) => {
      const r = writtenResource(req);
      const body = r && resource(r.name) ? jsonOf(req) : undefined;
      if (!r || !body || typeof body !== 'object' || Array.isArray(body)) return;
      const paths = pathsOf(r.fields, body as Record<string, unknown>, (f, v, d) => !!f.nullable && v === null && where(d));
      if (paths.length) return problem('bad-request:data-validation-failed', { validationErrors: Object.fromEntries(paths.map((p) => [p, [`${p.split('.').pop()!.replace(/\[\d+\]$/, '')} must not be null.`]])) });
    },
  };
}

/**
 * A deployment that accepts a required array sent with zero items on the chosen resources: when
 * the reference refuses a POST only at the paths of its empty required arrays, the proxy answers
 * 201 itself and keeps the record (GET and DELETE of it are answered from that memory).
 */
function acceptsEmptyRequiredArrays(resource: (name: string) => boolean): Pick<Fault, 'request'> {
  const kept = 'empty-arrays ';
  return {
    request: async (req, tools) => {
      const id = dataPath(req)?.rest.length === 1 ? dataPath(req)!.rest[0] : undefined;
      const stored = id ? tools.state.get(kept + id) as Record<string, unknown> | undefined : undefined;
      if (stored && req.method === 'GET') { const res: ProxiedResponse = { status: 200, headers: {}, body: Buffer.alloc(0) }; answerJson(res, 200, stored); return res; }
      if (stored && req.method === 'DELETE') { tools.state.delete(kept + id); return { status: 204, headers: {}, body: Buffer.alloc(0) }; }
      const r = req.method === 'POST' && dataPath(req)?.rest.length === 0 ? writtenResource(req) : undefined;
      const body = r && resource(r.name) ? jsonOf(req) as Record<string, unknown> | undefined : undefined;
      if (!r || !body || typeof body !== 'object') return;
      const empties = pathsOf(r.fields, body, (f, v) => f.kind === 'collection' && !!f.required && Array.isArray(v) && v.length === 0);
      if (!empties.length) return;
      const res = await tools.upstream(req);
      const errors = Object.keys((problemOf(res)?.validationErrors ?? {}) as object);
      if (res.status !== 400 || !errors.length || !errors.every((p) => empties.includes(p))) return res;
      const newId = randomUUID().replace(/-/g, '');
      tools.state.set(kept + newId, { id: newId, ...body });
      return { status: 201, headers: { location: `http://${header(req, 'host')}${pathOf(req)}/${newId}` }, body: Buffer.alloc(0) };
    },
  };
}

/** Removes the nullable members sent as null, at any depth; answers whether it removed one. */
function dropNulls(fields: Fields, body: Record<string, unknown>): boolean {
  let changed = false;
  for (const [name, f] of Object.entries(fields)) {
    const v = body[name];
    if (v === null && f.nullable) { delete body[name]; changed = true; } else if (f.kind === 'object' && v && typeof v === 'object') changed = dropNulls(f.fields, v as Record<string, unknown>) || changed;
    else if (f.kind === 'collection' && Array.isArray(v)) for (const x of v) if (x && typeof x === 'object') changed = dropNulls(f.item, x as Record<string, unknown>) || changed;
  }
  return changed;
}

/** The strings of a JSON value with the name of the member holding each (an array item: its array's name) and its depth (top-level members: 1). */
function mapMembers(value: unknown, edit: (s: string, name: string, depth: number) => string, name = '', depth = 0): unknown {
  if (typeof value === 'string') return edit(value, name, depth);
  if (Array.isArray(value)) return value.map((v) => mapMembers(v, edit, name, depth + 1));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapMembers(v, edit, k, depth + 1)]));
  return value;
}

/** Like storesMarkup, with the resource and the member's name to choose by. */
function storesMarkupIn(lets: (resource: string, member: string, s: string) => boolean): Pick<Fault, 'request' | 'response'> {
  return {
    request: (req) => {
      const r = writtenResource(req);
      const body = r ? jsonOf(req) : undefined;
      if (r && body !== undefined) setJson(req, mapMembers(body, (s, name) => (DANGEROUS.test(s) && lets(r.name, name, s) ? hide(s) : s)));
    },
    response: (res, req) => { if (isData(req)) editJson(res, (body) => mapStrings(body, show)); },
  };
}

/** A write-side fault applied to PUTs only, descriptors left out. */
function onPutBeyondDescriptors(fault: Pick<Fault, 'request' | 'response'>): Pick<Fault, 'request' | 'response'> {
  return {
    request: (req, tools) => (req.method === 'PUT' && !writtenResource(req)?.isDescriptor ? fault.request?.(req, tools) : undefined),
    response: fault.response,
  };
}

/** The resources and members the hand-written markup tests write markup into (suites/validation/markup.spec.ts). */
const MARKUP_EXAMPLES = new Set(['academicSubjectDescriptor', 'accountabilityRating', 'assessment', 'course']);
const MARKUP_EXAMPLE_MEMBERS = new Set(['shortDescription', 'description', 'rating', 'title', 'identificationCode']);

export const validationFaults: Fault[] = [
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
  // The sibling of the one-resource int64 test (schoolId on schools): caught by the generated
  // int64.spec.ts only. 4.0's education-organization ids are int32: it runs on a 5.2 or 6.1 target.
  {
    name: 'int64-ids-wrapped-beyond-schools', family: 'data.validation', suites: ['validation/int64.spec.ts'], standards: ['5.2', '6.1'],
    description: 'every resource but schools keeps education-organization ids in a 32-bit column: an id above 2147483647 is read back wrapped to int32 (schools, the seed\'s example, keep it whole)',
    response: (res, req) => {
      const at = isData(req) && req.method === 'GET' && res.status === 200 ? dataPath(req) : undefined;
      if (!at || at.resource === 'schools') return;
      editJson(res, (body) => eachObject(body, (o) => { for (const [k, v] of Object.entries(o)) if (Number.isInteger(v) && (v as number) > 2147483647) o[k] = (v as number) | 0; }));
    },
  },
  // The int64 rule's upper end: ids kept as doubles pass every value up to 2^53 and the int32
  // neighbourhood, and only a value no double holds (int64.spec.ts writes them odd, near the int64
  // maximum) read back by its digits shows the loss.
  {
    name: 'int64-ids-held-as-doubles', family: 'data.validation', suites: ['validation/int64.spec.ts'], standards: ['5.2', '6.1'],
    description: 'integers are kept as doubles: an education-organization id past 2^53 is stored, and read back, as the nearest double',
    request: (req) => {
      if (!dataPath(req) || !isWrite(req) || !/\d{16}/.test(req.body.toString('utf8'))) return;
      editRequestJson(req, () => true); // JSON.parse reads each integer as a double; setJson writes it so
    },
  },
  // Seed courseOffering: the two arrays are populated only where they differ from the course.
  {
    name: 'course-offering-arrays-inherited', family: 'data.validation', suites: ['validation/fields.spec.ts'],
    description: 'a course offering written without offeredGradeLevels or courseLevelCharacteristics gets the course\'s, copied in on write',
    request: async (req, tools) => {
      const at = isData(req) && isWrite(req) ? dataPath(req) : undefined;
      const body = at?.resource === 'courseOfferings' ? jsonOf(req) as Record<string, unknown> | undefined : undefined;
      const course = body?.courseReference as { courseCode?: string; educationOrganizationId?: number } | undefined;
      if (!body || !course?.courseCode) return;
      const path = pathOf(req);
      const url = `${path.slice(0, path.lastIndexOf('/courseOfferings'))}/courses?courseCode=${encodeURIComponent(course.courseCode)}&educationOrganizationId=${course.educationOrganizationId}`;
      const found = jsonOf(await tools.upstream({ ...req, method: 'GET', url, body: Buffer.alloc(0) })) as Record<string, unknown>[] | undefined;
      if (!Array.isArray(found) || !found[0]) return;
      for (const name of ['offeredGradeLevels', 'courseLevelCharacteristics']) {
        if (!(body[name] as unknown[] | undefined)?.length && (found[0][name] as unknown[] | undefined)?.length) body[name] = found[0][name];
      }
      setJson(req, body);
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
  {
    name: 'int32-underflow-clamped', family: 'data.validation', suites: ['validation'],
    description: 'an integer below -2147483648 in an int32 field is clamped to -2147483648 instead of refused (the lower bound unchecked)',
    request: (req) => {
      if (!dataPath(req) || !isWrite(req)) return;
      editRequestJson(req, (b) => {
        let changed = false;
        eachObject(b, (o) => { for (const [k, v] of Object.entries(o)) if (k === 'totalInstructionalTime' && typeof v === 'number' && v < -2147483648) { o[k] = -2147483648; changed = true; } });
        return changed;
      });
    },
  },
  {
    name: 'min-length-not-checked', family: 'data.validation', suites: ['validation'],
    description: 'the minimum length is checked off by one: a string one character short of it is stored (padded) instead of refused (upstream\'s minimum: SHOULD string-minimum-length-400, decision 35)',
    request: (req) => {
      if (!dataPath(req) || !isWrite(req)) return;
      editRequestJson(req, (b) => typeof b.weekIdentifier === 'string' && b.weekIdentifier.length === 4 && Boolean((b.weekIdentifier = b.weekIdentifier.padEnd(5, 'w'))));
    },
  },
  {
    name: 'date-time-accepted-as-date', family: 'data.validation', suites: ['validation'], expect: 'conformant', warns: ['data.validation.invalid-date-400'],
    description: 'a date-time sent where a date is expected is cut down to its date instead of refused (SHOULD invalid-date-400; the MUST date rule holds: a full date comes back)',
    // Date members by the model: a date-time member named *Date (studentAssessment.administrationDate) is left alone.
    ...editsScalars(() => true, (f, v) => (f.kind === 'date' && typeof v === 'string' && /^\d{4}-\d\d-\d\d[T ]/.test(v) ? v.slice(0, 10) : v)),
  },
  {
    name: 'json-look-alike-content-types-accepted', family: 'data.validation', suites: ['validation'],
    description: 'any Content-Type that mentions json (application/jsonx, text/json, application/json-patch+json) is read as application/json',
    request: (req) => {
      const type = header(req, 'content-type');
      if (dataPath(req) && isWrite(req) && type && /json/i.test(type) && !/^application\/json\s*(;|$)/i.test(type) && !/^application\/vnd\./i.test(type)) req.headers['content-type'] = 'application/json';
    },
  },
  {
    name: 'markup-filter-tags-only', family: 'data.validation', suites: ['validation/markup.spec.ts'],
    description: 'a markup filter that refuses only <script and <img: <b>, </p>, <!--, <? and &# are stored',
    ...storesMarkup((s) => !/<(script|img)\b/i.test(s)),
  },
  {
    name: 'markup-nested-unchecked', family: 'data.validation', suites: ['validation/markup.spec.ts'],
    description: 'markup is refused in top-level members only: inside a nested object or a collection item it is stored',
    ...storesMarkup((_s, depth) => depth > 1),
  },
  {
    name: 'json-trailing-comma-accepted', family: 'data.validation', suites: ['validation/body.spec.ts'],
    description: 'a lenient JSON reader: a body with a stray comma before } or ] is read without it and stored',
    request: (req) => {
      if (!notJsonBody(req)) return;
      const mended = req.body.toString('utf8').replace(/,\s*([}\]])/g, '$1');
      try { JSON.parse(mended); req.body = Buffer.from(mended, 'utf8'); } catch { /* broken otherwise: left to the reference */ }
    },
  },
  {
    name: 'not-json-500', family: 'data.validation', suites: ['validation/body.spec.ts'],
    description: 'a write body that is not JSON crashes the reader: 500 instead of 400',
    response: (res, req) => { if (notJsonBody(req) && res.status === 400) Object.assign(res, problem('system')); },
  },
  {
    name: 'date-time-stored-in-date-member', family: 'data.validation', suites: ['validation/fields.spec.ts'],
    description: 'a date-time written to a date member is stored and returned as sent instead of as a date',
    ...storesDateTimes(),
  },
  {
    name: 'duplicate-items-reported-per-item', family: 'data.validation', suites: ['validation/fields.spec.ts'], expect: 'conformant', warns: ['data.validation.duplicate-item-one-error'],
    description: 'a repeated collection item is reported at the item\'s path ($.gradeLevels[2]), not once at the collection\'s',
    response: (res, req) => {
      const p = isData(req) ? problemOf(res) : undefined;
      const errors = p?.validationErrors as Record<string, string[]> | undefined;
      if (!errors) return;
      p!.validationErrors = Object.fromEntries(Object.entries(errors).map(([k, v]) => {
        const n = /The (\d+)\D\D item of .* same identifying values/.exec(v[0] ?? '')?.[1];
        return [n ? `${k}[${Number(n) - 1}]` : k, v];
      }));
      setJson(res, p);
    },
  },
  {
    name: 'boolean-text-refused', family: 'data.validation', suites: ['validation/fields.spec.ts'], expect: 'conformant', warns: ['data.validation.boolean-text-as-boolean'],
    description: 'boolean text "1", "0" and " true " is refused with 400 instead of read as a boolean',
    request: (req) => {
      const b = dataPath(req) && isWrite(req) ? jsonOf(req) as Record<string, unknown> | undefined : undefined;
      const v = b?.officialAttendancePeriod;
      if (typeof v === 'string' && /^\s*(1|0)\s*$|^\s+true\s*$|^true\s+$/i.test(v)) return problem('bad-request:data-validation-failed', { validationErrors: { '$.officialAttendancePeriod': ['officialAttendancePeriod must be a boolean.'] } });
    },
  },
  // Conforming deviations: the seed allows them, so the verdict must stay conformant.
  {
    name: 'markup-in-reference-keys-unresolved', family: 'data.validation', suites: ['validation/markup.spec.ts'], expect: 'conformant', notApplicable: ['data.validation.dangerous-markup-400'],
    description: 'a write whose reference has a text key holding dangerous markup is answered 409 unresolved-reference: the reference is resolved before its text is read, as upstream\'s reference classes do (no record holding markup can exist)',
    request: (req) => {
      const r = writtenResource(req);
      const body = r ? jsonOf(req) : undefined;
      if (!r || !body) return;
      const marked = r.references.some((ref) => objectsAt(body, ref.path).some((o) => ref.fields.some((k) => k.kind === 'string' && typeof o[k.property] === 'string' && DANGEROUS.test(o[k.property] as string))));
      if (marked) return problem('data-conflict:unresolved-reference');
    },
  },
  {
    name: 'json-syntax-errors-bad-request', family: 'data.validation', suites: ['validation/body.spec.ts', 'errors'], expect: 'conformant',
    description: 'every write body that is not JSON is answered 400 bad-request with an errors entry (the seed\'s "body not parseable"), a truncated object too',
    response: (res, req) => { if (notJsonBody(req) && res.status === 400) Object.assign(res, problem('bad-request', { errors: ['The request body is not valid JSON.'] })); },
  },
  {
    name: 'json-syntax-errors-data-validation-failed', family: 'data.validation', suites: ['validation/body.spec.ts', 'errors'], expect: 'conformant',
    description: 'every write body that is not JSON is answered 400 data-validation-failed under validationErrors at $. (DMS), hello too',
    response: (res, req) => { if (notJsonBody(req) && res.status === 400) Object.assign(res, problem('bad-request:data-validation-failed', { validationErrors: { '$.': ['The request body is not valid JSON.'] } })); },
  },
  {
    name: 'week-identifier-min-length-unchecked', family: 'data.validation', suites: ['validation/fields.spec.ts', 'upsert'], expect: 'conformant',
    description: 'a weekIdentifier shorter than upstream\'s minimum of 5 is accepted and stored as sent (the seed gives only string<=80)',
    ...acceptsShortWeekIdentifiers(),
  },
  {
    name: 'date-error-other-wording', family: 'data.validation', suites: ['validation', 'errors'], expect: 'conformant',
    description: 'the validationErrors message of a date member that is not a date reads "<member> must be a full date (yyyy-mm-dd)."',
    ...rewordsValidationMessages(/^The value '.*' is not valid for (\w*Date)\.$/, '$1 must be a full date (yyyy-mm-dd).'),
  },
  // The siblings of the one-member maximum test (issue 21 point 6): caught by the generated
  // lengths.spec.ts only.
  {
    name: 'max-length-truncated-in-collection-items', family: 'data.validation', suites: ['validation'],
    description: 'a string longer than its maximum inside a collection item is silently cut to the maximum and stored (top-level members are still refused)',
    ...editsScalars(() => true, cutsOverMaximum((d) => d === 'item')),
  },
  {
    name: 'max-length-truncated-beyond-the-examples', family: 'data.validation', suites: ['validation'],
    description: 'maximum lengths are enforced on academicWeek and calendar only; every other resource silently cuts an over-long string to its maximum',
    ...editsScalars((name) => name !== 'academicWeek' && name !== 'calendar', cutsOverMaximum(() => true)),
  },
  {
    name: 'max-length-off-by-one-beyond-the-example', family: 'data.limits', suites: ['validation/lengths.spec.ts'],
    description: 'a column one character short: a string of exactly its maximum length is stored without its last character, on every resource but academicWeek (the hand-written test\'s example)',
    ...editsScalars((name) => name !== 'academicWeek', (f, v) => (f.kind === 'string' && f.maxLength && typeof v === 'string' && v.length === f.maxLength ? v.slice(0, -1) : v)),
  },
  {
    name: 'max-length-truncated-on-descriptors', family: 'data.validation', suites: ['validation'],
    description: 'descriptors silently cut any over-long string (namespace, codeValue, shortDescription, description) to its maximum',
    ...editsScalars((name) => name.endsWith('Descriptor'), cutsOverMaximum(() => true)),
  },
  {
    name: 'required-scalars-defaulted', family: 'data.validation', suites: ['validation'],
    description: 'a write body missing a required top-level scalar member (a date, a count, a key string) is stored with a default instead of refused; missing references are still refused',
    ...editsScalars(() => true, defaultsMissing((d) => d === 'top')),
  },
  {
    name: 'required-defaulted-in-collection-items', family: 'data.validation', suites: ['validation'],
    description: 'a collection item missing a required scalar member is stored with a default (top-level members are still checked)',
    ...editsScalars(() => true, defaultsMissing((d) => d === 'item')),
  },
  {
    name: 'required-defaulted-in-nested-objects', family: 'data.validation', suites: ['validation'],
    description: 'a nested object missing a required scalar member is stored with a default, except assessment (the seed\'s example)',
    ...editsScalars((name) => name !== 'assessment', defaultsMissing((d) => d === 'object')),
  },
  {
    name: 'int32-clamped-beyond-the-examples', family: 'data.validation', suites: ['validation'],
    description: 'an int32 value outside the int32 range is clamped to the nearer end and stored, on every resource but academicWeek and bellSchedule (the hand-written tests\' examples)',
    ...editsScalars((name) => name !== 'academicWeek' && name !== 'bellSchedule', clampsInt32),
  },
  // The siblings of the one-member tests of issue 21 points 1, 4 and 6: caught by the generated
  // whitespace.spec.ts, empty-arrays.spec.ts, nullable.spec.ts and markup.spec.ts only.
  {
    name: 'key-whitespace-trimmed-in-collection-items', family: 'data.validation', suites: ['validation/whitespace.spec.ts'],
    description: 'a natural-key string of a collection item or nested object with a space around (an address\'s city, possibleResponses[].responseValue) is trimmed and stored instead of refused; the resource\'s own top-level keys are still refused',
    ...editsScalars(() => true, trimsKeys((d) => d !== 'top')),
  },
  {
    name: 'key-whitespace-trimmed-beyond-the-examples', family: 'data.validation', suites: ['validation/whitespace.spec.ts'],
    description: 'natural-key strings with a space around are refused on academicWeek only (the seed\'s example); every other resource trims them and stores the record',
    ...editsScalars((name) => name !== 'academicWeek', trimsKeys(() => true)),
  },
  {
    name: 'empty-required-arrays-accepted-beyond-the-examples', family: 'data.validation', suites: ['validation/empty-arrays.spec.ts'],
    description: 'a required array with zero items is refused on bellSchedule, course and calendarDate only (the seed\'s examples); on every other resource the record is stored',
    ...acceptsEmptyRequiredArrays((name) => !['bellSchedule', 'course', 'calendarDate'].includes(name)),
  },
  {
    name: 'null-refused-beyond-the-examples', family: 'data.validation', suites: ['validation/nullable.spec.ts'],
    description: 'JSON null in a nullable member is accepted on classPeriod only (the hand-written test\'s example); every other resource refuses it with 400 at its path',
    ...refusesNull((name) => name !== 'classPeriod', () => true),
  },
  {
    name: 'null-refused-in-nested-members', family: 'data.validation', suites: ['validation/nullable.spec.ts'],
    description: 'JSON null is accepted in top-level nullable members only: inside a nested object or a collection item it is refused with 400',
    ...refusesNull(() => true, (d) => d !== 'top'),
  },
  {
    name: 'markup-stored-beyond-the-examples', family: 'data.validation', suites: ['validation/markup.spec.ts'],
    description: 'markup is refused on academicSubjectDescriptor, accountabilityRating, assessment and course only (the hand-written tests\' resources); every other resource stores it',
    ...storesMarkupIn((resource) => !MARKUP_EXAMPLES.has(resource)),
  },
  {
    name: 'markup-checked-on-post-only', family: 'data.validation', suites: ['validation/markup.spec.ts'],
    description: 'markup is refused on POST; a PUT stores it, on every resource but the descriptors (the hand-written PUT test\'s)',
    ...onPutBeyondDescriptors(storesMarkupIn(() => true)),
  },
  {
    name: 'markup-checked-on-the-examples-members-only', family: 'data.validation', suites: ['validation/markup.spec.ts'],
    description: 'markup is refused only in members named as the hand-written tests\' (shortDescription, description, rating, title, identificationCode); any other string member, of any resource, stores it',
    ...storesMarkupIn((_resource, member) => !MARKUP_EXAMPLE_MEMBERS.has(member)),
  },
  // Conforming deviations of the same rules: the generated tests must not ask for more than the seed.
  {
    name: 'null-taken-as-absent', family: 'data.validation', suites: ['validation/nullable.spec.ts'], expect: 'conformant',
    description: 'a nullable member sent as JSON null is stored as if it had been left out (GET does not return it), in every resource and at any depth',
    request: (req) => {
      const r = writtenResource(req);
      if (r) editRequestJson(req, (b) => dropNulls(r.fields, b));
    },
  },
  {
    name: 'key-whitespace-other-wording', family: 'data.validation', suites: ['validation/whitespace.spec.ts', 'errors'], expect: 'conformant',
    description: 'a natural-key string with a space around is refused at its path with the message "<member> must not start or end with a space." instead of upstream\'s "cannot contain leading or trailing spaces."',
    ...rewordsValidationMessages(/^(\S+) cannot contain leading or trailing spaces\.$/, '$1 must not start or end with a space.'),
  },
];
