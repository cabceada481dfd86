import { test, expect, target } from '../_harness/fixtures.js';
import { rule } from '../_harness/rules.js';
import { credentials } from '../_harness/target.js';

/**
 * POST {base_url}/oauth/token. Each test asks for one token at most (a stock upstream endpoint
 * refuses more than 15 live tokens per client).
 */
const tokenUrl = `${target.dataApi.baseUrl}/oauth/token`;
const primary = credentials(target.clients.primary)!;
const basic = (key: string, secret: string) => `Basic ${Buffer.from(`${key}:${secret}`).toString('base64')}`;
const form = { 'Content-Type': 'application/x-www-form-urlencoded' };

test.describe('POST /oauth/token', () => {
  test('issues a bearer token for valid client credentials in a Basic header', rule('data.token.client-credentials-basic-200', 'data.token.endpoint-path', 'data.token.response-shape'), async ({ request }) => {
    const res = await request.post(tokenUrl, { headers: { ...form, Authorization: basic(primary.key, primary.secret) }, data: 'grant_type=client_credentials' });
    expect(res.status()).toBe(200);
    const body = await res.json();
    expect(typeof body.access_token).toBe('string');
    expect(body.access_token.length).toBeGreaterThan(0);
    expect(Number.isInteger(body.expires_in)).toBe(true);
    expect(body.token_type).toBe('bearer');
  });

  test('reports the default lifetime of 1800 seconds in expires_in', rule('data.token.expires-in-default-1800'), async ({ request }) => {
    const res = await request.post(tokenUrl, { headers: { ...form, Authorization: basic(primary.key, primary.secret) }, data: 'grant_type=client_credentials' });
    expect(res.status()).toBe(200);
    expect((await res.json()).expires_in).toBe(1800);
  });

  test('refuses a wrong secret with 401 invalid_client', rule('data.token.invalid-client-401'), async ({ request }) => {
    const res = await request.post(tokenUrl, { headers: { ...form, Authorization: basic(primary.key, `${primary.secret}-wrong`) }, data: 'grant_type=client_credentials' });
    expect(res.status()).toBe(401);
    expect(await res.json()).toMatchObject({ error: 'invalid_client' });
  });

  test('refuses an unknown client key with 401 invalid_client', rule('data.token.invalid-client-401'), async ({ request }) => {
    const res = await request.post(tokenUrl, { headers: { ...form, Authorization: basic(`no-such-client-${Date.now()}`, 'whatever') }, data: 'grant_type=client_credentials' });
    expect(res.status()).toBe(401);
    expect(await res.json()).toMatchObject({ error: 'invalid_client' });
  });

  test('refuses a request with no credentials at all', rule('data.token.invalid-request'), async ({ request }) => {
    const res = await request.post(tokenUrl, { headers: form, data: 'grant_type=client_credentials' });
    expect([400, 401]).toContain(res.status());
    expect(await res.json()).toMatchObject({ error: 'invalid_request' });
  });

  test('refuses a Basic credential that is not base64 with 400 invalid_request', rule('data.token.invalid-request'), async ({ request }) => {
    const res = await request.post(tokenUrl, { headers: { ...form, Authorization: 'Basic ***not-base64***' }, data: 'grant_type=client_credentials' });
    expect(res.status()).toBe(400);
    expect(await res.json()).toMatchObject({ error: 'invalid_request' });
  });

  test('refuses a grant type other than client_credentials with 400 unsupported_grant_type', rule('data.token.unsupported-grant-type-400'), async ({ request }) => {
    const res = await request.post(tokenUrl, { headers: { ...form, Authorization: basic(primary.key, primary.secret) }, data: 'grant_type=password' });
    expect(res.status()).toBe(400);
    expect(await res.json()).toMatchObject({ error: 'unsupported_grant_type' });
  });

  test('refuses a missing grant type with 400 unsupported_grant_type', rule('data.token.unsupported-grant-type-400'), async ({ request }) => {
    const res = await request.post(tokenUrl, { headers: { ...form, Authorization: basic(primary.key, primary.secret) }, data: 'scope=' });
    expect(res.status()).toBe(400);
    expect(await res.json()).toMatchObject({ error: 'unsupported_grant_type' });
  });

  test('refuses credentials given both in the header and in the body', rule('data.token.credentials-in-header-and-body-400'), async ({ request }) => {
    const res = await request.post(tokenUrl, {
      headers: { ...form, Authorization: basic(primary.key, primary.secret) },
      data: `grant_type=client_credentials&client_id=${encodeURIComponent(primary.key)}&client_secret=${encodeURIComponent(primary.secret)}`,
    });
    expect(res.status()).toBe(400);
    expect(await res.json()).toMatchObject({ error: 'invalid_client' });
  });

  test('accepts client_id and client_secret in a form body', rule('data.token.credentials-in-body'), async ({ request }) => {
    const res = await request.post(tokenUrl, {
      headers: form,
      data: `grant_type=client_credentials&client_id=${encodeURIComponent(primary.key)}&client_secret=${encodeURIComponent(primary.secret)}`,
    });
    expect(res.status()).toBe(200);
    expect((await res.json()).token_type).toBe('bearer');
  });

  test('accepts a JSON body', rule('data.token.json-body-accepted'), async ({ request }) => {
    const res = await request.post(tokenUrl, {
      headers: { 'Content-Type': 'application/json' },
      data: JSON.stringify({ grant_type: 'client_credentials', client_id: primary.key, client_secret: primary.secret }),
    });
    expect(res.status()).toBe(200);
    expect((await res.json()).token_type).toBe('bearer');
  });
});
