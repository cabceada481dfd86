import { test, expect, target } from '../_harness/fixtures.js';
import { expectProblem } from '../_harness/problem.js';
import { rule } from '../_harness/rules.js';
import { credentials } from '../_harness/target.js';

/** The errors entry of each 401 cause, in upstream words; and a fresh token after a refused one. */
const resource = 'academicSubjectDescriptors';

test.describe('401 errors entries', () => {
  test('names an unknown scheme "Unknown Authorization header scheme."', rule('data.authentication.errors-entry-wording', 'data.authentication.non-bearer-scheme-401'), async ({ anon }) => {
    const body = await expectProblem(await anon.get(resource, { Authorization: 'Basic YTpi' }), 'security:authentication');
    expect(body.errors).toEqual(['Unknown Authorization header scheme.']);
  });

  test('names a blank token "Missing Authorization header bearer token value."', rule('data.authentication.errors-entry-wording', 'data.authentication.blank-bearer-token-401'), async ({ anon }) => {
    const body = await expectProblem(await anon.get(resource, { Authorization: 'Bearer ' }), 'security:authentication');
    expect(body.errors).toEqual(['Missing Authorization header bearer token value.']);
  });

  test('names an unknown token "Invalid token"', rule('data.authentication.errors-entry-wording', 'data.authentication.invalid-token-401'), async ({ anon }) => {
    const body = await expectProblem(await anon.get(resource, { Authorization: 'Bearer not-a-real-token-0123456789' }), 'security:authentication');
    expect(body.errors).toEqual(['Invalid token']);
  });
});

test.describe('a refused token and a new one', () => {
  test('accepts a newly obtained token on the request a bad token was refused on', rule('data.authentication.expired-token-401', 'data.authentication.valid-token-accepted'), async ({ anon, request }) => {
    expect((await anon.get(`${resource}?limit=1`, { Authorization: 'Bearer not-a-real-token-0123456789' })).status()).toBe(401);
    const creds = credentials(target.clients.primary)!;
    const res = await request.post(`${target.dataApi.baseUrl}/oauth/token`, {
      headers: { Authorization: `Basic ${Buffer.from(`${creds.key}:${creds.secret}`).toString('base64')}`, 'Content-Type': 'application/x-www-form-urlencoded' },
      data: 'grant_type=client_credentials',
    });
    expect(res.status()).toBe(200);
    const { access_token } = (await res.json()) as { access_token: string };
    expect((await anon.get(`${resource}?limit=1`, { Authorization: `Bearer ${access_token}` })).status()).toBe(200);
  });
});
