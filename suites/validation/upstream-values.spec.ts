import { test, expect } from '../_harness/data.js';
import { resourceOf } from '../_harness/builders.js';
import { expectProblem } from '../_harness/problem.js';
import { rule } from '../_harness/rules.js';
import { asResponse, raw } from '../_harness/checks.js';

/**
 * Where the seed is silent and both upstream servers agree (decisions #27, #28): numeric text,
 * blank required strings and the data standard's numeric ranges. (The descriptors' codeValue and
 * namespace: suites/descriptors/values.spec.ts, decision 45.)
 */
const paths = (p: { validationErrors?: Record<string, string[]> }) => Object.keys(p.validationErrors ?? {});

test.describe('numeric text in integer and number members', () => {
  test('takes numeric text as the number, in a member and in a reference field, and GET returns numbers', rule('data.validation.numeric-text-as-number'), async ({ api, data }) => {
    const body = await data.body('academicWeek');
    const schoolId = (body.schoolReference as { schoolId: number }).schoolId;
    const res = await api.post('academicWeeks', { ...body, totalInstructionalDays: '5', schoolReference: { schoolId: String(schoolId) } });
    expect(res.status(), await res.text()).toBe(201);
    const read = await (await api.get(res.headers().location)).json() as Record<string, unknown>;
    expect(read.totalInstructionalDays).toBe(5);
    expect((read.schoolReference as { schoolId: unknown }).schoolId).toBe(schoolId);
  });

  test('takes decimal text in a number member as the number', rule('data.validation.numeric-text-as-number'), async ({ api, data }) => {
    const body = await data.body('assessment', { maxRawScore: '12.5' });
    const res = await api.post('assessments', body);
    expect(res.status(), await res.text()).toBe(201);
    expect(((await (await api.get(res.headers().location)).json()) as { maxRawScore: unknown }).maxRawScore).toBe(12.5);
  });

  // Text a number could be written as but no int32 holds (a fraction, past the range), and text
  // no number is written as. Not "1e3": decision #28 takes numeric text as its number, and 1e3 is
  // the integer 1000 (the reference reads it so; a deployment refusing it is not pinned here).
  for (const value of ['5x', '', ' 5', '5.5', '5e-1', '2147483648', 'true']) {
    test(`refuses the text ${JSON.stringify(value)} in an int32 member with 400 at its path`, rule('data.validation.numeric-text-as-number'), async ({ api, data }) => {
      const body = await data.body('academicWeek', { totalInstructionalDays: value });
      expect(paths(await expectProblem(await api.post('academicWeeks', body), 'bad-request:data-validation-failed'))).toContain('$.totalInstructionalDays');
    });
  }

  test('refuses non-numeric text in a reference field with 400 at its path', rule('data.validation.numeric-text-as-number'), async ({ api, data }) => {
    const body = await data.body('academicWeek', { schoolReference: { schoolId: 'school' } });
    expect(paths(await expectProblem(await api.post('academicWeeks', body), 'bad-request:data-validation-failed'))).toContain('$.schoolReference.schoolId');
  });

  // schoolId is int64 from 5.2, int32 in 4.0: past the int64 range is outside either.
  test(`refuses text past the int64 range in an ${resourceOf('academicWeek').queryFields.schoolId.kind} member with 400 at its path`, rule('data.validation.numeric-text-as-number'), async ({ api, data }) => {
    const body = await data.body('academicWeek', { schoolReference: { schoolId: '9223372036854775808' } });
    expect(paths(await expectProblem(await api.post('academicWeeks', body), 'bad-request:data-validation-failed'))).toContain('$.schoolReference.schoolId');
  });
});

test.describe('blank required strings', () => {
  for (const value of ['', ' ', '   ']) {
    test(`refuses the identity string ${JSON.stringify(value)} with "is required and should not be left empty."`, rule('data.validation.required-string-blank-400'), async ({ api, data }) => {
      const body = await data.body('academicWeek', { weekIdentifier: value });
      const problem = await expectProblem(await api.post('academicWeeks', body), 'bad-request:data-validation-failed');
      expect(problem.validationErrors?.['$.weekIdentifier']).toContain('weekIdentifier is required and should not be left empty.');
    });

    test(`refuses the required non-identity string ${JSON.stringify(value)} with "is required and should not be left empty."`, rule('data.validation.required-string-blank-400'), async ({ api, data }) => {
      const body = await data.body('school', { nameOfInstitution: value });
      const problem = await expectProblem(await api.post('schools', body), 'bad-request:data-validation-failed');
      expect(problem.validationErrors?.['$.nameOfInstitution']).toContain('nameOfInstitution is required and should not be left empty.');
    });
  }

  test('accepts a required non-identity string with spaces around a value (only natural keys are trimmed)', rule('data.validation.required-string-blank-400'), async ({ api, data }) => {
    const body = await data.body('school', { nameOfInstitution: ' Grand Bend High School ' });
    const res = await api.post('schools', body);
    expect(res.status(), await res.text()).toBe(201);
  });
});

test.describe('numeric ranges of the data standard', () => {
  // Staff yearsOfPriorProfessionalExperience: decimal(5,2), so -999.99 … 999.99.
  for (const [value, ok] of [[999.99, true], [-999.99, true], [1000, false], [-1000, false], [999.995, false]] as const) {
    test(`${ok ? 'accepts' : 'refuses'} yearsOfPriorProfessionalExperience ${value}`, rule('data.validation.standard-ranges-400'), async ({ api, data }) => {
      const body = await data.body('staff', { yearsOfPriorProfessionalExperience: value });
      const res = await api.post('staffs', body);
      if (ok) expect(res.status(), await res.text()).toBe(201);
      else expect(paths(await expectProblem(res, 'bad-request:data-validation-failed'))).toContain('$.yearsOfPriorProfessionalExperience');
    });
  }

  // Past the largest double, in a member the data standard bounds by no precision (a money
  // amount): no column holds it, and a JSON reader that takes it as Infinity must still refuse
  // it. Written as text: JSON.stringify cannot write it.
  for (const literal of ['1e400', '-1e400']) {
    test(`refuses a discipline incident's incidentCost ${literal}, past the double range, with 400 at its path`, rule('data.validation.standard-ranges-400'), async ({ api, data }) => {
      const text = JSON.stringify(await data.body('disciplineIncident', { incidentCost: 1.5 })).replace('"incidentCost":1.5', `"incidentCost":${literal}`);
      expect(text).toContain(literal);
      const res = asResponse(await raw('POST', api.url('disciplineIncidents'), api.headers({ 'Content-Type': 'application/json' }), text));
      expect(paths(await expectProblem(res, 'bad-request:data-validation-failed'))).toContain('$.incidentCost');
    });
  }

  // fiscalYear: 2020 … 2040 inclusive.
  for (const [value, ok] of [[2020, true], [2040, true], [2019, false], [2041, false]] as const) {
    test(`${ok ? 'accepts' : 'refuses'} a balance sheet dimension's fiscalYear ${value}`, rule('data.validation.standard-ranges-400'), async ({ api, data }) => {
      const body = await data.body('balanceSheetDimension', { fiscalYear: value });
      const res = await api.post('balanceSheetDimensions', body);
      if (ok) expect(res.status(), await res.text()).toBe(201);
      else expect(paths(await expectProblem(res, 'bad-request:data-validation-failed'))).toContain('$.fiscalYear');
    });
  }
});
