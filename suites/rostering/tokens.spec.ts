import { SignJWT, decodeJwt, importPKCS8 } from 'jose';
import { needs } from '../_harness/capabilities.js';
import { check, rule } from '../_harness/rules.js';
import type { RosteringNeighbour } from '../targets/types.js';
import { credentials, target } from '../_harness/target.js';
import { test, expect } from './_support/test.js';
import { otherFlowToken, type Claim } from './_support/other-flow-tokens.js';
import { routePrefixes } from './_support/routes.js';
import { expectWithheld, readCollection } from './_support/read.js';
import { bearer, craftToken, declaredClient, expectTokenFailure, expectUnauthorized, foreignKeyPem, getPastThrottle, issuedClaims, PREFIX, reservedOrganizations, RESOURCES, rosterUrl, scope, SCOPES, TOKEN_FAILURE_BODY, tokenFor, trustedPublicKeyPem, type TokenSpec } from './_support/service.js';

/**
 * Token checks on every request (seed: Checks on every request): signature, algorithm, iss, aud,
 * exp, nbf and scope. Every failure is 401 with the stdx_ body (seed; decision 36), the body
 * checked for roster-errors.token-failure-body. Tokens the
 * deployment issued are changed (or re-signed with a key of the suites' own) where that suffices;
 * claims no configured client has are signed with the test issuer (capability testIssuer, or the
 * issuer's key) and differ from a valid one in exactly one claim or header.
 */
const url = () => rosterUrl('orgs');

/** A token the deployment issued that the service accepts (checked): the control for a changed copy. */
async function acceptedToken(request: Parameters<typeof tokenFor>[0]): Promise<string> {
  const token = await tokenFor(request, { orgs: [], scopes: ['core', 'demographics'] });
  const res = await getPastThrottle(request, url(), bearer(token));
  expect(res.status(), `the unchanged token is accepted: ${await res.text()}`).toBe(200);
  return token;
}

/**
 * The rostering service's clock, in whole seconds, read from its Date header (the local clock
 * where it sends none): `now()` by that clock, and a wait until it shows a given second.
 */
async function serviceClock(request: Parameters<typeof tokenFor>[0]): Promise<{ now(): number; waitUntil(second: number): Promise<void> }> {
  const res = await getPastThrottle(request, url());
  const served = Date.parse(res.headers().date ?? '');
  // The Date header is truncated to the second and was written before it arrived, so this offset
  // never puts the service's clock ahead: a wait until a second by it ends no earlier than the service's.
  const offset = Number.isNaN(served) ? 0 : served - Date.now();
  const now = () => Math.floor((Date.now() + offset) / 1000);
  return {
    now,
    waitUntil: async (second) => { while (now() < second) await new Promise((r) => setTimeout(r, 250)); },
  };
}

/** The seed's way to send client credentials (a Basic header; credentials in the body are upstream's, SHOULD). */
const basicOf = (c: { key: string; secret: string }) => `Basic ${Buffer.from(`${c.key}:${c.secret}`).toString('base64')}`;

/** A JWT with any header, signed or not: the raw parts. */
const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

