import { test, expect, target } from '../_harness/data.js';
import { newEducationOrganizationId, type Builder } from '../_harness/builders.js';
import { asResponse, raw, unknownId, type RawResponse } from '../_harness/checks.js';
import type { DataClient } from '../_harness/fixtures.js';
import { expectProblem } from '../_harness/problem.js';
import { check, checkNotApplicable, rule } from '../_harness/rules.js';
import type { APIResponse } from '@playwright/test';

/** The problem-details body every error response carries (seed Errors; decisions #3–#7). */
type Provoke = (api: DataClient, data: Builder) => Promise<APIResponse | RawResponse>;

/** One way to provoke each error status the data API answers, with the problem type it must carry. */
const cases: { name: string; suffix: string; provoke: Provoke }[] = [
  { name: '400 data validation', suffix: 'bad-request:data-validation-failed', provoke: async (api, data) => api.post('academicWeeks', await data.body('academicWeek', { weekIdentifier: undefined })) },
  // An empty body, not an unparseable one: that may be either bad-request or data-validation-failed (decision 38).
  { name: '400 empty body', suffix: 'bad-request', provoke: (api) => raw('POST', api.url('academicWeeks'), api.headers({ 'Content-Type': 'application/json' }), '') },
  { name: '400 parameter validation', suffix: 'bad-request:parameter-validation-failed', provoke: (api) => api.get('academicWeeks?limit=-1') },
  { name: '401 authentication', suffix: 'security:authentication', provoke: (api) => api.get('academicWeeks', { Authorization: 'Bearer not-a-token' }) },
  { name: '405 method not allowed', suffix: 'method-not-allowed', provoke: (api) => api.put('academicWeeks', {}) },
  { name: '409 unresolved reference', suffix: 'data-conflict:unresolved-reference', provoke: async (api, data) => api.post('academicWeeks', await data.body('academicWeek', { schoolReference: { schoolId: newEducationOrganizationId() } })) },
  { name: '412 optimistic lock', suffix: 'optimistic-lock-failed', provoke: async (api, data) => { const c = await data.create('academicWeek'); return api.delete(c.url, { 'If-Match': '"stale"' }); } },
  { name: '415 unsupported media type', suffix: 'unsupported-media-type', provoke: (api) => api.post('academicWeeks', {}, { 'Content-Type': 'text/plain' }) },
];

test.describe('problem-details bodies', () => {
  for (const c of cases) {
    test(`answers ${c.name} with type, title, status, detail and correlationId`, rule('data.errors.problem-details-shape', 'data.errors.type-urn-prefix'), async ({ api, data }) => {
      const res = await c.provoke(api, data);
      const body = JSON.parse(await res.text()) as Record<string, unknown>;
      for (const member of ['type', 'title', 'detail', 'correlationId']) expect(typeof body[member], member).toBe('string');
      expect(body.status).toBe(res.status());
    });

    test(`types ${c.name} as urn:core:api: followed by its suffix`, rule('data.errors.type-urn-prefix'), async ({ api, data }) => {
      const res = await c.provoke(api, data);
      expect(((await res.json()) as { type: string }).type).toBe(`${target.dataApi.errorTypePrefix}${c.suffix}`);
    });

    test(`serves ${c.name} as application/json; charset=utf-8`, rule('data.errors.content-type-json-utf8'), async ({ api, data }) => {
      const res = await c.provoke(api, data);
      expect((res.headers()['content-type'] ?? '').toLowerCase().replace(/\s+/g, '')).toBe('application/json;charset=utf-8');
    });
  }

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
    const body = await data.body('calendar', { calendarCode: 'c'.repeat(61), calendarTypeDescriptor: `${target.testData.namespacePrefix}/CalendarTypeDescriptor#NoSuchCode` });
    const problem = await expectProblem(await api.post('calendars', body), 'bad-request:data-validation-failed');
    expect(Object.keys(problem.validationErrors ?? {})).toEqual(expect.arrayContaining(['$.calendarCode', '$.calendarTypeDescriptor']));
  });

  test('sends errors, when present, as an array of strings', rule('data.errors.errors-array-of-strings'), async ({ api, anon }) => {
    // The seed gives errors entries to a 401 and a bad-request; elsewhere errors is optional.
    const provoked: [APIResponse | RawResponse, string, boolean][] = [
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

  test('echoes the correlation-id request header as correlationId', rule('data.errors.correlation-id-echoed'), async ({ api, data }) => {
    // An error the seed shows a problem body for: a 404's body may be empty (decision 6).
    const id = `conformance-${Date.now()}`;
    const body = await data.body('academicWeek', { weekIdentifier: undefined });
    const problem = await expectProblem(await api.post('academicWeeks', body, { 'correlation-id': id }), 'bad-request:data-validation-failed');
    expect(problem.correlationId).toBe(id);
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
    const cases: [string, () => Promise<APIResponse>, string][] = [
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
