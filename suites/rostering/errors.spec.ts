import { rule } from '../_harness/rules.js';
import { ENDPOINTS } from './_support/schema.js';
import { PREFIX, bearer, expectStatus, rosterUrl, rosteringOrigin, seaToken } from './_support/service.js';
import { test, expect } from './_support/test.js';

/** Error responses of the rostering service: unknown records and paths, and the stdx_ envelope. */
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
