import { test, expect } from '../_harness/data.js';
import { messagesOf } from '../_harness/checks.js';
import { newEducationOrganizationId, resourceOf, type Builder } from '../_harness/builders.js';
import { expectProblem } from '../_harness/problem.js';
import { rule } from '../_harness/rules.js';

/** `<thing>Reference` members (seed Conventions, Reference shapes, Errors). */
test.describe('reference objects', () => {
  test('returns a reference as an object holding the key fields of the referenced record', rule('data.references.reference-object-holds-key-fields'), async ({ api, data }) => {
    const calendarDate = await data.create('calendarDate');
    const got = (await (await api.get(calendarDate.url)).json()) as { calendarReference: Record<string, unknown> };
    expect(got.calendarReference).toMatchObject(calendarDate.body.calendarReference as Record<string, unknown>);
    const extra = Object.keys(got.calendarReference).filter((k) => !['calendarCode', 'schoolId', 'schoolYear', 'link'].includes(k));
    expect(extra).toEqual([]);
    if (got.calendarReference.link !== undefined) expect(typeof got.calendarReference.link).toBe('object');
  });

  test('does not store a link object sent by the client', rule('data.references.link-read-only'), async ({ api, data }) => {
    const body = await data.body('academicWeek');
    const link = { rel: 'Elsewhere', href: 'https://attacker.example/not-a-school' };
    const res = await api.post('academicWeeks', { ...body, schoolReference: { ...(body.schoolReference as object), link } });
    expect(res.status()).toBe(201);
    api.track(res.headers().location);
    const got = (await (await api.get(res.headers().location)).json()) as { schoolReference: { link?: { href?: string; rel?: string } } };
    expect(got.schoolReference.link?.href).not.toBe(link.href);
    expect(got.schoolReference.link?.rel).not.toBe(link.rel);
  });

  test('refuses a reference naming no existing record with 409 unresolved-reference', rule('data.references.unresolved-reference-409'), async ({ api, data }) => {
    const body = await data.body('academicWeek', { schoolReference: { schoolId: newEducationOrganizationId() } });
    await expectProblem(await api.post('academicWeeks', body), 'data-conflict:unresolved-reference');
    expect(await (await api.get(`academicWeeks?weekIdentifier=${encodeURIComponent(body.weekIdentifier as string)}`)).json()).toEqual([]);
  });

  test('names the type of the missing referenced item in the detail of the 409', rule('data.references.unresolved-reference-detail-names-type'), async ({ api, data }) => {
    const body = await data.body('academicWeek', { schoolReference: { schoolId: newEducationOrganizationId() } });
    const problem = await expectProblem(await api.post('academicWeeks', body), 'data-conflict:unresolved-reference');
    expect(problem.detail).toMatch(/School/);
  });

  test('words the unresolved-reference message as "The referenced School item does not exist."', rule('data.references.unresolved-reference-message-wording'), async ({ api, data }) => {
    const body = await data.body('academicWeek', { schoolReference: { schoolId: newEducationOrganizationId() } });
    const problem = await expectProblem(await api.post('academicWeeks', body), 'data-conflict:unresolved-reference');
    expect(messagesOf(problem)).toContain('The referenced School item does not exist.');
  });

  test('resolves a reference only when all its key values match one record', rule('data.references.all-key-values-must-match'), async ({ api, data }) => {
    const calendar = await data.create('calendar');
    const ref = calendar.body.schoolYearTypeReference as { schoolYear: number };
    const otherYear = ref.schoolYear >= 2049 ? ref.schoolYear - 1 : ref.schoolYear + 1;
    const body = await data.body('calendarDate', { calendarReference: { calendarCode: calendar.body.calendarCode, schoolId: calendar.keys.schoolId, schoolYear: otherYear } });
    await expectProblem(await api.post('calendarDates', body), 'data-conflict:unresolved-reference');
  });

  test('refuses a reference missing one of its key fields with 400 at $.<x>Reference.<field>', rule('data.references.reference-key-fields-required'), async ({ api, data }) => {
    const calendar = await data.create('calendar');
    const body = await data.body('calendarDate', { calendarReference: { calendarCode: calendar.body.calendarCode, schoolId: calendar.keys.schoolId } });
    const problem = await expectProblem(await api.post('calendarDates', body), 'bad-request:data-validation-failed');
    expect(Object.keys(problem.validationErrors ?? {})).toContain('$.calendarReference.schoolYear');
  });

  test('validates academicWeekReference.weekIdentifier at most 80 characters', rule('data.references.reference-key-field-types'), async ({ api, data }) => {
    const session = await data.body('session');
    const body = { ...session, academicWeeks: [{ academicWeekReference: { weekIdentifier: 'w'.repeat(81), schoolId: (session.schoolReference as { schoolId: number }).schoolId } }] };
    const problem = await expectProblem(await api.post('sessions', body), 'bad-request:data-validation-failed');
    expect(Object.keys(problem.validationErrors ?? {})).toContain('$.academicWeeks[0].academicWeekReference.weekIdentifier');
  });

  test('validates balanceSheetDimensionReference.code at most 16 characters', rule('data.references.reference-key-field-types'), async ({ api, data }) => {
    const account = await data.body('chartOfAccount');
    const body = { ...account, balanceSheetDimensionReference: { code: 'c'.repeat(17), fiscalYear: account.fiscalYear } };
    const problem = await expectProblem(await api.post('chartOfAccounts', body), 'bad-request:data-validation-failed');
    expect(Object.keys(problem.validationErrors ?? {})).toContain('$.balanceSheetDimensionReference.code');
  });

  test('validates a reference key field of the wrong type (schoolId as a string)', rule('data.references.reference-key-field-types'), async ({ api, data }) => {
    const body = await data.body('academicWeek', { schoolReference: { schoolId: 'two' } });
    const problem = await expectProblem(await api.post('academicWeeks', body), 'bad-request:data-validation-failed');
    expect(Object.keys(problem.validationErrors ?? {})).toContain('$.schoolReference.schoolId');
  });

  // The seed's two examples, schoolId and schoolYear, each given differently in two references of
  // an otherwise valid body: the refusal names exactly the paths where that key was given.
  const unifications = [
    { resource: 'courseOffering', key: 'schoolId', reference: 'schoolReference', other: async (data: Builder) => (await data.school()).keys.schoolId },
    { resource: 'sectionAttendanceTakenEvent', key: 'schoolYear', reference: 'calendarDateReference', other: async (_: Builder, given: unknown) => (given as number) >= 2050 ? (given as number) - 1 : (given as number) + 1 },
  ];
  for (const u of unifications) {
    test(`refuses a ${u.resource} giving ${u.key} differently in its references with 400 at exactly the paths where ${u.key} is given`, rule('data.references.key-unification-mismatch-400'), async ({ api, data }) => {
      const r = resourceOf(u.resource);
      const paths = r.equalities.find((e) => e.name === u.key && e.paths.includes(`$.${u.reference}.${u.key}`))?.paths ?? [];
      expect(paths.length, `${u.resource} unifies ${u.key} across several references`).toBeGreaterThan(1);
      const body = await data.body(u.resource);
      const ref = body[u.reference] as Record<string, unknown>;
      const problem = await expectProblem(await api.post(r.endpoint, { ...body, [u.reference]: { ...ref, [u.key]: await u.other(data, ref[u.key]) } }), 'bad-request:data-validation-failed');
      expect(Object.keys(problem.validationErrors ?? {}).sort()).toEqual([...paths].sort());
    });
  }

  test('refuses a studentSchoolAssociation naming a non-existent student with 409 unresolved-reference', rule('data.references.missing-student-in-association-409'), async ({ api, data }) => {
    const body = await data.body('studentSchoolAssociation', { studentReference: { studentUniqueId: 'no-such-student-0001' } });
    await expectProblem(await api.post('studentSchoolAssociations', body), 'data-conflict:unresolved-reference');
  });
});
