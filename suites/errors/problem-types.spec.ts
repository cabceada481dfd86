import { test, expect, target } from '../_harness/data.js';
import { basic, capability, capabilityUrl, profileMediaType } from '../_harness/capabilities.js';
import { asResponse, raw, unknownId } from '../_harness/checks.js';
import { newEducationOrganizationId, resourceOf } from '../_harness/builders.js';
import { expectProblem } from '../_harness/problem.js';
import { rule } from '../_harness/rules.js';

/**
 * One test per row of the seed's Errors table: the status, the `urn:core:api:` type and the
 * title of each case (expectProblem checks all three and the problem-details shape).
 */

test.describe('problem types of the Errors table', () => {
  // The seed's bad-request causes without an alternative: a body that is not JSON may also be
  // data-validation-failed (decision 38), an empty or UTF-16 body may not.
  for (const [what, contentType, body] of [['an empty body', 'application/json', ''], ['a UTF-16 body', 'application/json; charset=utf-16', Buffer.from('\ufeff{}', 'utf16le')]] as const) {
    test(`answers ${what} with 400 bad-request, a detail referring to errors and a non-empty errors array`, rule('data.errors.bad-request-type'), async ({ api }) => {
      const res = await raw('POST', api.url('academicWeeks'), api.headers({ 'Content-Type': contentType }), body);
      const problem = await expectProblem(asResponse(res), 'bad-request');
      expect(problem.detail).toMatch(/errors/);
      expect(problem.errors?.length ?? 0).toBeGreaterThan(0);
    });
  }

  test('answers a data validation failure with 400 bad-request:data-validation-failed', rule('data.errors.data-validation-failed-type'), async ({ api, data }) => {
    // A missing required property: a cause the seed's data-validation row lists by name.
    await expectProblem(await api.post('academicWeeks', await data.body('academicWeek', { totalInstructionalDays: undefined })), 'bad-request:data-validation-failed');
  });

  test('answers a refused key change with 400 bad-request:data-validation-failed:key-change-not-supported', rule('data.errors.key-change-not-supported-type'), async ({ api, data }) => {
    const created = await data.create('academicWeek');
    await expectProblem(await api.put(created.url, { ...created.body, weekIdentifier: `${created.body.weekIdentifier as string}x` }), 'bad-request:data-validation-failed:key-change-not-supported');
  });

  test('answers an out-of-range query parameter with 400 bad-request:parameter-validation-failed', rule('data.errors.parameter-validation-failed-type'), async ({ api }) => {
    await expectProblem(await api.get(`academicWeeks?limit=${target.dataApi.pageSizeMaximum + 1}`), 'bad-request:parameter-validation-failed');
  });

  test('answers a readable profile type on POST with 400 profile:invalid-profile-usage', rule('data.errors.invalid-profile-usage-type'), async ({ as, data }) => {
    const p = capability('profile');
    const client = as('profiled');
    const res = await client.post(resourceOf(p.resource).endpoint, await data.body(p.resource), { 'Content-Type': profileMediaType(p.resource, p.name, 'readable') });
    await expectProblem(res, 'profile:invalid-profile-usage');
  });

  test('answers profile method misuse with 400 profile:invalid-method-usage', rule('data.errors.invalid-method-usage-type'), async ({ as, data }) => {
    const p = capability('profile');
    const client = as('profiled');
    const res = await client.post(resourceOf(p.readOnlyResource).endpoint, await data.body(p.readOnlyResource), { 'Content-Type': profileMediaType(p.readOnlyResource, p.name, 'writable') });
    await expectProblem(res, 'profile:invalid-method-usage');
  });

  test('answers a failed authentication with 401 security:authentication and an errors entry', rule('data.errors.authentication-failed-type'), async ({ anon }) => {
    const problem = await expectProblem(await anon.get('academicWeeks'), 'security:authentication');
    expect(problem.errors?.length ?? 0).toBeGreaterThan(0);
  });

  test('answers a profile type not assigned to the caller with 403 security:data-policy:incorrect-usage', rule('data.errors.incorrect-usage-type'), async ({ api }) => {
    const p = capability('profile');
    await expectProblem(await api.get(`${resourceOf(p.resource).endpoint}?limit=1`, { Accept: profileMediaType(p.resource, p.name, 'readable') }), 'security:data-policy:incorrect-usage');
  });

  test('answers a namespace mismatch with 403 security:authorization:namespace:access-denied:namespace-mismatch', rule('data.errors.namespace-mismatch-type'), async ({ as, data }) => {
    capability('namespaceLimited');
    const body = await data.body('assessment', { educationOrganizationReference: undefined });
    await expectProblem(await as('namespaceLimited').post('assessments', body), 'security:authorization:namespace:access-denied:namespace-mismatch');
  });

  test('answers a missing relationship with 403 security:authorization and title Authorization Denied', rule('data.errors.authorization-denied-type'), async ({ as, data }) => {
    capability('schoolLimited');
    const student = await data.create('student');
    const res = await as('schoolLimited').get(student.url);
    expect(res.status()).toBe(403);
    const problem = (await res.json()) as { type: string; title: string };
    expect(problem.type === `${target.dataApi.errorTypePrefix}security:authorization` || problem.type.startsWith(`${target.dataApi.errorTypePrefix}security:authorization:`)).toBe(true);
    expect(problem.title).toBe('Authorization Denied');
  });

  test('answers an unsupported method with 405 method-not-allowed', rule('data.errors.method-not-allowed-type'), async ({ api }) => {
    await expectProblem(await api.delete('academicWeeks'), 'method-not-allowed');
  });

  test('answers a blocked delete with 409 data-conflict:dependent-item-exists', rule('data.errors.dependent-item-exists-type'), async ({ api, data }) => {
    const week = await data.create('academicWeek');
    const [{ id }] = (await (await api.get(`schools?schoolId=${(week.body.schoolReference as { schoolId: number }).schoolId}`)).json()) as { id: string }[];
    await expectProblem(await api.delete(`schools/${id}`), 'data-conflict:dependent-item-exists');
  });

  test('answers an unresolved reference with 409 data-conflict:unresolved-reference', rule('data.errors.unresolved-reference-type'), async ({ api, data }) => {
    await expectProblem(await api.post('academicWeeks', await data.body('academicWeek', { schoolReference: { schoolId: newEducationOrganizationId() } })), 'data-conflict:unresolved-reference');
  });

  test('answers a duplicate natural key with 409 data-conflict:non-unique-identity and an errors entry naming it', rule('data.errors.non-unique-identity-type'), async ({ api, data }) => {
    const a = await data.create('classPeriod');
    const b = await data.create('classPeriod', { schoolReference: a.body.schoolReference });
    const problem = await expectProblem(await api.put(b.url, { ...b.body, classPeriodName: a.body.classPeriodName }), 'data-conflict:non-unique-identity');
    // "errors names the duplicate key": by its value or by its member's name.
    const said = (problem.errors ?? []).join(' ');
    expect(said.includes(a.body.classPeriodName as string) || /classPeriodName/i.test(said), said).toBe(true);
  });

  test('answers an If-Match mismatch with 412 optimistic-lock-failed', rule('data.errors.optimistic-lock-failed-type'), async ({ api, data }) => {
    const created = await data.create('academicWeek');
    await expectProblem(await api.delete(created.url, { 'If-Match': '"not-the-etag"' }), 'optimistic-lock-failed');
  });

  test('answers a missing Content-Type with 415 unsupported-media-type', rule('data.errors.unsupported-media-type-type'), async ({ api, data }) => {
    const res = await raw('POST', api.url('academicWeeks'), api.headers(), JSON.stringify(await data.body('academicWeek')));
    await expectProblem(asResponse(res), 'unsupported-media-type');
  });

  test('answers a 404 with a not-found problem or an empty body', rule('data.errors.not-found-body'), async ({ api }) => {
    const res = await api.get(`academicWeeks/${unknownId()}`);
    expect(res.status()).toBe(404);
    if ((await res.text()).trim()) {
      const problem = await expectProblem(res, 'not-found');
      expect(problem.detail).toMatch(/^The specified (data|item) could not be found\.$/);
    }
  });

  test('answers a server error with 500 system and the fixed detail', rule('data.errors.system-error-500'), async ({ api, request }) => {
    const trigger = capability('systemErrorTrigger');
    const url = capabilityUrl(trigger.url);
    const headers = Object.keys(basic(trigger)).length ? basic(trigger) : api.headers();
    const res = trigger.method === 'POST' ? await request.post(url, { headers: { ...headers, 'Content-Type': 'application/json' }, data: '{}' }) : await request.get(url, { headers });
    const problem = await expectProblem(res, 'system');
    expect(problem.detail).toBe('An unexpected problem has occurred.');
  });
});
