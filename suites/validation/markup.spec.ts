import { test, expect } from '../_harness/data.js';
import { descriptorBody } from '../_harness/builders.js';
import { expectProblem } from '../_harness/problem.js';
import { rule } from '../_harness/rules.js';

/** Script-injection safeguards (seed Errors; decisions #10). */
const resource = 'academicSubjectDescriptors';

test.describe('dangerous markup', () => {
  test('refuses <script>alert(1)</script> with 400 at the field path', rule('data.validation.dangerous-markup-400'), async ({ api }) => {
    const problem = await expectProblem(await api.post(resource, descriptorBody('academicSubject', { shortDescription: '<script>alert(1)</script>' })), 'bad-request:data-validation-failed');
    expect(Object.keys(problem.validationErrors ?? {})).toContain('$.shortDescription');
  });

  test('refuses markup inside a nested member with 400 at the nested path', rule('data.validation.dangerous-markup-400'), async ({ api, data }) => {
    const body = await data.body('assessment', { contentStandard: { title: '<img src=x onerror=alert(1)>' } });
    const problem = await expectProblem(await api.post('assessments', body), 'bad-request:data-validation-failed');
    expect(Object.keys(problem.validationErrors ?? {})).toContain('$.contentStandard.title');
  });

  test('words the message as "<field> contains a potentially dangerous value."', rule('data.validation.dangerous-value-message-wording'), async ({ api }) => {
    const problem = await expectProblem(await api.post(resource, descriptorBody('academicSubject', { shortDescription: '<script>alert(1)</script>' })), 'bad-request:data-validation-failed');
    expect(problem.validationErrors?.['$.shortDescription']).toEqual(['shortDescription contains a potentially dangerous value.']);
  });

  for (const value of ['x<b>bold', 'x<!-- c -->', 'x</p>', 'x<?php', 'x&#60;']) {
    test(`refuses '${value}' as dangerous markup`, rule('data.validation.dangerous-markup-definition'), async ({ api }) => {
      await expectProblem(await api.post(resource, descriptorBody('academicSubject', { shortDescription: value })), 'bad-request:data-validation-failed');
    });
  }

  for (const value of ['a < b', 'R&D', '5 > 3 & 2 < 4']) {
    test(`accepts '${value}' and stores it unchanged`, rule('data.validation.benign-angle-and-ampersand-accepted'), async ({ api, data }) => {
      const created = await data.newDescriptor('academicSubject', { shortDescription: value });
      expect((await (await api.get(created.url)).json()).shortDescription).toBe(value);
    });
  }
});
