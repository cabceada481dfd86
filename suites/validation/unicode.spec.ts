import { test, expect } from '../_harness/data.js';
import { descriptorBody } from '../_harness/builders.js';
import { expectProblem } from '../_harness/problem.js';
import { rule } from '../_harness/rules.js';

/**
 * Text that cannot be stored as UTF-8 (decisions #28). The bodies are sent as raw JSON text,
 * since the escapes are what a client sends: JSON.stringify would write them the same way.
 */
const resource = 'academicSubjectDescriptors';
/** A descriptor body whose shortDescription is the given JSON string literal's content, verbatim. */
const withShortDescription = (escaped: string) => JSON.stringify(descriptorBody('academicSubject', { shortDescription: 'PLACEHOLDER' })).replace('"PLACEHOLDER"', `"${escaped}"`);

test.describe('strings that cannot be stored as UTF-8', () => {
  for (const [what, escaped] of [['a lone high surrogate', 'x\\uD800y'], ['a lone low surrogate', 'x\\uDC00'], ['a reversed pair', '\\uDC00\\uD800'], ['NUL', 'x\\u0000y']]) {
    test(`refuses ${what} with 400 at the member's path`, rule('data.validation.unstorable-characters-400'), async ({ api }) => {
      const problem = await expectProblem(await api.post(resource, withShortDescription(escaped)), 'bad-request:data-validation-failed');
      expect(Object.keys(problem.validationErrors ?? {})).toContain('$.shortDescription');
    });
  }

  // Text made of nothing but such characters, in an optional member (no blank-text check to refuse it for another reason).
  for (const [what, escaped] of [['NUL alone', '\\u0000'], ['a lone high surrogate alone', '\\uD800']]) {
    test(`refuses ${what} in an optional member with 400 at the member's path`, rule('data.validation.unstorable-characters-400'), async ({ api }) => {
      const body = JSON.stringify(descriptorBody('academicSubject', { description: 'PLACEHOLDER' })).replace('"PLACEHOLDER"', `"${escaped}"`);
      const problem = await expectProblem(await api.post(resource, body), 'bad-request:data-validation-failed');
      expect(Object.keys(problem.validationErrors ?? {})).toContain('$.description');
    });
  }

  test('accepts a well-formed surrogate pair (an emoji) and stores it unchanged', rule('data.validation.unstorable-characters-400'), async ({ api, data }) => {
    const created = await data.newDescriptor('academicSubject', { shortDescription: 'books \u{1F4DA}' });
    expect((await (await api.get(created.url)).json()).shortDescription).toBe('books \u{1F4DA}');
  });
});