test.describe('Authorization: Bearer on rostering requests', () => {
  test('answers 401 with the stdx_ failure body when the Authorization header is missing', rule('roster.roster-auth.bearer-token-required', TOKEN_FAILURE_BODY), async ({ request }) => {
    await expectUnauthorized(await getPastThrottle(request, url()));
  });

  test('answers 401 without a token on the collection and the item route of every resource, under every route prefix', rule('roster.roster-auth.bearer-token-required', TOKEN_FAILURE_BODY), async ({ request }) => {
    // Every route, not one: the token check guards item reads (an unknown id included) as well as
    // lists, at the service and under each path shape the target's flows give.
    for (const { where, origin, route } of routePrefixes()) {
      for (const resource of RESOURCES) {
        for (const path of [resource, `${resource}/no-such-record-${Date.now()}`]) {
          const res = await getPastThrottle(request, `${origin}${route}${PREFIX}/${path}`);
          expect(res.status(), `${where}: ${route}${PREFIX}/${path}`).toBe(401);
          await expectUnauthorized(res);
        }
      }
    }
  });

  test('answers 401 without a token on paths under the prefix that name no resource, under every route prefix', rule('roster.roster-auth.bearer-token-required', TOKEN_FAILURE_BODY), async ({ request }) => {
    // "Every request to that prefix must carry a valid OAuth 2.0 bearer token" (seed): a path that
    // names no resource is a request to the prefix too, so the token is checked before the path is
    // routed (upstream checks it on its whole prefix too). With a token such a path is 404 (unknown-path-404).
    // The prefix itself, with and without its slash, is under it too.
    const paths = ['', '/', ...['nosuchresource', `nosuchresource/${Date.now()}`, 'classes/x/students', 'orgs/x/y/z', 'v1p2/orgs'].map((p) => `/${p}`)];
    for (const { where, origin, route } of routePrefixes()) {
      for (const path of paths) {
        const res = await getPastThrottle(request, `${origin}${route}${PREFIX}${path}`);
        expect(res.status(), `${where}: GET ${route}${PREFIX}${path} without a token`).toBe(401);
        await expectUnauthorized(res);
      }
    }
  });

  test('answers 401 for another scheme or an empty bearer token', rule('roster.roster-auth.non-bearer-scheme-401', TOKEN_FAILURE_BODY), async ({ request }) => {
    const creds = credentials(target.clients.primary)!;
    await expectUnauthorized(await getPastThrottle(request, url(), { Authorization: `Basic ${Buffer.from(`${creds.key}:${creds.secret}`).toString('base64')}` }));
    await expectUnauthorized(await getPastThrottle(request, url(), { Authorization: 'Bearer ' }));
    await expectUnauthorized(await getPastThrottle(request, url(), { Authorization: 'Bearer not-a-jwt' }));
  });

  test('answers 401 for a token the service accepts when it is sent under a scheme that only ends in Bearer, or with a second part after it', rule('roster.roster-auth.bearer-token-required', TOKEN_FAILURE_BODY), async ({ request }) => {
    // The control is the same token, accepted as `Bearer <token>`: the refusal is the header's form.
    // Neither header is `Authorization: Bearer <token>` (seed); upstream takes a header only when it
    // starts with "Bearer ", and "<token> <token>" is no JWT.
    const token = await acceptedToken(request);
    for (const authorization of [`XBearer ${token}`, `Bearer ${token} ${token}`]) {
      const res = await getPastThrottle(request, url(), { Authorization: authorization });
      expect(res.status(), `Authorization: ${authorization.slice(0, 12)}…`).toBe(401);
      await expectUnauthorized(res);
    }
  });

  test('accepts a token from the data API token endpoint carrying rostering scopes', rule('roster.roster-auth.accepts-external-issuer-tokens', 'roster.roster-auth.data-api-issues-rostering-tokens', 'roster.roster-auth.issuer-from-config', 'roster.roster-auth.audience-from-config'), async ({ request }) => {
    const creds = credentials(target.clients.primary)!;
    const res = await request.post(`${target.dataApi.baseUrl}/oauth/token`, {
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Authorization: basicOf(creds) },
      form: { grant_type: 'client_credentials', scope: `${scope('core')} ${scope('demographics')}` },
    });
    expect(res.status(), await res.text()).toBe(200);
    const token = (await res.json()).access_token as string;
    const claims = decodeJwt(token);
    expect(String(claims.scope)).toContain(scope('core'));
    await readCollection(request, url(), token);
    await readCollection(request, rosterUrl('demographics'), token);
  });

  test('a token requested with only roster-core.readonly opens the core resources and not demographics', rule('roster.roster-auth.data-api-issues-rostering-tokens', 'roster.roster-scopes.wrong-scope-for-route-401'), async ({ request }) => {
    const creds = credentials(target.clients.primary)!;
    const res = await request.post(`${target.dataApi.baseUrl}/oauth/token`, {
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Authorization: basicOf(creds) },
      form: { grant_type: 'client_credentials', scope: scope('core') },
    });
    expect(res.status(), await res.text()).toBe(200);
    const token = (await res.json()).access_token as string;
    // The rostering scopes it bears (a string or an array): exactly the one requested.
    const scopes = [decodeJwt(token).scope].flat().flatMap((v) => String(v ?? '').split(/[\s,]+/)).filter((v) => Object.values(SCOPES).some((n) => v.endsWith(n)));
    expect(scopes).toEqual([scope('core')]);
    for (const path of ['orgs', 'classes', 'users', 'enrollments']) await readCollection(request, rosterUrl(path), token);
    const demographics = await readCollection(request, rosterUrl('demographics'), await tokenFor(request, { orgs: [reservedOrganizations().sea], scopes: ['core', 'demographics'] }));
    const refused = await getPastThrottle(request, rosterUrl('demographics'), bearer(token));
    await expectWithheld(refused, demographics, 'GET demographics with roster-core.readonly');
    await check('roster.roster-scopes.wrong-scope-for-route-401', 'demographics is answered 401 with the stdx_ failure body', () => expectTokenFailure(refused));
  });

  /** A declared client the deployment gives roster-core.readonly alone, asking for demographics too. */
  async function askBeyondOwnScopes(request: Parameters<typeof tokenFor>[0], world: { sea: number }) {
    const owner = declaredClient({ orgs: [world.sea], scopes: ['core'] });
    const creds = owner ? credentials(target.rostering?.clients?.[owner.role] ?? {}) : undefined;
    needs('rostering.clients', owner && creds, 'a client with roster-core.readonly alone for the state agency');
    const res = await request.post(`${target.dataApi.baseUrl}/oauth/token`, {
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Authorization: basicOf(creds) },
      form: { grant_type: 'client_credentials', scope: `${scope('core')} ${scope('demographics')}` },
    });
    const text = await res.text();
    const token = (() => { try { return (JSON.parse(text) as { access_token?: unknown }).access_token; } catch { return undefined; } })();
    return { status: res.status(), text, token };
  }

  test('withholds a rostering scope the client does not own: the request is refused, or the token bears no such scope and opens no demographics', rule('roster.roster-auth.unowned-scope-withheld'), async ({ request, world }) => {
    const { status, text, token } = await askBeyondOwnScopes(request, world);
    if (status !== 200) {
      expect(status, `refused: ${text.slice(0, 300)}`).toBeGreaterThanOrEqual(400);
      expect(token, 'a refusal carries no token').toBeUndefined();
      return;
    }
    expect(typeof token, text.slice(0, 300)).toBe('string');
    const granted = [decodeJwt(token as string).scope].flat().flatMap((v) => String(v ?? '').split(/[\s,]+/));
    expect(granted, 'the scope claim').not.toContain(scope('demographics'));
    const demographics = await readCollection(request, rosterUrl('demographics'), await tokenFor(request, { orgs: [world.sea], scopes: ['core', 'demographics'] }));
    expect(demographics.length, 'demographics the state agency sees with the scope').toBeGreaterThan(0);
    await expectWithheld(await getPastThrottle(request, rosterUrl('demographics'), bearer(token as string)), demographics, 'GET demographics with the token');
  });

  // Withholding the scope (a token without it) is conformant to the MUST above; this SHOULD asks
  // for the refusal upstream gives.
  test('refuses a rostering scope the client does not own with 400 {"error": "invalid_scope"}', rule('data.token.invalid-scope-400'), async ({ request, world }) => {
    const { status, text } = await askBeyondOwnScopes(request, world);
    expect(status, text.slice(0, 300)).toBe(400);
    expect((() => { try { return JSON.parse(text) as unknown; } catch { return text; } })()).toMatchObject({ error: 'invalid_scope' });
  });

  test('accepts a token whose iss is the issuer the service is configured with, issued or crafted alike', rule('roster.roster-auth.issuer-from-config'), async ({ request }) => {
    // A token the deployment issued for this service is accepted (acceptedToken checks the 200).
    const { iss } = decodeJwt(await acceptedToken(request));
    expect(typeof iss, 'the issued token has an iss').toBe('string');
    // Where the suites sign: a crafted token with the same iss and aud (the control of every crafted token).
    if (!target.capabilities?.testIssuer && !target.capabilities?.issuerSigningKey) return;
    const res = await getPastThrottle(request, url(), bearer(await craftToken(request, {})));
    expect(res.status(), await res.text()).toBe(200);
  });

  test('accepts a token whose aud is the audience the service is configured with', rule('roster.roster-auth.audience-from-config'), async ({ request }) => {
    // A token the deployment issued for this service is accepted (acceptedToken checks the 200).
    const { aud } = decodeJwt(await acceptedToken(request));
    const audiences = [aud].flat().filter((a): a is string => typeof a === 'string');
    expect(audiences.length, 'the issued token has an aud').toBeGreaterThan(0);
    // Where the suites sign: the configured audience alone, as one string, passes too.
    if (!target.capabilities?.testIssuer && !target.capabilities?.issuerSigningKey) return;
    const statuses = [];
    for (const one of audiences) statuses.push((await getPastThrottle(request, url(), bearer(await craftToken(request, { claims: { aud: one } })))).status());
    expect(statuses, `aud ${JSON.stringify(audiences)}, each alone`).toContain(200);
  });

  test('answers 401 for a token signed by another key', rule('roster.roster-auth.bad-signature-401', TOKEN_FAILURE_BODY), async ({ request }) => {
    // The claims of an accepted token, re-signed with a key of the suites' own.
    const claims = decodeJwt(await acceptedToken(request));
    const forged = await new SignJWT(claims).setProtectedHeader({ alg: 'RS256', typ: 'JWT' }).sign(await importPKCS8(foreignKeyPem(), 'RS256'));
    await expectUnauthorized(await getPastThrottle(request, url(), bearer(forged)));
  });

  test('answers 401 for a token whose payload was changed after signing', rule('roster.roster-auth.bad-signature-401', TOKEN_FAILURE_BODY), async ({ request }) => {
    const [header, payload, signature] = (await acceptedToken(request)).split('.');
    const changed = b64({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), educationOrganizationId: String(reservedOrganizations().sea) });
    expect(changed).not.toBe(payload);
    await expectUnauthorized(await getPastThrottle(request, url(), bearer(`${header}.${changed}.${signature}`)));
  });

  test('answers 401 for an unsigned token (alg none)', rule('roster.roster-auth.signing-algorithm-enforced', TOKEN_FAILURE_BODY), async ({ request }) => {
    const valid = decodeJwt(await acceptedToken(request));
    await expectUnauthorized(await getPastThrottle(request, url(), bearer(`${b64({ alg: 'none', typ: 'JWT' })}.${b64(valid)}.`)));
  });

  test('answers 401 for an HS256 token keyed with a trusted public key (algorithm confusion)', rule('roster.roster-auth.signing-algorithm-enforced', TOKEN_FAILURE_BODY), async ({ request }) => {
    const valid = decodeJwt(await craftToken(request, {}));
    const secret = new TextEncoder().encode(trustedPublicKeyPem());
    const forged = await new SignJWT(valid).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(secret);
    await expectUnauthorized(await getPastThrottle(request, url(), bearer(forged)));
  });

  test('answers 401 for a token signed with the issuer key under any RSA algorithm other than the configured RS256', rule('roster.roster-auth.signing-algorithm-enforced', TOKEN_FAILURE_BODY), async ({ request }) => {
    for (const alg of ['RS384', 'RS512', 'PS256', 'PS384', 'PS512']) {
      const res = await getPastThrottle(request, url(), bearer(await craftToken(request, {}, { alg })));
      expect(res.status(), alg).toBe(401);
      await expectUnauthorized(res);
    }
  });

  test('answers 401 for an expired token', rule('roster.roster-auth.expired-token-401', TOKEN_FAILURE_BODY), async ({ request }) => {
    const past = Math.floor(Date.now() / 1000) - 120;
    await expectUnauthorized(await getPastThrottle(request, url(), bearer(await craftToken(request, { claims: { iat: past - 600, exp: past } }))));
  });

  test('answers 401 for a token it accepted before, once the token\'s exp has passed', rule('roster.roster-auth.expired-token-401', TOKEN_FAILURE_BODY), async ({ request }) => {
    // A verdict kept per token (a cache) must end at exp. The token lives a few seconds by the
    // service's own clock (its Date header), so a clock difference between hosts changes nothing;
    // it is refused once the service's clock is two seconds past exp.
    const clock = await serviceClock(request);
    const exp = clock.now() + 3;
    const token = await craftToken(request, { orgs: [], scopes: ['core'], claims: { iat: clock.now() - 1, exp } });
    const valid = await getPastThrottle(request, url(), bearer(token));
    expect(valid.status(), `accepted while valid: ${await valid.text()}`).toBe(200);
    // Presented about once a second meanwhile, as a polling client does, and not judged: the
    // connection that carried it while it was valid stays open (a server closes an idle one after
    // a few seconds), so a verdict kept per connection is asked on that very connection.
    while (clock.now() < exp + 2) {
      await getPastThrottle(request, url(), bearer(token));
      await clock.waitUntil(Math.min(exp + 2, clock.now() + 1));
    }
    await expectUnauthorized(await getPastThrottle(request, url(), bearer(token)));
  });

  test('answers 401 for a token that is not valid yet (nbf in the future)', rule('roster.roster-auth.future-nbf-401', TOKEN_FAILURE_BODY), async ({ request }) => {
    const later = Math.floor(Date.now() / 1000) + 300;
    await expectUnauthorized(await getPastThrottle(request, url(), bearer(await craftToken(request, { claims: { nbf: later, exp: later + 600 } }))));
  });

  test('answers 401 for a token without exp', rule('roster.roster-auth.missing-exp-401', TOKEN_FAILURE_BODY), async ({ request }) => {
    await expectUnauthorized(await getPastThrottle(request, url(), bearer(await craftToken(request, { claims: { exp: undefined } }))));
  });

  test('answers 401 when iss differs from the configured issuer', rule('roster.roster-auth.issuer-mismatch-401', TOKEN_FAILURE_BODY), async ({ request }) => {
    const { iss } = await issuedClaims(request);
    for (const other of [`${iss}x`, 'https://issuer.example.test/', undefined]) {
      await expectUnauthorized(await getPastThrottle(request, url(), bearer(await craftToken(request, { claims: { iss: other } }))));
    }
  });

  test('answers 401 when iss differs from the configured issuer only by a trailing slash', rule('roster.roster-auth.issuer-exact-401', 'roster.roster-auth.issuer-mismatch-401', TOKEN_FAILURE_BODY), async ({ request }) => {
    const { iss } = await issuedClaims(request);
    const other = String(iss).endsWith('/') ? String(iss).replace(/\/+$/, '') : `${iss}/`;
    await expectUnauthorized(await getPastThrottle(request, url(), bearer(await craftToken(request, { claims: { iss: other } }))));
  });

  test('answers 401 when iss or aud differs from the configured value only in letter case, and when aud differs by a trailing slash', rule('roster.roster-auth.issuer-mismatch-401', 'roster.roster-auth.audience-mismatch-401', TOKEN_FAILURE_BODY), async ({ request }) => {
    // Exact comparison (JWT StringOrURI values compare case-sensitively), not a normalized one.
    const { iss, aud } = await issuedClaims(request);
    const flip = (v: string) => (v.toUpperCase() !== v ? v.toUpperCase() : v.toLowerCase());
    const audience = String(aud);
    const variants: Record<string, unknown>[] = [
      { iss: flip(String(iss)) },
      { aud: flip(audience) },
      { aud: audience.endsWith('/') ? audience.replace(/\/+$/, '') : `${audience}/` },
    ];
    for (const claims of variants) {
      await expectUnauthorized(await getPastThrottle(request, url(), bearer(await craftToken(request, { claims }))));
    }
  });

  test('answers 401 for a token issued further in the future than the clock skew allows', rule('roster.roster-auth.future-iat-401', TOKEN_FAILURE_BODY), async ({ request }) => {
    const now = Math.floor(Date.now() / 1000);
    await expectUnauthorized(await getPastThrottle(request, url(), bearer(await craftToken(request, { claims: { iat: now + 3600, exp: now + 7200 } }))));
    // The control: an iat a few seconds ahead (clocks differ a little) passes.
    const res = await getPastThrottle(request, url(), bearer(await craftToken(request, { claims: { iat: now + 5, exp: now + 600 } })));
    expect(res.status(), await res.text()).toBe(200);
  });

  test('answers 401 when aud differs from the configured audience or is missing', rule('roster.roster-auth.audience-mismatch-401', TOKEN_FAILURE_BODY), async ({ request }) => {
    const { aud } = await issuedClaims(request);
    for (const other of [`${String(aud)}/other`, 'https://audience.example.test', ['https://audience.example.test'], undefined]) {
      await expectUnauthorized(await getPastThrottle(request, url(), bearer(await craftToken(request, { claims: { aud: other } }))));
    }
  });

  test('accepts an aud array that contains the configured audience', rule('roster.roster-auth.audience-array-accepted'), async ({ request }) => {
    const { aud } = await issuedClaims(request);
    const res = await getPastThrottle(request, url(), bearer(await craftToken(request, { claims: { aud: ['https://another-service.example.test', aud] } })));
    expect(res.status(), await res.text()).toBe(200);
  });

  test('answers 401 for a token the deployment issued to a client without rostering scopes', rule('roster.roster-auth.no-rostering-scope-401', TOKEN_FAILURE_BODY), async ({ request }) => {
    const { sea } = reservedOrganizations();
    const token = await tokenFor(request, { orgs: [sea], scopes: [] });
    expect(String(decodeJwt(token).scope ?? ''), 'the token carries no rostering scope').not.toMatch(/roster(-core|-demographics)?\.readonly/);
    await expectUnauthorized(await getPastThrottle(request, url(), bearer(token)));
    // The control: the same organizations with a rostering scope pass.
    expect((await getPastThrottle(request, url(), bearer(await tokenFor(request, { orgs: [sea], scopes: ['core'] })))).status()).toBe(200);
  });

  test('answers 401 for a token with no scope or only unrelated scopes', rule('roster.roster-auth.no-rostering-scope-401', TOKEN_FAILURE_BODY), async ({ request }) => {
    const specs: TokenSpec[] = [{ claims: { scope: undefined } }, { scope: '' }, { scope: 'openid profile' }, { scope: ['gradebook.readonly', 'resource.readonly'] }];
    // The scope is a check on every request to the prefix (seed): a path naming no resource too.
    for (const path of [url(), rosterUrl('nosuchresource')]) {
      for (const spec of specs) await expectUnauthorized(await getPastThrottle(request, path, bearer(await craftToken(request, spec))));
    }
  });

  test('does not accept a scope that merely contains or ends like a rostering scope', rule('roster.roster-scopes.scope-exact-match', TOKEN_FAILURE_BODY), async ({ request }) => {
    const core = scope('core');
    const base = target.rostering?.scopeBase ?? '';
    const name = SCOPES.core;
    const lookAlikes = [
      `${core}.extra`, `${core}x`, `x${core}`, core.replace('.readonly', '.readonlyx'), core.toUpperCase(), `${core}-demographics`,
      // the same name under another base, or under none where the target has one
      `https://anything.example/other/${name}`, `/${name}`, `${core}/`,
      ...(base ? [name, `${base.replace(/\/?$/, '')}x/${name}`, `${base.replace(/\/?$/, '')}//${name}`] : []),
    ];
    for (const lookAlike of lookAlikes) {
      await expectUnauthorized(await getPastThrottle(request, url(), bearer(await craftToken(request, { scope: lookAlike }))));
    }
    // The control: the exact scope passes.
    expect((await getPastThrottle(request, url(), bearer(await craftToken(request, { scope: core })))).status()).toBe(200);
  });

  test('reads the scope claim as a space-separated string, a comma-separated string or an array', rule('roster.roster-scopes.scope-claim-forms'), async ({ request }) => {
    const forms = [
      `openid ${scope('core')}`,
      `openid,${scope('core')}`,
      ['openid', scope('core')],
      [`openid ${scope('core')}`],
    ];
    for (const form of forms) {
      const res = await getPastThrottle(request, url(), bearer(await craftToken(request, { scope: form })));
      expect(res.status(), `scope ${JSON.stringify(form)}: ${await res.text()}`).toBe(200);
      // The same form does not open /demographics, whose scope it lacks: the 200 came from the
      // entry read out of it, not from a claim taken as granting everything. (Its 401 is wrong-scope-for-route-401's.)
      const other = await getPastThrottle(request, rosterUrl('demographics'), bearer(await craftToken(request, { scope: form })));
      expect(other.status(), `scope ${JSON.stringify(form)} on /demographics`).toBeGreaterThanOrEqual(400);
    }
  });
});

