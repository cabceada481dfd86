import type { HttpClient, HttpResponse } from '../_harness/http.js';
import { test, expect, target } from '../_harness/data.js';
import { newEducationOrganizationId, resourceOf, type Builder } from '../_harness/builders.js';
import { basic, capability, capabilityUrl, notApplicable, profileMediaType } from '../_harness/capabilities.js';
import { asResponse, raw, unknownId, type RawResponse } from '../_harness/checks.js';
import type { DataClient } from '../_harness/fixtures.js';
import { expectProblem, expectProblemContentType } from '../_harness/problem.js';
import { check, checkNotApplicable, rule } from '../_harness/rules.js';
import registry from '../../spec/errors/problem-types.json' with { type: 'json' };

/** The problem-details body every error response carries (seed Errors; decisions #3–#7). */
interface Ctx { api: DataClient; anon: DataClient; data: Builder; as: (role: string) => DataClient; request: HttpClient }
/** Sends the request that provokes the error, with `h` (a correlation-id header) among its headers. */
type Provoke = (c: Ctx, h: Record<string, string>) => Promise<HttpResponse | RawResponse>;

interface ErrorKind {
  name: string;
  /** The problem type the seed gives the case (`family`: that type or one under it). */
  suffix: string;
  family?: true;
  /**
   * The seed shows no body for the case (404, 500): an empty or non-problem answer is conformant,
   * so only a problem-details body it does send is judged, by the content-type and correlation
   * rules; shape and type are left to their SHOULD rules (not-found-body, system-error-500).
   */
  unshown?: true;
  provoke: Provoke;
}

const JSON_TYPE = { 'Content-Type': 'application/json' };
/** A write the deployment should refuse but accepted is deleted after the test (role clients do this themselves). */
async function tracked(api: DataClient, res: HttpResponse | RawResponse): Promise<HttpResponse | RawResponse> {
  if (res.status() === 201 && res.headers().location) api.track(res.headers().location);
  return res;
}
async function schoolOf(api: DataClient, week: { body: Record<string, unknown> }): Promise<string> {
  const [{ id }] = (await (await api.get(`schools?schoolId=${(week.body.schoolReference as { schoolId: number }).schoolId}`)).json()) as { id: string }[];
  return `schools/${id}`;
}

/**
 * Every kind of error the data API answers: each row of the seed's Errors table (every 401 cause,
 * every 403 the seed names, the 405 of a routing error and of a snapshot write, each 409), the 404
 * of an unknown id and of an unknown path, and a 500. Kinds that need a client or hook the target
 * does not declare are not applicable there. A 413 is left out: the seed names no body limit, a
 * host's may lie far above any body worth sending, and a server that answers before reading the
 * whole body breaks the connection of a proxy still sending it.
 */
