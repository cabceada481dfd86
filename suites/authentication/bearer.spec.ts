import type { HttpResponse } from '../_harness/http.js';
import { createPublicKey } from 'node:crypto';
import { SignJWT, decodeJwt } from 'jose';
import { test, expect, target } from '../_harness/fixtures.js';
import { issuerPrivateKeyPem } from '../_harness/capabilities.js';
import { expectProblem } from '../_harness/problem.js';
import { check, rule } from '../_harness/rules.js';
import { sharedTokens } from '../_harness/tokens.js';
import { credentials } from '../_harness/target.js';
import { BLANK, CAUSES, INVALID, MISSING, UNKNOWN_SCHEME, RESOURCE as resource, expectOwnEntry, routes } from './_support/causes.js';
import { issuerSigned as resigned } from './_support/expiry.js';

/**
 * Bearer authentication of data requests: the seed's four 401 causes, each with one `errors`
 * entry of its own (decision 35) on every route, and the tokens that must be refused or accepted.
 * Upstream's exact words are wording.spec.ts's (SHOULD); expired tokens are expiry.spec.ts's.
 */
/** Every JOSE algorithm an RSA key signs with, other than the RS256 the issuer uses. */
const OTHER_RSA_ALGORITHMS = ['RS384', 'RS512', 'PS256', 'PS384', 'PS512'];

test.describe('the four 401 causes, each with one errors entry of its own', () => {
  for (const cause of CAUSES) {
    test(`answers 401 with exactly one errors entry, differing from the other causes' entries, for ${cause.name} on every method of the collection, item and feed routes`, rule(cause.rule), async ({ anon }) => {
      const others = CAUSES.filter((c) => c !== cause);
      for (const route of routes(anon)) await expectOwnEntry(route, cause.headers, cause.name, others);
    });
  }
});

test.describe('Authorization: Bearer on data requests', () => {
  test('answers 401 to the client\'s own key and secret sent as Basic credentials', rule('data.authentication.non-bearer-scheme-401'), async ({ anon }) => {
    const creds = credentials(target.clients.primary)!;
    const basic = `Basic ${Buffer.from(`${creds.key}:${creds.secret}`).toString('base64')}`;
    await expectProblem(await anon.get(`${resource}?limit=1`, { Authorization: basic }), 'security:authentication');
  });

  test('accepts a valid token from the token endpoint', rule('data.authentication.valid-token-accepted'), async ({ api }) => {
    const res = await api.get(`${resource}?limit=1`);
    expect(res.status()).toBe(200);
    expect(Array.isArray(await res.json())).toBe(true);
  });

  test('accepts a newly obtained token on the request a made-up token was just refused on', rule('data.authentication.valid-token-accepted', INVALID.rule), async ({ anon, request }) => {
    // A refusal leaves nothing behind that would refuse the caller's next, valid token.
    await check(INVALID.rule, 'a made-up token is refused with 401', async () => expect((await anon.get(`${resource}?limit=1`, INVALID.headers)).status()).toBe(401));
    const creds = credentials(target.clients.primary)!;
    const res: HttpResponse = await request.post(`${target.dataApi.baseUrl}/oauth/token`, {
      headers: { Authorization: `Basic ${Buffer.from(`${creds.key}:${creds.secret}`).toString('base64')}`, 'Content-Type': 'application/x-www-form-urlencoded' },
      data: 'grant_type=client_credentials',
    });
    expect(res.status()).toBe(200);
    const { access_token } = (await res.json()) as { access_token: string };
    expect((await anon.get(`${resource}?limit=1`, { Authorization: `Bearer ${access_token}` })).status()).toBe(200);
  });

  test('answers 401 for a token whose aud names another service', rule('data.authentication.foreign-audience-401'), async ({ anon }) => {
    const foreign = await resigned({ aud: 'https://another-service.example.test' });
    await expectProblem(await anon.get(resource, { Authorization: `Bearer ${foreign}` }), 'security:authentication');
    // The control: the same claims re-signed unchanged are accepted.
    expect((await anon.get(`${resource}?limit=1`, { Authorization: `Bearer ${await resigned({})}` })).status()).toBe(200);
  });

  test('answers 401 for the issuer\'s claims signed with the issuer\'s key under any algorithm other than RS256', rule('data.authentication.signing-algorithm-enforced'), async ({ anon }) => {
    // The neighbours of the configured algorithm: the other RSA algorithms the same key can sign
    // with. Only the key's holder can make these, and the seed names no algorithm for the data
    // API (decision 20 does): SHOULD, unlike the forgeries anyone can make (alg none, HS256).
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
    const publicPem = createPublicKey(issuerPrivateKeyPem()).export({ type: 'spki', format: 'pem' }).toString();
    const forged = {
      none: `${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims)}.`,
      HS256: await new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(new TextEncoder().encode(publicPem)),
    };
    for (const [alg, token] of Object.entries(forged)) {
      const res = await anon.get(resource, { Authorization: `Bearer ${token}` });
      expect(res.status(), `${alg}: ${await res.text()}`).toBe(401);
    }
  });

  test('answers 401 with one errors entry of its own on every route for a token the issuer\'s key signed, valid in signature, iss, aud and exp, whose client_id names no client', rule('data.authentication.invalid-token-401', 'data.authentication.errors-entry-wording'), async ({ anon }) => {
    // A token only the issuer's key can make: everything checks out but the client it names. The
    // issuer never issued it for any client the API knows, so it is an unknown token.
    const orphan = await resigned({ client_id: `no-such-client-${Date.now()}` });
    // The control: the same claims with the real client_id, re-signed, are accepted.
    expect((await anon.get(`${resource}?limit=1`, { Authorization: `Bearer ${await resigned({})}` })).status(), 'the same claims naming the real client').toBe(200);
    const entries: string[] = [];
    for (const route of routes(anon)) {
      const entry = await expectOwnEntry(route, { Authorization: `Bearer ${orphan}` }, 'a token naming no client', [MISSING, UNKNOWN_SCHEME, BLANK]);
      expect(entry.trim(), `${route.name}: the errors entry names the cause`).not.toBe('');
      entries.push(entry);
    }
    await check('data.authentication.errors-entry-wording', 'the entry reads "Invalid token", as for any token the API does not accept', () => expect([...new Set(entries)]).toEqual(['Invalid token']));
  });

  test('answers 401 for a token issued further in the future than the clock skew allows', rule('data.authentication.future-iat-401'), async ({ anon }) => {
    const now = Math.floor(Date.now() / 1000);
    const future = await resigned({ iat: now + 3600, exp: now + 7200 });
    await expectProblem(await anon.get(resource, { Authorization: `Bearer ${future}` }), 'security:authentication');
    expect((await anon.get(`${resource}?limit=1`, { Authorization: `Bearer ${await resigned({ iat: now + 5 })}` })).status()).toBe(200);
  });
});