/**
 * The checks hold on every request (seed: Checks on every request), not on the one route the
 * tests above use: each kind of failed check is sent to the collection and an item route of every
 * resource the seed names (an id no record has: the item route is guarded whether or not the
 * record exists), with the control that the accepted token passes the checks on each of them
 * (any answer but 401: 200, or 404 for the unknown item).
 */
test.describe('token checks on every route', () => {
  const routes = () => RESOURCES.flatMap((r) => [r, `${r}/0123456789abcdef0123456789abcdef`]);

  async function refusedOnEveryRoute(request: Parameters<typeof tokenFor>[0], accepted: string, refused: [string, string][]): Promise<void> {
    for (const path of routes()) {
      const res = await getPastThrottle(request, rosterUrl(path), bearer(accepted));
      expect(res.status(), `the control, the accepted token, on ${path}: ${await res.text()}`).not.toBe(401);
    }
    for (const [what, authorization] of refused) {
      for (const path of routes()) {
        const res = await getPastThrottle(request, rosterUrl(path), { Authorization: authorization });
        expect(res.status(), `${what}: GET ${path}`).toBe(401);
        await expectUnauthorized(res);
      }
    }
  }

  // One failing token per rule on every route (the other variants of each are tried on /orgs
  // above): a deployment protects itself from many failed checks (429), which the seed leaves open.
  test('answers 401 for another scheme (Basic) on the collection and an item of every resource', rule('roster.roster-auth.non-bearer-scheme-401', TOKEN_FAILURE_BODY), async ({ request }) => {
    const creds = credentials(target.clients.primary)!;
    await refusedOnEveryRoute(request, await acceptedToken(request), [['Basic with the client\'s credentials', `Basic ${Buffer.from(`${creds.key}:${creds.secret}`).toString('base64')}`]]);
  });

  test('answers 401 for a token signed by another key, on the collection and an item of every resource', rule('roster.roster-auth.bad-signature-401', TOKEN_FAILURE_BODY), async ({ request }) => {
    const accepted = await acceptedToken(request);
    const forged = await new SignJWT(decodeJwt(accepted)).setProtectedHeader({ alg: 'RS256', typ: 'JWT' }).sign(await importPKCS8(foreignKeyPem(), 'RS256'));
    await refusedOnEveryRoute(request, accepted, [['signed by another key', `Bearer ${forged}`]]);
  });

  test('answers 401 for an unsigned token (alg none), on the collection and an item of every resource', rule('roster.roster-auth.signing-algorithm-enforced', TOKEN_FAILURE_BODY), async ({ request }) => {
    const accepted = await acceptedToken(request);
    await refusedOnEveryRoute(request, accepted, [['alg none', `Bearer ${b64({ alg: 'none', typ: 'JWT' })}.${b64(decodeJwt(accepted))}.`]]);
  });

  test('answers 401 for an expired token on the collection and an item of every resource', rule('roster.roster-auth.expired-token-401', TOKEN_FAILURE_BODY), async ({ request }) => {
    const past = Math.floor(Date.now() / 1000) - 120;
    const expired = await craftToken(request, { claims: { iat: past - 600, exp: past } });
    await refusedOnEveryRoute(request, await craftToken(request, {}), [['expired', `Bearer ${expired}`]]);
  });

  test('answers 401 when iss differs from the configured issuer, on the collection and an item of every resource', rule('roster.roster-auth.issuer-mismatch-401', TOKEN_FAILURE_BODY), async ({ request }) => {
    const { iss } = await issuedClaims(request);
    const other = await craftToken(request, { claims: { iss: `${iss}x` } });
    await refusedOnEveryRoute(request, await craftToken(request, {}), [[`iss ${iss}x`, `Bearer ${other}`]]);
  });

  test('answers 401 when aud differs from the configured audience, on the collection and an item of every resource', rule('roster.roster-auth.audience-mismatch-401', TOKEN_FAILURE_BODY), async ({ request }) => {
    const other = await craftToken(request, { claims: { aud: 'https://audience.example.test' } });
    await refusedOnEveryRoute(request, await craftToken(request, {}), [['aud https://audience.example.test', `Bearer ${other}`]]);
  });

  test('answers 401 for a token without a rostering scope, on the collection and an item of every resource', rule('roster.roster-auth.no-rostering-scope-401', TOKEN_FAILURE_BODY), async ({ request }) => {
    const { sea } = reservedOrganizations();
    const none = await tokenFor(request, { orgs: [sea], scopes: [] });
    await refusedOnEveryRoute(request, await tokenFor(request, { orgs: [sea], scopes: ['core', 'demographics'] }), [['no rostering scope', `Bearer ${none}`]]);
  });
});

