import { createPublicKey } from 'node:crypto';
import { decodeJwt, decodeProtectedHeader, importSPKI, jwtVerify } from 'jose';
import { test, expect, target } from '../_harness/fixtures.js';
import { issuerPrivateKeyPem, needs, notApplicable } from '../_harness/capabilities.js';
import { rule } from '../_harness/rules.js';
import { credentials } from '../_harness/target.js';
import { sharedTokens } from '../_harness/tokens.js';

/**
 * The issued access tokens (decisions #20) and the token-information endpoint. Tokens are the
 * ones fetched once for the run, so a stock endpoint's per-client token limit is not touched.
 */
const primary = credentials(target.clients.primary)!;
const basic = `Basic ${Buffer.from(`${primary.key}:${primary.secret}`).toString('base64')}`;

function jwtOrNotApplicable(token: string): Record<string, unknown> {
  try {
    return decodeJwt(token) as Record<string, unknown>;
  } catch {
    notApplicable('the target issues opaque (non-JWT) access tokens');
  }
}

test.describe('issued access tokens', () => {
  test('are RS256-signed JWTs that verify with the issuer\'s public key', rule('data.token.jwt-rs256'), async () => {
    const token = sharedTokens().primary;
    jwtOrNotApplicable(token);
    expect(decodeProtectedHeader(token).alg).toBe('RS256');
    const publicPem = createPublicKey(issuerPrivateKeyPem()).export({ type: 'spki', format: 'pem' }).toString();
    const { payload } = await jwtVerify(token, await importSPKI(publicPem, 'RS256'), { algorithms: ['RS256'] });
    expect(payload.client_id).toBe(primary.key);
  });

  test('carry iss, aud, exp, iat, jti, client_id, scope and odsInstances as a JSON string', rule('data.token.jwt-claims'), async () => {
    const claims = jwtOrNotApplicable(sharedTokens().primary);
    for (const name of ['iss', 'aud', 'exp', 'iat', 'jti', 'client_id', 'scope', 'odsInstances']) expect(claims[name], name).toBeDefined();
    expect(typeof claims.odsInstances).toBe('string');
    expect(() => JSON.parse(claims.odsInstances as string)).not.toThrow();
    expect(claims.client_id).toBe(primary.key);
  });

  test('carry educationOrganizationId for a client with education organization claims', rule('data.token.jwt-claims'), async () => {
    const token = sharedTokens().schoolLimited;
    needs('clients.schoolLimited', token);
    needs('capabilities.schoolLimited', target.capabilities?.schoolLimited);
    const claims = jwtOrNotApplicable(token);
    const ids = String(claims.educationOrganizationId ?? '').split(/[\s,]+/).filter(Boolean).map(Number);
    expect(ids).toEqual(expect.arrayContaining(target.capabilities!.schoolLimited!.schoolIds));
  });
});

test.describe('POST /oauth/token scope', () => {
  test('refuses a scope naming an education organization the client is not associated with with 400 invalid_scope', rule('data.token.invalid-scope-400'), async ({ request }) => {
    const res = await request.post(`${target.dataApi.baseUrl}/oauth/token`, {
      headers: { Authorization: basic, 'Content-Type': 'application/x-www-form-urlencoded' },
      data: 'grant_type=client_credentials&scope=987654321',
    });
    expect(res.status()).toBe(400);
    expect(await res.json()).toMatchObject({ error: 'invalid_scope' });
  });
});

test.describe('POST /oauth/token_info', () => {
  const url = `${target.dataApi.baseUrl}/oauth/token_info`;

  test('describes the caller\'s own token: active, client_id, namespace_prefixes, education_organizations, assigned_profiles', rule('data.token.token-info'), async ({ request }) => {
    const token = sharedTokens().primary;
    const res = await request.post(url, { headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, data: JSON.stringify({ token }) });
    expect(res.status()).toBe(200);
    const info = (await res.json()) as Record<string, unknown>;
    expect(info.active).toBe(true);
    expect(info.client_id).toBe(primary.key);
    for (const member of ['namespace_prefixes', 'education_organizations', 'assigned_profiles']) expect(Array.isArray(info[member]), member).toBe(true);
    // The prefixes the client writes under: the run's own namespace starts with one of them,
    // unless the client has none (a client without namespace claims, e.g. npm start's demo client).
    const prefixes = info.namespace_prefixes as string[];
    if (prefixes.length) expect(prefixes.some((p) => target.testData.namespacePrefix.startsWith(p)), `${target.testData.namespacePrefix} starts with one of ${prefixes.join(', ')}`).toBe(true);
  });

  test('reads the token member\'s name case-insensitively: {"Token": <the caller\'s token>} is answered 200 like {"token": …}', rule('data.token.token-info'), async ({ request }) => {
    const token = sharedTokens().primary;
    const res = await request.post(url, { headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, data: JSON.stringify({ Token: token }) });
    expect(res.status(), await res.text()).toBe(200);
    expect(await res.json()).toMatchObject({ active: true, client_id: primary.key });
  });

  test('accepts the token form-encoded, token=<the caller\'s token>, and answers 200 as for the JSON body', rule('data.token.token-info'), async ({ request }) => {
    const token = sharedTokens().primary;
    const res = await request.post(url, { headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/x-www-form-urlencoded' }, data: `token=${encodeURIComponent(token)}` });
    expect(res.status(), await res.text()).toBe(200);
    expect(await res.json()).toMatchObject({ active: true, client_id: primary.key });
  });

  test('refuses a request that names no token to inspect (an empty body, an object without a token member) with 400', rule('data.token.token-info'), async ({ request }) => {
    const token = sharedTokens().primary;
    for (const [what, data] of [['an empty body', ''], ['an empty object', '{}'], ['an object naming the token otherwise', JSON.stringify({ access_token: token })]]) {
      const res = await request.post(url, { headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, data });
      expect(res.status(), `${what}: ${await res.text()}`).toBe(400);
    }
  });

  test('refuses to describe another client\'s valid token to the caller with a 4xx that discloses nothing of it', rule('data.token.token-info'), async ({ request }) => {
    // Upstream 7.3.2 answers 400 (the tokens must match), 7.2 and 7.3 answered 401 (research §4):
    // only the refusal and its silence about the other token hold in every version.
    const token = sharedTokens().primary;
    const tokens = sharedTokens();
    const other = Object.keys(tokens).map((role) => ({ role, token: tokens[role], key: credentials(target.clients[role as keyof typeof target.clients])?.key }))
      .find((o) => o.role !== 'primary' && o.key && o.key !== primary.key && o.token !== token);
    needs('clients.<another than primary>', other, 'a second client, with its own key');
    const res = await request.post(url, { headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, data: JSON.stringify({ token: other.token }) });
    const text = await res.text();
    expect(res.status(), text).toBeGreaterThanOrEqual(400);
    expect(res.status(), text).toBeLessThan(500);
    expect(text, 'the answer names the other client').not.toContain(other.key!);
    let body: unknown;
    try { body = JSON.parse(text); } catch { body = undefined; }
    expect((body as { active?: unknown } | undefined)?.active, 'the answer calls a token active').not.toBe(true);
  });

  test('answers 401 without a valid bearer token', rule('data.token.token-info'), async ({ request }) => {
    const token = sharedTokens().primary;
    const res = await request.post(url, { headers: { Authorization: 'Bearer not-a-token', 'Content-Type': 'application/json' }, data: JSON.stringify({ token }) });
    expect(res.status()).toBe(401);
    const missing = await request.post(url, { headers: { 'Content-Type': 'application/json' }, data: JSON.stringify({ token }) });
    expect(missing.status()).toBe(401);
  });
});
