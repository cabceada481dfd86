import { test, expect, target } from '../_harness/data.js';
import { capability } from '../_harness/capabilities.js';
import { asResponse, raw, unknownId } from '../_harness/checks.js';
import { newEducationOrganizationId } from '../_harness/builders.js';
import { expectProblem } from '../_harness/problem.js';
import { rule } from '../_harness/rules.js';

/**
 * Which error wins when a request has several faults (decisions #11): authentication, route,
 * id format, method, content type, body parse, validation, authorization, references, identity,
 * If-Match; on DELETE, If-Match before dependents (decisions #46).
 */
test.describe('order of checks', () => {
  test('answers 401 to an unauthenticated request for an unknown path', rule('data.errors.order-authentication-first'), async ({ anon }) => {
    await expectProblem(await anon.get('notAResource/abc'), 'security:authentication');
  });

  test('answers 401 to an unauthenticated write with an invalid body', rule('data.errors.order-authentication-first'), async ({ anon }) => {
    await expectProblem(await anon.post('academicWeeks', { weekIdentifier: 'w'.repeat(81) }), 'security:authentication');
  });

  test('answers 404 to an unknown resource path even when its id segment is malformed', rule('data.errors.order-route-before-id-format'), async ({ api }) => {
    const res = await api.get('notAResource/not-an-id');
    expect(res.status()).toBe(404);
    if ((await res.text()).trim()) await expectProblem(res, 'not-found');
  });

  for (const method of ['GET', 'PUT', 'DELETE', 'POST', 'PATCH', 'HEAD', 'OPTIONS']) {
    test(`answers 400, not 405 or 404, to ${method} on an item whose id is malformed`, rule('data.errors.order-id-format-before-method'), async ({ api }) => {
      const res = asResponse(await raw(method, api.url('academicWeeks/not-an-id'), api.headers({ 'Content-Type': 'application/json' }), ['PUT', 'POST', 'PATCH'].includes(method) ? '{}' : undefined));
      expect(res.status(), method).toBe(400);
      if (method !== 'HEAD') await expectProblem(res, 'bad-request:data-validation-failed');
    });
  }

  test('answers 400, never 5xx, to ids next to the id format on GET, PUT and DELETE', rule('data.errors.order-id-format-before-method', 'data.put.malformed-id-400'), async ({ api }) => {
    // The neighbours of a GUID: one digit short or over, a non-hex digit, a lone brace, misplaced dashes.
    const hex = 'ab'.repeat(16);
    const nearMisses = [hex.slice(1), `${hex}a`, `${hex.slice(1)}g`, `{${hex}`, `${hex.slice(0, 7)}-${hex.slice(7, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`];
    for (const id of nearMisses) {
      for (const method of ['GET', 'PUT', 'DELETE']) {
        const res = asResponse(await raw(method, api.url(`academicWeeks/${encodeURIComponent(id)}`), api.headers({ 'Content-Type': 'application/json' }), method === 'PUT' ? '{}' : undefined));
        expect(res.status(), `${method} ${id}`).toBe(400);
        await expectProblem(res, 'bad-request:data-validation-failed');
      }
    }
  });

  test('answers 404, not 412, to a DELETE of an unknown id with an If-Match', rule('data.errors.order-if-match-before-dependents'), async ({ api }) => {
    expect((await api.delete(`academicWeeks/${unknownId()}`, { 'If-Match': '"not-the-etag"' })).status()).toBe(404);
  });

  test('answers 412, not 409, to a DELETE with a stale If-Match of a record another references, and 409 with the current one', rule('data.errors.order-if-match-before-dependents'), async ({ api, data }) => {
    const school = await data.school();
    await data.create('academicWeek', { schoolReference: { schoolId: school.keys.schoolId } });
    const etag = ((await (await api.get(school.url)).json()) as { _etag: string })._etag;
    await expectProblem(await api.delete(school.url, { 'If-Match': `${etag}-stale` }), 'optimistic-lock-failed');
    await expectProblem(await api.delete(school.url, { 'If-Match': etag }), 'data-conflict:dependent-item-exists');
    expect((await api.get(school.url)).status()).toBe(200);
  });

  test('answers 405, not 415, to an unsupported method without Content-Type', rule('data.errors.order-method-before-content-type'), async ({ api }) => {
    await expectProblem(asResponse(await raw('PUT', api.url('academicWeeks'), api.headers(), '{}')), 'method-not-allowed');
  });

  test('answers 405, not 415, to an unsupported method with a wrong Content-Type', rule('data.errors.order-method-before-content-type'), async ({ api }) => {
    await expectProblem(asResponse(await raw('PATCH', api.url('academicWeeks'), api.headers({ 'Content-Type': 'text/plain' }), 'hello')), 'method-not-allowed');
  });

  test('answers 415, not 400, to a write with a wrong Content-Type and an unparseable body', rule('data.errors.order-content-type-before-parse'), async ({ api }) => {
    await expectProblem(asResponse(await raw('POST', api.url('academicWeeks'), api.headers({ 'Content-Type': 'text/plain' }), 'hello')), 'unsupported-media-type');
  });

  test('answers 400, not 403, to a write that fails validation and would fail on namespace', rule('data.errors.order-validation-before-authorization'), async ({ as, data }) => {
    capability('namespaceLimited');
    const body = await data.body('assessment', { educationOrganizationReference: undefined, assessmentTitle: undefined });
    await expectProblem(await as('namespaceLimited').post('assessments', body), 'bad-request:data-validation-failed');
  });

  test('answers 400, not 403, to a write with a non-existent descriptor that would fail on namespace', rule('data.errors.order-validation-before-authorization'), async ({ as, data }) => {
    capability('namespaceLimited');
    const body = await data.body('assessment', { educationOrganizationReference: undefined, assessmentCategoryDescriptor: `${target.testData.namespacePrefix}/AssessmentCategoryDescriptor#NoSuchCode` });
    await expectProblem(await as('namespaceLimited').post('assessments', body), 'bad-request:data-validation-failed');
  });

  test('answers 403, not 409, to a write that fails authorization and has an unresolved reference', rule('data.errors.order-authorization-before-references'), async ({ as, data }) => {
    capability('namespaceLimited');
    const body = await data.body('assessment', { educationOrganizationReference: { educationOrganizationId: newEducationOrganizationId() } });
    const res = await as('namespaceLimited').post('assessments', body);
    expect(res.status()).toBe(403);
  });

  test('answers 409 unresolved-reference, not non-unique-identity, to a write with both faults', rule('data.errors.order-references-before-identity'), async ({ api, data }) => {
    const lea = await data.create('localEducationAgency');
    const body = await data.body('school', { schoolId: lea.keys.localEducationAgencyId, localEducationAgencyReference: { localEducationAgencyId: newEducationOrganizationId() } });
    await expectProblem(await api.post('schools', body), 'data-conflict:unresolved-reference');
  });

  test('answers 409, not 412, to a PUT with an unresolved reference and a mismatching If-Match', rule('data.errors.order-conflicts-before-if-match'), async ({ api, data }) => {
    const created = await data.create('academicWeek');
    const res = await api.put(created.url, { ...created.body, schoolReference: { schoolId: newEducationOrganizationId() } }, { 'If-Match': '"stale"' });
    expect(res.status()).toBe(409);
  });

  test('answers 409, not 412, to a PUT with a duplicate identity and a mismatching If-Match', rule('data.errors.order-conflicts-before-if-match'), async ({ api, data }) => {
    const a = await data.create('classPeriod');
    const b = await data.create('classPeriod', { schoolReference: a.body.schoolReference });
    const res = await api.put(b.url, { ...b.body, classPeriodName: a.body.classPeriodName }, { 'If-Match': '"stale"' });
    expect(res.status()).toBe(409);
  });
});