/**
 * The iss and aud checks without a signing key: tokens this deployment issued, sent to a rostering
 * service configured like it but for its issuer or audience (target rostering.neighbours), must be
 * refused there. Where the suites can sign, a token with the neighbour's own values shows that
 * nothing else refuses it.
 */
test.describe('a rostering service configured with another issuer or audience', () => {
  type Kind = 'audience' | 'issuer' | 'issuer-slash';
  const bare = (u: string) => u.replace(/\/+$/, '');
  async function neighbour(request: Parameters<typeof tokenFor>[0], kind: Kind): Promise<RosteringNeighbour & { iss: string; aud: unknown }> {
    const { iss, aud } = await issuedClaims(request);
    const found = (target.rostering?.neighbours ?? []).find((n) => kind === 'audience' ? n.audience !== undefined && n.issuer === undefined
      : n.issuer !== undefined && n.audience === undefined && n.issuer !== iss && (bare(n.issuer) === bare(String(iss))) === (kind === 'issuer-slash'));
    needs('rostering.neighbours', found, `a neighbour configured with another ${kind === 'audience' ? 'audience' : kind === 'issuer' ? 'issuer' : 'issuer, differing by a trailing slash'}`);
    return { ...found, iss: String(iss), aud };
  }
  const orgsAt = (origin: string) => `${origin.replace(/\/$/, '')}/std/roster/rostering/v1p2/orgs`;

  async function refusedThere(request: Parameters<typeof tokenFor>[0], n: RosteringNeighbour & { iss: string; aud: unknown }) {
    const token = await acceptedToken(request);
    await expectUnauthorized(await getPastThrottle(request, orgsAt(n.rostering), bearer(token)));
    if (target.capabilities?.testIssuer || target.capabilities?.issuerSigningKey) {
      const own = await craftToken(request, { claims: { educationOrganizationId: undefined, iss: n.issuer ?? n.iss, aud: n.audience ?? n.aud } });
      const res = await getPastThrottle(request, orgsAt(n.rostering), bearer(own));
      expect(res.status(), `a token with the neighbour's own issuer and audience passes there: ${await res.text()}`).toBe(200);
    }
  }

  test('refuses the deployment\'s tokens where the service expects another audience', rule('roster.roster-auth.audience-mismatch-401', TOKEN_FAILURE_BODY), async ({ request }) => {
    await refusedThere(request, await neighbour(request, 'audience'));
  });

  test('refuses the deployment\'s tokens where the service expects another issuer', rule('roster.roster-auth.issuer-mismatch-401', TOKEN_FAILURE_BODY), async ({ request }) => {
    await refusedThere(request, await neighbour(request, 'issuer'));
  });

  test('refuses the deployment\'s tokens where the service expects the issuer with a trailing slash toggled', rule('roster.roster-auth.issuer-exact-401', 'roster.roster-auth.issuer-mismatch-401', TOKEN_FAILURE_BODY), async ({ request }) => {
    await refusedThere(request, await neighbour(request, 'issuer-slash'));
  });
});