const cases: ErrorKind[] = [
  { name: '400 data validation', suffix: 'bad-request:data-validation-failed', provoke: async ({ api, data }, h) => api.post('academicWeeks', await data.body('academicWeek', { weekIdentifier: undefined }), h) },
  // An empty body, not an unparseable one: that may be either bad-request or data-validation-failed (decision 38).
  { name: '400 empty body', suffix: 'bad-request', provoke: ({ api }, h) => raw('POST', api.url('academicWeeks'), api.headers({ ...h, ...JSON_TYPE }), '') },
  { name: '400 UTF-16 body', suffix: 'bad-request', provoke: ({ api }, h) => raw('POST', api.url('academicWeeks'), api.headers({ ...h, 'Content-Type': 'application/json; charset=utf-16' }), Buffer.from('\ufeff{}', 'utf16le')) },
  { name: '400 parameter validation', suffix: 'bad-request:parameter-validation-failed', provoke: ({ api }, h) => api.get('academicWeeks?limit=-1', h) },
  {
    name: '400 key change not supported', suffix: 'bad-request:data-validation-failed:key-change-not-supported',
    provoke: async ({ api, data }, h) => { const c = await data.create('academicWeek'); return api.put(c.url, { ...c.body, weekIdentifier: `${c.body.weekIdentifier as string}x` }, h); },
  },
  {
    name: '400 invalid profile usage', suffix: 'profile:invalid-profile-usage',
    provoke: async ({ as, data }, h) => { const p = capability('profile'); return as('profiled').post(resourceOf(p.resource).endpoint, await data.body(p.resource), { ...h, 'Content-Type': profileMediaType(p.resource, p.name, 'readable') }); },
  },
  {
    name: '400 invalid method usage', suffix: 'profile:invalid-method-usage',
    provoke: async ({ as, data }, h) => { const p = capability('profile'); return as('profiled').post(resourceOf(p.readOnlyResource).endpoint, await data.body(p.readOnlyResource), { ...h, 'Content-Type': profileMediaType(p.readOnlyResource, p.name, 'writable') }); },
  },
  { name: '401 without an Authorization header', suffix: 'security:authentication', provoke: ({ anon }, h) => anon.get('academicWeeks', h) },
  { name: '401 with another scheme than Bearer', suffix: 'security:authentication', provoke: ({ anon }, h) => anon.get('academicWeeks', { ...h, Authorization: `Basic ${Buffer.from('conformance:not-a-secret').toString('base64')}` }) },
  { name: '401 with a blank bearer token', suffix: 'security:authentication', provoke: ({ anon }, h) => anon.get('academicWeeks', { ...h, Authorization: 'Bearer ' }) },
  { name: '401 with an invalid token', suffix: 'security:authentication', provoke: ({ api }, h) => api.get('academicWeeks', { ...h, Authorization: 'Bearer not-a-token' }) },
  {
    name: '403 profile not assigned', suffix: 'security:data-policy:incorrect-usage',
    provoke: ({ api }, h) => { const p = capability('profile'); return api.get(`${resourceOf(p.resource).endpoint}?limit=1`, { ...h, Accept: profileMediaType(p.resource, p.name, 'readable') }); },
  },
  {
    name: '403 namespace mismatch', suffix: 'security:authorization:namespace:access-denied:namespace-mismatch',
    provoke: async ({ as, data }, h) => { capability('namespaceLimited'); return as('namespaceLimited').post('assessments', await data.body('assessment', { educationOrganizationReference: undefined }), h); },
  },
  {
    name: '403 missing relationship', suffix: 'security:authorization', family: true,
    provoke: async ({ as, data }, h) => { capability('schoolLimited'); const student = await data.create('student'); return as('schoolLimited').get(student.url, h); },
  },
  {
    name: '403 resource outside the permission set', suffix: 'security:authorization:access-denied:resource', family: true,
    provoke: ({ as }, h) => { const l = capability('permissionLimits'); return as(l.client).get(`${l.deniedResource}?limit=1`, h); },
  },
  {
    name: '403 action outside the permission set', suffix: 'security:authorization:access-denied:action', family: true,
    provoke: async ({ as, data }, h) => { const l = capability('permissionLimits'); return as(l.client).post(l.readOnlyResource, await data.body(resourceOf(l.readOnlyResource).name), h); },
  },
  { name: '404 unknown id on GET', suffix: 'not-found', unshown: true, provoke: ({ api }, h) => api.get(`academicWeeks/${unknownId()}`, h) },
  { name: '404 unknown id on PUT', suffix: 'not-found', unshown: true, provoke: async ({ api, data }, h) => api.put(`academicWeeks/${unknownId()}`, await data.body('academicWeek'), h) },
  { name: '404 unknown id on DELETE', suffix: 'not-found', unshown: true, provoke: ({ api }, h) => api.delete(`academicWeeks/${unknownId()}`, h) },
  { name: '404 unknown resource path', suffix: 'not-found', unshown: true, provoke: ({ api }, h) => api.get('notAResource', h) },
  { name: '405 PUT on a collection', suffix: 'method-not-allowed', provoke: ({ api }, h) => api.put('academicWeeks', {}, h) },
  { name: '405 DELETE on a collection', suffix: 'method-not-allowed', provoke: ({ api }, h) => api.delete('academicWeeks', h) },
  { name: '405 POST on an item', suffix: 'method-not-allowed', provoke: async ({ api, data }, h) => { const c = await data.create('academicWeek'); return api.post(c.url, c.body, h); } },
  { name: '405 write with Use-Snapshot: true', suffix: 'method-not-allowed', provoke: async ({ api, data }, h) => { const c = await data.create('academicWeek'); return api.put(c.url, c.body, { ...h, 'Use-Snapshot': 'true' }); } },
  { name: '409 unresolved reference', suffix: 'data-conflict:unresolved-reference', provoke: async ({ api, data }, h) => api.post('academicWeeks', await data.body('academicWeek', { schoolReference: { schoolId: newEducationOrganizationId() } }), h) },
  { name: '409 dependent item exists', suffix: 'data-conflict:dependent-item-exists', provoke: async ({ api, data }, h) => api.delete(await schoolOf(api, await data.create('academicWeek')), h) },
  {
    name: '409 non-unique identity', suffix: 'data-conflict:non-unique-identity',
    provoke: async ({ api, data }, h) => {
      const a = await data.create('classPeriod');
      const b = await data.create('classPeriod', { schoolReference: a.body.schoolReference });
      return api.put(b.url, { ...b.body, classPeriodName: a.body.classPeriodName }, h);
    },
  },
  { name: '412 optimistic lock on DELETE', suffix: 'optimistic-lock-failed', provoke: async ({ api, data }, h) => { const c = await data.create('academicWeek'); return api.delete(c.url, { ...h, 'If-Match': '"stale"' }); } },
  { name: '412 optimistic lock on PUT', suffix: 'optimistic-lock-failed', provoke: async ({ api, data }, h) => { const c = await data.create('academicWeek'); return api.put(c.url, c.body, { ...h, 'If-Match': '"stale"' }); } },
  { name: '415 another Content-Type', suffix: 'unsupported-media-type', provoke: async ({ api, data }, h) => tracked(api, await api.post('academicWeeks', await data.body('academicWeek'), { ...h, 'Content-Type': 'text/plain' })) },
  { name: '415 no Content-Type', suffix: 'unsupported-media-type', provoke: async ({ api, data }, h) => tracked(api, await raw('POST', api.url('academicWeeks'), api.headers(h), JSON.stringify(await data.body('academicWeek')))) },
  {
    name: '500 system error', suffix: 'system', unshown: true,
    provoke: ({ api, request }, h) => {
      const trigger = capability('systemErrorTrigger');
      const url = capabilityUrl(trigger.url);
      const headers = { ...(Object.keys(basic(trigger)).length ? basic(trigger) : api.headers()), ...h };
      return trigger.method === 'POST' ? request.post(url, { headers: { ...headers, ...JSON_TYPE }, data: '{}' }) : request.get(url, { headers });
    },
  },
];

