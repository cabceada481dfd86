import type { HttpClient, HttpResponse } from '../_harness/http.js';
import { SignJWT, decodeJwt, importPKCS8 } from 'jose';
import { rule } from '../_harness/rules.js';
import { credentials, target } from '../_harness/target.js';
import { flowsDescription } from './_support/flows.js';
import { district, flow, orgsUnder, tokenOn } from './_support/routes.js';
import { ENDPOINTS } from './_support/schema.js';
import { bearer, expectStatus, expectTokenFailureBody, foreignKeyPem, getPastThrottle, PREFIX, rosteringOrigin, rosterUrl, seaToken, tokenFor } from './_support/service.js';
import { test, expect } from './_support/test.js';
import type { World } from './_support/world.js';

/** Error responses of the rostering service: failed token checks, unknown records and paths, the stdx_ envelope. */

/**
 * One request per kind of failed token check the suites can bring about on any target (seed:
 * Checks on every request; Scopes), with what each sends.
 */
async function failedTokenChecks(request: HttpClient, world: World): Promise<[string, HttpResponse][]> {
  const get = (url: string, authorization?: string) => getPastThrottle(request, url, authorization ? { Authorization: authorization } : {});
  const orgs = rosterUrl('orgs');
  const accepted = await seaToken(request, world, ['core']);
  const foreignKey = foreignKeyPem();
  const forged = await new SignJWT(decodeJwt(accepted)).setProtectedHeader({ alg: 'RS256', typ: 'JWT' }).sign(await importPKCS8(foreignKey, 'RS256'));
  const [header, payload, signature] = accepted.split('.');
  const changed = Buffer.from(JSON.stringify({ ...decodeJwt(accepted), educationOrganizationId: String(world.schoolA) })).toString('base64url');
  const creds = credentials(target.clients.primary)!;
  return [
    ['no Authorization header', await get(orgs)],
    ['a Basic Authorization header', await get(orgs, `Basic ${Buffer.from(`${creds.key}:${creds.secret}`).toString('base64')}`)],
    ['a bearer token that is not a JWT', await get(orgs, 'Bearer not-a-jwt')],
    ['a token signed by another key', await get(orgs, `Bearer ${forged}`)],
    ['a token whose payload was changed after signing', await get(orgs, `Bearer ${header}.${changed}.${signature}`)],
    ['a token without a rostering scope', await get(orgs, `Bearer ${await tokenFor(request, { orgs: [world.sea], scopes: [] })}`)],
    ['a token without the scope the route needs', await get(rosterUrl('demographics'), `Bearer ${accepted}`)],
  ];
}

test.describe('rostering token failures', () => {
  test('every failed token check carries the stdx_ failure body saying the token is invalid or missing', rule('roster.roster-errors.token-failure-body'), async ({ request, world }) => {
    for (const [what, res] of await failedTokenChecks(request, world)) {
      await test.step(what, () => expectTokenFailureBody(res));
    }
  });

  test('a failed token check, or a tenantId claim other than the route tenant, is answered 401, not 403 or 500', rule('roster.roster-errors.unauthorized-is-401'), async ({ request, world }) => {
    for (const [what, res] of await failedTokenChecks(request, world)) expect(res.status(), what).toBe(401);
    if (!flowsDescription().tenant) return;
    const f = flow('tenant');
    const token = await tokenOn(request, 'tenant', district('tenant'), [{ id: f.instance }], f.otherTenant);
    expect((await orgsUnder(request, f.rostering, `/${f.dataTenant}`, token)).status(), 'another tenant\'s tenantId claim').toBe(401);
  });
});

test.describe('rostering errors', () => {
  test('a single read of an unknown sourcedId is 404 with the stdx_ body, on every endpoint', rule('roster.roster-errors.unknown-id-404', 'roster.roster-errors.status-envelope'), async ({ request, world }) => {
    const token = await seaToken(request, world);
    for (const e of ENDPOINTS) {
      for (const id of ['0123456789abcdef0123456789abcdef', 'no-such-record', '%20']) {
        await expectStatus(await request.get(rosterUrl(`${e.endpoint}/${id}`), { headers: bearer(token) }), 404);
      }
    }
  });

  test('an unknown path under the rostering prefix is 404 with the stdx_ body', rule('roster.roster-errors.unknown-path-404', 'roster.roster-errors.status-envelope'), async ({ request, world }) => {
    const token = await seaToken(request, world);
    for (const path of ['nosuchresource', 'nosuchresource/123', 'classes/x/students', 'orgs/x/y/z', '']) {
      await expectStatus(await request.get(rosterUrl(path), { headers: bearer(token) }), 404);
    }
    await expectStatus(await request.get(`${rosteringOrigin()}${PREFIX}`, { headers: bearer(token) }), 404);
  });

  test('bad input never gives a server error', rule('roster.roster-errors.status-envelope', 'roster.roster-errors.invalid-data-code-minor'), async ({ request, world }) => {
    const token = await seaToken(request, world);
    const queries = ['filter=%ZZ', `filter=${encodeURIComponent("name='\u0000'")}`, 'filter=', 'sort=', 'fields=', `filter=${encodeURIComponent(`name='${'x'.repeat(300)}'`)}`,
      `filter=${encodeURIComponent("roles='student'")}`, 'filter=filter=filter', 'limit=%00', 'offset=999999999999999999999', 'orderBy=', 'sort=name&sort=type'];
    for (const q of queries) {
      for (const path of ['orgs', 'users']) {
        const res = await request.get(rosterUrl(`${path}?${q}`), { headers: bearer(token) });
        expect(res.status(), `${path}?${q}: ${await res.text()}`).toBeLessThan(500);
        if (res.status() >= 400) await expectStatus(res, res.status());
      }
    }
    const odd = ['%E0%A4%A', '..%2F..%2Fetc', `${'x'.repeat(5000)}`];
    for (const id of odd) {
      const res = await request.get(rosterUrl(`orgs/${id}`), { headers: bearer(token) });
      expect(res.status(), id).toBeLessThan(500);
    }
  });
});

test.describe('rostering root', () => {
  test('GET / answers 200 with a discovery document naming the rostering prefix', rule('roster.roster-routing.root-discovery'), async ({ request }) => {
    const res = await request.get(`${rosteringOrigin()}/`);
    expect(res.status()).toBe(200);
    const body = (await res.json()) as { urls?: { rostering?: string } };
    expect(body.urls?.rostering).toContain(PREFIX);
  });
});