/**
 * The iss and aud checks with the issuer's public key only (target rostering.issuerPublicKey):
 * a token another routing flow's token endpoint issued, signed for this service (verified here)
 * and differing from an accepted token of the target's own flow only in iss, or only in aud,
 * must be refused (other-flow-tokens.ts says when a pair counts).
 */
test.describe('a token another deployment issued, signed with the key this service trusts', () => {
  async function refusedHere(request: Parameters<typeof tokenFor>[0], claim: Claim) {
    const t = await otherFlowToken(claim);
    const accepted = await getPastThrottle(request, url(), bearer(t.control));
    expect(accepted.status(), `the control token (client '${t.controlRole}') is accepted: ${await accepted.text()}`).toBe(200);
    const res = await getPastThrottle(request, url(), bearer(t.other));
    expect(res.status(), `client '${t.otherRole}', ${claim} ${JSON.stringify(decodeJwt(t.other)[claim])} instead of ${JSON.stringify(decodeJwt(t.control)[claim])}`).toBe(401);
    await expectUnauthorized(res);
  }

  test('answers 401 for a token that differs from an accepted one only by its iss', rule('roster.roster-auth.issuer-mismatch-401', TOKEN_FAILURE_BODY), async ({ request }) => {
    await refusedHere(request, 'iss');
  });

  test('answers 401 for a token that differs from an accepted one only by its aud', rule('roster.roster-auth.audience-mismatch-401', TOKEN_FAILURE_BODY), async ({ request }) => {
    await refusedHere(request, 'aud');
  });
});