const statusOf = (suffix: string) => registry.problemTypes.find((p) => p.suffix === suffix)!.status;
const correlationHeader = () => ({ 'correlation-id': `conformance-${Date.now()}-${Math.random().toString(36).slice(2, 10)}` });

/** The problem body of an answer, if it is one (whatever its Content-Type says). */
function problemIn(text: string): Record<string, unknown> | undefined {
  try {
    const body = JSON.parse(text) as unknown;
    return body && typeof body === 'object' && !Array.isArray(body) && typeof (body as { type?: unknown }).type === 'string' ? (body as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Provokes the kind. Whether the deployment refuses it, and with which status, is the business of
 * the rules about that case (problem-types.spec.ts and each family's suites): here an answer that
 * is no error at all leaves the body rules nothing to judge (not applicable), and so does an
 * unshown kind answered with another status (its title would not say what was judged).
 */
async function provoked(c: ErrorKind, ctx: Ctx, h: Record<string, string> = {}): Promise<{ res: HttpResponse | RawResponse; problem: Record<string, unknown> | undefined }> {
  const res = await c.provoke(ctx, h);
  const text = await res.text();
  if (res.status() < 400) notApplicable(`${c.name}: the deployment answered ${res.status()}, no error (${text.slice(0, 120)})`);
  if (c.unshown && res.status() !== statusOf(c.suffix)) notApplicable(`${c.name}: the deployment answered ${res.status()} (${text.slice(0, 120)})`);
  return { res, problem: problemIn(text) };
}

const CONTENT_TYPE = 'data.errors.content-type-json-utf8';
const SHAPE = 'data.errors.problem-details-shape';
const TYPE = 'data.errors.type-urn-prefix';
const ECHO = 'data.errors.correlation-id-echoed';

test.describe('problem-details bodies', () => {
  /**
   * Every kind of error, one request per rule (decision 34): the content type, the body's shape,
   * its type; the correlation echo (SHOULD) over every kind in one test of its own, below.
   */
  for (const c of cases) {
    test(`serves ${c.name} as application/json; charset=utf-8`, rule(CONTENT_TYPE), async ({ api, anon, data, as, request }) => {
      const { res, problem } = await provoked(c, { api, anon, data, as, request });
      // The rule is about problem-details responses; an error without one is the shape rule's (or, unshown, allowed).
      if (!problem) notApplicable(`${c.name}: answered ${res.status()} without a problem-details body`);
      expectProblemContentType(res);
    });

    if (c.unshown) continue;
    test(`answers ${c.name} with type, title, status, detail and correlationId`, rule(SHAPE), async ({ api, anon, data, as, request }) => {
      const { res, problem } = await provoked(c, { api, anon, data, as, request });
      expect(problem, 'a JSON object with a string type').toBeDefined();
      for (const member of ['type', 'title', 'detail', 'correlationId']) expect(typeof problem![member], member).toBe('string');
      expect(problem!.status).toBe(res.status());
    });

    test(`types ${c.name} as urn:core:api: followed by ${c.family ? 'a type under ' : ''}${c.suffix}`, rule(TYPE), async ({ api, anon, data, as, request }) => {
      const { problem } = await provoked(c, { api, anon, data, as, request });
      const type = String(problem?.type);
      const want = `${target.dataApi.errorTypePrefix}${c.suffix}`;
      if (c.family) expect(type === want || type.startsWith(`${want}:`), `type ${type} is ${want} or under it`).toBe(true);
      else expect(type).toBe(want);
    });
  }

  test('echoes the correlation-id request header as correlationId on every kind of error that has a problem-details body', rule(ECHO), async ({ api, anon, data, as, request }) => {
    const judged: string[] = [];
    const wrong: string[] = [];
    for (const c of cases) {
      const h = correlationHeader();
      const res = await c.provoke({ api, anon, data, as, request }, h);
      const problem = res.status() >= 400 ? problemIn(await res.text()) : undefined;
      // No error, or an error without a problem body (an empty 404, decision 6): nothing to echo in.
      if (!problem) continue;
      judged.push(c.name);
      if (problem.correlationId !== h['correlation-id']) wrong.push(`${c.name} (${res.status()}): correlationId ${JSON.stringify(problem.correlationId)}`);
    }
    if (!judged.length) notApplicable('no kind of error was answered with a problem-details body');
    expect(wrong, `of ${judged.length} kinds of error with a problem body`).toEqual([]);
  });

  test('keys validationErrors by JSON paths ($.field, $.parent.child, $.items[1].field) with arrays of messages', rule('data.errors.validation-errors-json-paths'), async ({ api, data }) => {
    const body = await data.body('course');
    const [first] = body.identificationCodes as Record<string, unknown>[];
    const res = await api.post('courses', { ...body, courseTitle: undefined, educationOrganizationReference: {}, identificationCodes: [first, { courseIdentificationSystemDescriptor: first.courseIdentificationSystemDescriptor }] });
    const problem = await expectProblem(res, 'bad-request:data-validation-failed');
    const errors = problem.validationErrors ?? {};
    expect(Object.keys(errors)).toEqual(expect.arrayContaining(['$.courseTitle', '$.educationOrganizationReference.educationOrganizationId', '$.identificationCodes[1].identificationCode']));
    for (const [path, messages] of Object.entries(errors)) {
      expect(path).toMatch(/^\$(\.[A-Za-z_$][\w$]*|\[\d+\])*$/);
      expect(Array.isArray(messages)).toBe(true);
      for (const m of messages) expect(typeof m).toBe('string');
    }
  });

  test('reports every validation failure of a write in one 400 response', rule('data.errors.all-validation-failures-one-response'), async ({ api, data }) => {
    // Failures the seed's data-validation row lists (too long, too large for int32, missing); an
    // invalid date is upstream's (data.validation.invalid-date-400), so it is not among them.
    const body = await data.body('academicWeek', { weekIdentifier: 'w'.repeat(81), totalInstructionalDays: 2147483648, schoolReference: undefined });
    const problem = await expectProblem(await api.post('academicWeeks', body), 'bad-request:data-validation-failed');
    expect(Object.keys(problem.validationErrors ?? {})).toEqual(expect.arrayContaining(['$.weekIdentifier', '$.totalInstructionalDays', '$.schoolReference']));
  });

  test('reports validation failures of different checks (schema, descriptor) in one response', rule('data.errors.all-validation-failures-one-response'), async ({ api, data }) => {
    // One character past calendarCode's maximum in the judged standard (60; 6.1: 120).
    const calendarCode = resourceOf('calendar').fields.calendarCode;
    const tooLong = (calendarCode?.kind === 'string' ? calendarCode.maxLength ?? 60 : 60) + 1;
    const body = await data.body('calendar', { calendarCode: 'c'.repeat(tooLong), calendarTypeDescriptor: `${target.testData.namespacePrefix}/CalendarTypeDescriptor#NoSuchCode` });
    const problem = await expectProblem(await api.post('calendars', body), 'bad-request:data-validation-failed');
    expect(Object.keys(problem.validationErrors ?? {})).toEqual(expect.arrayContaining(['$.calendarCode', '$.calendarTypeDescriptor']));
  });

  test('sends errors, when present, as an array of strings', rule('data.errors.errors-array-of-strings'), async ({ api, anon }) => {
    // The seed gives errors entries to a 401 and a bad-request; elsewhere errors is optional.
    const provoked: [HttpResponse | RawResponse, string, boolean][] = [
      [await anon.get('academicWeeks'), 'security:authentication', true],
      [await raw('POST', api.url('academicWeeks'), api.headers({ 'Content-Type': 'application/json' }), ''), 'bad-request', true],
      [await api.post('academicWeeks', {}, { 'Content-Type': 'text/plain' }), 'unsupported-media-type', false],
    ];
    for (const [res, suffix, required] of provoked) {
      const problem = await expectProblem(asResponse(res), suffix);
      if (required) expect(problem.errors, suffix).toBeDefined();
      if (problem.errors === undefined) continue;
      expect(Array.isArray(problem.errors), suffix).toBe(true);
      for (const e of problem.errors) expect(typeof e, suffix).toBe('string');
    }
  });

  test('generates a different non-empty correlationId per request without the header', rule('data.errors.correlation-id-generated'), async ({ api }) => {
    const a = await expectProblem(await api.get('academicWeeks?limit=-1'), 'bad-request:parameter-validation-failed');
    const b = await expectProblem(await api.get('academicWeeks?limit=-1'), 'bad-request:parameter-validation-failed');
    expect(a.correlationId.length).toBeGreaterThan(0);
    expect(a.correlationId).not.toBe(b.correlationId);
  });

  test('puts no stack trace, source path or store detail into error responses', rule('data.errors.no-internal-details'), async ({ api, data }) => {
    const leaks = [/\bat .+\(.+:\d+:\d+\)/, /\bat (async )?[\w.<>]+ \(/, /\.(ts|js|cs):\d+/, /node_modules/, /[A-Za-z]:\\|\/(home|usr|work|app|src|var)\//, /\b(SELECT|INSERT|UPDATE|DELETE)\b.+\b(FROM|INTO|SET|WHERE)\b/i, /\b(TypeError|ReferenceError|NullReferenceException|SqlException)\b/];
    const responses = [
      await raw('POST', api.url('academicWeeks'), api.headers({ 'Content-Type': 'application/json' }), '{"weekIdentifier": '),
      await raw('POST', api.url('academicWeeks'), api.headers({ 'Content-Type': 'application/json' }), '\u0000\u0001'),
      await api.post('academicWeeks', await data.body('academicWeek', { schoolReference: { schoolId: 'x'.repeat(5000) } })),
      await api.get('academicWeeks?schoolId=1e999'),
      await api.get('academicWeeks/%00'),
      await api.delete(`academicWeeks/${'f'.repeat(500)}`),
    ];
    for (const res of responses) {
      const text = await res.text();
      for (const leak of leaks) expect(text, `${res.status()} ${res.url()}`).not.toMatch(leak);
    }
  });
});

test.describe('SHOULD wording of problem details', () => {
  test('words the 401 detail "The caller could not be authenticated."', rule('data.errors.detail-wording'), async ({ anon }) => {
    expect((await expectProblem(await anon.get('academicWeeks'), 'security:authentication')).detail).toBe('The caller could not be authenticated.');
  });

  test('words the validation detail "Data validation failed. See \'validationErrors\' for details."', rule('data.errors.detail-wording'), async ({ api, data }) => {
    const problem = await expectProblem(await api.post('academicWeeks', await data.body('academicWeek', { weekIdentifier: undefined })), 'bad-request:data-validation-failed');
    expect(problem.detail).toBe("Data validation failed. See 'validationErrors' for details.");
  });

  test('words the 412 detail "The item has been modified by another user."', rule('data.errors.detail-wording'), async ({ api, data }) => {
    const created = await data.create('academicWeek');
    expect((await expectProblem(await api.delete(created.url, { 'If-Match': '"stale"' }), 'optimistic-lock-failed')).detail).toBe('The item has been modified by another user.');
  });

  test('words the 404 details of an unknown id as upstream does on GET, PUT and DELETE', rule('data.errors.detail-wording'), async ({ api, data }) => {
    const body = await data.body('academicWeek');
    const cases: [string, () => Promise<HttpResponse>, string][] = [
      ['GET', () => api.get(`academicWeeks/${unknownId()}`), 'The specified item could not be found.'],
      ['PUT', () => api.put(`academicWeeks/${unknownId()}`, body), 'Resource to update was not found.'],
      ['DELETE', () => api.delete(`academicWeeks/${unknownId()}`), 'Resource to delete was not found.'],
    ];
    for (const [method, send, wording] of cases) {
      const res = await send();
      // An empty 404 body is conformant (decision 6): there is then no detail to word.
      if (res.status() === 404 && !(await res.text()).trim()) checkNotApplicable('data.errors.detail-wording', `the ${method} 404 detail`, 'the 404 came with an empty body');
      else await check('data.errors.detail-wording', `the ${method} 404 detail`, async () => expect((await expectProblem(res, 'not-found')).detail).toBe(wording));
    }
  });

  test('words the key-change detail as upstream does, naming the resource', rule('data.errors.detail-wording'), async ({ api, data }) => {
    const created = await data.create('academicWeek');
    const problem = await expectProblem(await api.put(created.url, { ...created.body, weekIdentifier: `${created.body.weekIdentifier as string}x` }), 'bad-request:data-validation-failed:key-change-not-supported');
    expect(problem.detail).toBe('Identifying values for the AcademicWeek data cannot be changed. Delete and recreate the item instead.');
  });

  // Upstream names the referencing resource: `... referenced by existing Calendar item(s).`
  // (research: dms-apischema.md, resourceName); the words before it are not fixed here.
  test('words the dependent-item detail as upstream does, naming the referencing resource', rule('data.errors.detail-wording'), async ({ api, data }) => {
    const week = await data.create('academicWeek');
    const [school] = (await (await api.get(`schools?schoolId=${(week.body.schoolReference as { schoolId: number }).schoolId}`)).json()) as { id: string }[];
    const problem = await expectProblem(await api.delete(`schools/${school.id}`), 'data-conflict:dependent-item-exists');
    expect(problem.detail).toMatch(/referenced by existing AcademicWeek item\(s\)\.$/);
  });

  test('words the errors entry for an If-Match mismatch as upstream does, on PUT and DELETE', rule('data.errors.errors-entry-wording'), async ({ api, data }) => {
    const created = await data.create('academicWeek');
    const wording = ["The resource item's etag value does not match what was specified in the 'If-Match' request header indicating that it has been modified by another client since it was last retrieved."];
    expect((await expectProblem(await api.put(created.url, created.body, { 'If-Match': '"stale"' }), 'optimistic-lock-failed')).errors).toEqual(wording);
    expect((await expectProblem(await api.delete(created.url, { 'If-Match': '"stale"' }), 'optimistic-lock-failed')).errors).toEqual(wording);
  });

  // The refusal itself is MUST data.upsert.id-in-post-body-400 (suites/upsert); here only upstream's words.
  test('words the errors entry for an id in a POST body as upstream does', rule('data.errors.errors-entry-wording', 'data.errors.detail-wording'), async ({ api, data }) => {
    const problem = await expectProblem(await api.post('academicWeeks', { ...(await data.body('academicWeek')), id: unknownId() }), 'bad-request:data-validation-failed');
    await check('data.errors.detail-wording', 'the detail reads "The request data was constructed incorrectly."', () => expect(problem.detail).toBe('The request data was constructed incorrectly.'));
    expect(problem.errors).toEqual(["Resource identifiers cannot be assigned by the client. The 'id' property should not be included in the request body."]);
  });

  test('words the errors entry for a missing Content-Type "The \'Content-Type\' header is missing."', rule('data.errors.errors-entry-wording'), async ({ api, data }) => {
    const res = await raw('POST', api.url('academicWeeks'), api.headers(), JSON.stringify(await data.body('academicWeek')));
    expect((await expectProblem(asResponse(res), 'unsupported-media-type')).errors).toEqual(["The 'Content-Type' header is missing."]);
  });

  test('words the errors entry for PATCH "The endpoint of the request does not support the \'PATCH\' method."', rule('data.errors.errors-entry-wording'), async ({ api }) => {
    const res = await api.request.patch(api.url('academicWeeks'), { headers: api.headers({ 'Content-Type': 'application/json' }), data: '{}' });
    expect((await expectProblem(res, 'method-not-allowed')).errors).toEqual(["The endpoint of the request does not support the 'PATCH' method."]);
  });
});
