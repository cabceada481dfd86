import { createPublicKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { APIResponse } from '@playwright/test';
import { SignJWT, decodeJwt, importPKCS8 } from 'jose';
import { test, expect, target } from '../_harness/fixtures.js';
import { expectProblem } from '../_harness/problem.js';
import { rule } from '../_harness/rules.js';
import { sharedTokens } from '../_harness/tokens.js';
import { credentials } from '../_harness/target.js';

/** Bearer authentication of data requests: the seed's four 401 cases. */
const resource = 'academicSubjectDescriptors';
/** Every JOSE algorithm an RSA key signs with, other than the RS256 the issuer uses. */
const OTHER_RSA_ALGORITHMS = ['RS384', 'RS512', 'PS256', 'PS384', 'PS512'];

test.describe('Authorization: Bearer on data requests', () => {
  test('answers 401 with an errors entry when the Authorization header is missing', rule('data.authentication.missing-authorization-401', 'data.authentication.errors-entry-wording'), async ({ anon }) => {
    const body = await expectProblem(await anon.get(resource), 'security:authentication');
    expect(body.errors).toEqual(['Authorization header is missing.']);
  });

  test('answers 401 without a token to every method on the collection, the item and the feed routes', rule('data.authentication.missing-authorization-401'), async ({ anon }) => {
    // An id in the id format that names no record: the token is checked before anything else.
    const item = `${resource}/${'0'.repeat(24)}${Date.now().toString(16).padStart(8, '0').slice(-8)}`;
    const body = { codeValue: 'x', shortDescription: 'x', namespace: 'uri://x.test/AcademicSubjectDescriptor' };
    const requests: [string, () => Promise<APIResponse>][] = [
      [`GET ${resource}`, () => anon.get(resource)],
      [`POST ${resource}`, () => anon.post(resource, body)],
      [`GET ${item}`, () => anon.get(item)],
      [`PUT ${item}`, () => anon.put(item, body)],
      [`DELETE ${item}`, () => anon.delete(item)],
      [`GET ${resource}/deletes`, () => anon.get(`${resource}/deletes`)],
      [`GET ${resource}/keyChanges`, () => anon.get(`${resource}/keyChanges`)],
    ];
    for (const [name, send] of requests) {
      const res = await send();
      expect(res.status(), name).toBe(401);
      await expectProblem(res, 'security:authentication');
    }
  });

  test('answers 401 when the scheme is not Bearer', rule('data.authentication.non-bearer-scheme-401'), async ({ anon }) => {
    const body = await expectProblem(await anon.get(resource, { Authorization: 'Basic YTpi' }), 'security:authentication');
    expect(body.errors?.length).toBe(1);
  });

  test('answers 401 to the client\'s own key and secret sent as Basic credentials', rule('data.authentication.non-bearer-scheme-401'), async ({ anon }) => {
    const creds = credentials(target.clients.primary)!;
    const basic = `Basic ${Buffer.from(`${creds.key}:${creds.secret}`).toString('base64')}`;
    await expectProblem(await anon.get(`${resource}?limit=1`, { Authorization: basic }), 'security:authentication');
  });

  test('answers 401 when the bearer token is blank', rule('data.authentication.blank-bearer-token-401'), async ({ anon }) => {
    const body = await expectProblem(await anon.get(resource, { Authorization: 'Bearer ' }), 'security:authentication');
    expect(body.errors?.length).toBe(1);
  });

  test('answers 401 for a token the issuer never issued', rule('data.authentication.invalid-token-401'), async ({ anon }) => {
    const body = await expectProblem(await anon.get(resource, { Authorization: 'Bearer not-a-real-token-0123456789' }), 'security:authentication');
    expect(body.errors?.length).toBe(1);
  });

  test('accepts a valid token from the token endpoint', rule('data.authentication.valid-token-accepted'), async ({ api }) => {
    const res = await api.get(`${resource}?limit=1`);
    expect(res.status()).toBe(200);
    expect(Array.isArray(await res.json())).toBe(true);
  });

  test('answers 401 for an expired token', rule('data.authentication.expired-token-401'), async ({ anon }) => {
    // The same claims as a real token, re-signed with an expiry in the past.
    const past = Math.floor(Date.now() / 1000) - 600;
    const expired = await resigned({ iat: past - 1800, exp: past });
    const body = await expectProblem(await anon.get(resource, { Authorization: `Bearer ${expired}` }), 'security:authentication');
    expect(body.errors?.length).toBe(1);
  });

  test('answers 401 for a token whose aud names another service', rule('data.authentication.foreign-audience-401'), async ({ anon }) => {
    const foreign = await resigned({ aud: 'https://another-service.example.test' });
    await expectProblem(await anon.get(resource, { Authorization: `Bearer ${foreign}` }), 'security:authentication');
    // The control: the same claims re-signed unchanged are accepted.
    expect((await anon.get(`${resource}?limit=1`, { Authorization: `Bearer ${await resigned({})}` })).status()).toBe(200);
  });

  test('answers 401 for the issuer\'s claims signed with the issuer\'s key under any algorithm other than RS256', rule('data.authentication.invalid-token-401'), async ({ anon }) => {
    // The neighbours of the configured algorithm: the other RSA algorithms the same key can sign with.
    for (const alg of OTHER_RSA_ALGORITHMS) {
      const res = await anon.get(resource, { Authorization: `Bearer ${await resigned({}, alg)}` });
      expect(res.status(), `${alg}: ${await res.text()}`).toBe(401);
    }
    // The control: the same claims under RS256 pass.
    expect((await anon.get(`${resource}?limit=1`, { Authorization: `Bearer ${await resigned({})}` })).status()).toBe(200);
  });

  test('answers 401 for the issuer\'s claims unsigned (alg none) or HMAC-signed with the issuer\'s public key', rule('data.authentication.invalid-token-401'), async ({ anon }) => {
    const claims = decodeJwt(sharedTokens().primary);
    const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
    const publicPem = createPublicKey(issuerPem()).export({ type: 'spki', format: 'pem' }).toString();
    const forged = {
      none: `${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims)}.`,
      HS256: await new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(new TextEncoder().encode(publicPem)),
    };
    for (const [alg, token] of Object.entries(forged)) {
      const res = await anon.get(resource, { Authorization: `Bearer ${token}` });
      expect(res.status(), `${alg}: ${await res.text()}`).toBe(401);
    }
  });

  test('answers 401 for a token issued further in the future than the clock skew allows', rule('data.authentication.future-iat-401'), async ({ anon }) => {
    const now = Math.floor(Date.now() / 1000);
    const future = await resigned({ iat: now + 3600, exp: now + 7200 });
    await expectProblem(await anon.get(resource, { Authorization: `Bearer ${future}` }), 'security:authentication');
    expect((await anon.get(`${resource}?limit=1`, { Authorization: `Bearer ${await resigned({ iat: now + 5 })}` })).status()).toBe(200);
  });
});

/** The issuer's private key (capability issuerSigningKey; the test is not applicable without it). */
function issuerPem(): string {
  const cap = target.capabilities?.issuerSigningKey;
  const pem = cap?.pemEnv ? process.env[cap.pemEnv] : cap?.pemFile ? readFileSync(cap.pemFile, 'utf8') : undefined;
  test.info().annotations.push(...(pem ? [] : [{ type: 'not-applicable', description: 'needs capability issuerSigningKey to sign a crafted token' }]));
  test.skip(!pem, 'not applicable: needs capability issuerSigningKey');
  return pem!;
}

/** The primary client's real token claims with some changed, re-signed with the issuer's key. */
async function resigned(changes: Record<string, unknown>, alg = 'RS256'): Promise<string> {
  const pem = issuerPem();
  return new SignJWT({ ...decodeJwt(sharedTokens().primary), ...changes })
    .setProtectedHeader({ alg, typ: 'JWT' })
    .sign(await importPKCS8(pem, alg));
}
