import { test, expect } from '../_harness/fixtures.js';
import { expectProblem } from '../_harness/problem.js';
import { rule } from '../_harness/rules.js';
import { BLANK, INVALID, MISSING, RESOURCE as resource, UNKNOWN_SCHEME, type Cause } from './_support/causes.js';
import { issuerSignedExpired } from './_support/expiry.js';

/**
 * The errors entry of each 401 cause in upstream's words (research/ods-server-details.md §3):
 * SHOULD only. The seed asks for an entry that names the cause, not for these sentences
 * (decision 35), so these tests name no MUST rule: bearer.spec.ts checks the content.
 */
const WORDING = 'data.authentication.errors-entry-wording';
const UPSTREAM: [Cause, string][] = [
  [MISSING, 'Authorization header is missing.'],
  [UNKNOWN_SCHEME, 'Unknown Authorization header scheme.'],
  [BLANK, 'Missing Authorization header bearer token value.'],
  [INVALID, 'Invalid token'],
];

test.describe('401 errors entries in upstream\'s words', () => {
  for (const [cause, words] of UPSTREAM) {
    test(`words the entry for ${cause.name} "${words}"`, rule(WORDING), async ({ anon }) => {
      const body = await expectProblem(await anon.get(resource, cause.headers), 'security:authentication');
      expect(body.errors).toEqual([words]);
    });
  }

  test('words the entry for an expired token "Invalid token", as for any token it does not accept', rule(WORDING), async ({ anon }) => {
    const expired = await issuerSignedExpired();
    const body = await expectProblem(await anon.get(resource, { Authorization: `Bearer ${expired}` }), 'security:authentication');
    expect(body.errors).toEqual(['Invalid token']);
  });
});
