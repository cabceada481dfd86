import type { HttpClient } from '../_harness/http.js';
import { check, rule } from '../_harness/rules.js';
import { bearer, expectStatus, getRecords, reservedOrganizations, rosterUrl, seaToken, tokenFor, type RosterRecord } from './_support/service.js';
import { recordsIn } from './_support/read.js';
import { ENDPOINTS } from './_support/schema.js';
import { test, expect } from './_support/test.js';
import type { World } from './_support/world.js';

/**
 * Query parameters (research §3, §4): limit, offset, sort/orderBy, fields and filter. Paging is
 * checked on a district with 501 schools, the worker fixture `pagingDistrict`
 * (_support/paging-district.ts); those tests run in one describe block, in order, so one worker
 * at a time holds the district.
 */
const page = async (request: HttpClient, query: string, token: string) =>
  (await getRecords(request, rosterUrl(`schools?${query}`), token));
const ids = (items: RosterRecord[]) => items.map((i) => i.sourcedId);

test.describe('rostering paging', () => {
  test.describe.configure({ mode: 'default' });

  test('answers at most 100 records when limit is omitted', rule('roster.roster-query.limit-default-100'), async ({ request, pagingDistrict: big }) => {
    const token = await tokenFor(request, { orgs: [reservedOrganizations().pagingLea], scopes: ['core'] });
    const items = await page(request, '', token);
    expect(items).toHaveLength(100);
    expect(await page(request, 'limit=150', token), 'more records exist than the default page').toHaveLength(150);
  });

  test('clamps a limit above the maximum page size to the maximum', rule('roster.roster-query.limit-above-maximum-clamped'), async ({ request, pagingDistrict: big }) => {
    const token = await tokenFor(request, { orgs: [reservedOrganizations().pagingLea], scopes: ['core'] });
    expect(big.schools).toBeGreaterThan(500);
    for (const limit of [501, 10_000]) expect(await page(request, `limit=${limit}`, token), `limit=${limit}`).toHaveLength(500);
  });

  test('offset skips records; pages are disjoint and walking them gives the whole set in sourcedId order', rule('roster.roster-query.offset-paging', 'roster.roster-query.default-order-sourcedid'), async ({ request, pagingDistrict: big }) => {
    const token = await tokenFor(request, { orgs: [reservedOrganizations().pagingLea], scopes: ['core'] });
    const first = await page(request, 'limit=500', token);
    const rest = await page(request, 'limit=500&offset=500', token);
    const all = [...ids(first), ...ids(rest)];
    expect(all).toHaveLength(big.schools);
    expect(new Set(all).size).toBe(all.length);
    expect(ids(await page(request, 'limit=50&offset=120', token))).toEqual(all.slice(120, 170));
    const walked: string[] = [];
    for (let offset = 0; ; offset += 37) {
      const items = await page(request, `limit=37&offset=${offset}`, token);
      if (!items.length) break;
      expect(items.length).toBeLessThanOrEqual(37);
      walked.push(...ids(items));
    }
    expect(walked, 'walking all pages gives the unpaged set, each record once').toEqual(all);
    expect(all, 'default order is sourcedId ascending').toEqual([...all].sort());
    expect(await page(request, `offset=${big.schools + 5}`, token), 'an offset past the end').toEqual([]);
  });

  test('sends X-Total-Count with the number of matching records on the first, a middle and the last page, and past the end', rule('roster.roster-query.total-count-header'), async ({ request, pagingDistrict: big }) => {
    const token = await tokenFor(request, { orgs: [reservedOrganizations().pagingLea], scopes: ['core'] });
    const pages = [['limit=200', 200], ['limit=200&offset=200', 200], ['limit=200&offset=400', big.schools - 400], [`limit=200&offset=${big.schools + 5}`, 0], ['', 100]] as const;
    for (const [query, length] of pages) {
      const res = await request.get(rosterUrl(`schools?${query}`), { headers: bearer(token) });
      expect(res.status(), query).toBe(200);
      expect(recordsIn(await res.json()), query).toHaveLength(length);
      expect(res.headers()['x-total-count'], query).toBe(String(big.schools));
    }
  });
});

test.describe('rostering query parameters', () => {
  const schoolsOf = async (request: HttpClient, world: World) => seaToken(request, world);

  test('refuses a limit that is zero, negative, not an integer or repeated with 400 invalid_data', rule('roster.roster-query.limit-invalid-400', 'roster.roster-errors.invalid-data-code-minor', 'roster.roster-errors.status-envelope'), async ({ request, world }) => {
    const token = await schoolsOf(request, world);
    for (const bad of ['limit=0', 'limit=-1', 'limit=abc', 'limit=1.5', 'limit=1e3', 'limit=10abc', 'limit=9223372036854775808', 'limit=1&limit=2']) {
      const body = await expectStatus(await request.get(rosterUrl(`orgs?${bad}`), { headers: bearer(token) }), 400, 'invalid_data');
      expect(body.stdx_description, bad).toMatch(/limit/);
    }
  });

  test('refuses an offset that is negative or not an integer with 400 invalid_data', rule('roster.roster-query.offset-paging', 'roster.roster-errors.invalid-data-code-minor'), async ({ request, world }) => {
    const token = await schoolsOf(request, world);
    for (const bad of ['offset=-1', 'offset=abc', 'offset=2.5', 'offset=1&offset=2']) {
      const body = await expectStatus(await request.get(rosterUrl(`orgs?${bad}`), { headers: bearer(token) }), 400, 'invalid_data');
      expect(body.stdx_description, bad).toMatch(/offset/);
    }
  });


  test('sort with orderBy asc or desc orders by that field', rule('roster.roster-query.sort-and-order-by'), async ({ request, world }) => {
    const token = await schoolsOf(request, world);
    const names = (items: RosterRecord[]) => items.map((o) => String(o.name));
    const asc = names((await getRecords(request, rosterUrl('orgs?sort=name&orderBy=asc'), token)));
    const desc = names((await getRecords(request, rosterUrl('orgs?sort=name&orderBy=desc'), token)));
    const plain = names((await getRecords(request, rosterUrl('orgs'), token)));
    expect(asc).toEqual([...plain].sort());
    expect(desc).toEqual([...plain].sort().reverse());
    expect(desc, 'orderBy changes the order').not.toEqual(asc);
    const family = ((await getRecords(request, rosterUrl('users?sort=familyName'), token))).map((u) => String(u.familyName));
    expect(family).toEqual([...family].sort());
  });

  test('refuses an unknown sort field or direction with 400 invalid_data', rule('roster.roster-errors.invalid-data-code-minor', 'roster.roster-query.sort-and-order-by'), async ({ request, world }) => {
    const token = await schoolsOf(request, world);
    for (const bad of ['sort=nosuchfield', 'sort=name&orderBy=sideways']) {
      await expectStatus(await request.get(rosterUrl(`orgs?${bad}`), { headers: bearer(token) }), 400, 'invalid_data');
    }
  });

  test('fields returns only the named fields of each record', rule('roster.roster-query.fields-selection'), async ({ request, world }) => {
    const token = await schoolsOf(request, world);
    const orgs = (await getRecords(request, rosterUrl('orgs?fields=sourcedId,name'), token));
    expect(orgs.length).toBeGreaterThan(1);
    for (const o of orgs) expect(Object.keys(o).sort()).toEqual(['name', 'sourcedId']);
    const users = (await getRecords(request, rosterUrl('users?fields=givenName'), token));
    for (const u of users) expect(Object.keys(u)).toEqual(['givenName']);
  });

  test('refuses a fields entry that is not a field of the resource with 400 invalid_data', rule('roster.roster-query.invalid-fields-400', 'roster.roster-errors.invalid-data-code-minor'), async ({ request, world }) => {
    const token = await schoolsOf(request, world);
    const body = await expectStatus(await request.get(rosterUrl('orgs?fields=sourcedId,nosuchfield'), { headers: bearer(token) }), 400, 'invalid_data');
    expect(body.stdx_description).toMatch(/nosuchfield/);
    await expectStatus(await request.get(rosterUrl('users?fields=birthDate'), { headers: bearer(token) }), 400, 'invalid_data');
  });

  test('filter takes quoted values with spaces and joins predicates with AND and OR', rule('roster.roster-query.filter-grammar'), async ({ request, world }) => {
    const token = await schoolsOf(request, world);
    const filter = async (path: string, expr: string, collection = path) =>
      (await getRecords(request, rosterUrl(`${path}?filter=${encodeURIComponent(expr)}`), token));
    expect((await filter('orgs', `status='active' AND name='${world.names.schoolA}'`)).map((o) => o.identifier)).toEqual([String(world.schoolA)]);
    expect((await filter('orgs', `identifier='${world.schoolA}' OR identifier='${world.schoolC}'`)).map((o) => Number(o.identifier)).sort()).toEqual([world.schoolA, world.schoolC].sort());
    // AND binds tighter than OR.
    expect((await filter('orgs', `type='district' AND identifier='${world.schoolA}' OR identifier='${world.schoolB}'`)).map((o) => Number(o.identifier))).toEqual([world.schoolB]);
    expect((await filter('orgs', `type = "school" and name = '${world.names.schoolC}'`)).map((o) => Number(o.identifier))).toEqual([world.schoolC]);

    // Every operator, against what the same comparison gives on the unfiltered collection.
    const sessions = (await getRecords(request, rosterUrl('academicSessions'), token));
    const pivot = `${world.year - 1}-08-20`;
    const ops: [string, (v: string) => boolean][] = [
      ['=', (v) => v === pivot], ['!=', (v) => v !== pivot], ['>', (v) => v > pivot], ['>=', (v) => v >= pivot], ['<', (v) => v < pivot], ['<=', (v) => v <= pivot],
    ];
    for (const [op, holds] of ops) {
      const expected = sessions.filter((s) => holds(String(s.startDate))).map((s) => s.sourcedId);
      const got = (await filter('academicSessions', `startDate${op}'${pivot}'`)).map((s) => s.sourcedId);
      expect(got, `startDate${op}'${pivot}'`).toEqual(expected);
    }
    expect(sessions.some((s) => String(s.startDate) > pivot) && sessions.some((s) => s.startDate === pivot), 'the pivot splits the sessions').toBe(true);
  });

  test('the ~ operator is a case-insensitive substring match', rule('roster.roster-query.filter-contains-case-insensitive', 'roster.roster-query.filter-grammar'), async ({ request, world }) => {
    const token = await schoolsOf(request, world);
    const tag = world.names.schoolA.split(' ').pop()!;
    const got = async (expr: string) => ((await getRecords(request, rosterUrl(`orgs?filter=${encodeURIComponent(expr)}`), token))).map((o) => Number(o.identifier)).sort();
    expect(await got(`name~'grand bend high school ${tag.toLowerCase()}'`)).toEqual([world.schoolA]);
    expect(await got(`name~'GRAND BEND'`)).toEqual([world.lea1, world.schoolA, world.schoolB].sort());
  });

  test('refuses a filter on an unknown or unfilterable field, with an unsupported operator or with too many clauses', rule('roster.roster-query.filter-invalid-400', 'roster.roster-errors.invalid-data-code-minor'), async ({ request, world }) => {
    const token = await schoolsOf(request, world);
    const clauses = Array.from({ length: 21 }, (_, i) => `identifier='${i}'`).join(' OR ');
    for (const bad of [`nosuchfield='x'`, `parent='x'`, `name=='x'`, `name<>'x'`, `name LIKE 'x'`, clauses, `name='unclosed`, `name='x' AND`, `name='x' XOR type='school'`]) {
      await expectStatus(await request.get(rosterUrl(`orgs?filter=${encodeURIComponent(bad)}`), { headers: bearer(token) }), 400, 'invalid_data');
    }
    // Twenty clauses are fine.
    const twenty = Array.from({ length: 20 }, (_, i) => `identifier='${i}'`).join(' OR ');
    expect((await request.get(rosterUrl(`orgs?filter=${encodeURIComponent(twenty)}`), { headers: bearer(token) })).status()).toBe(200);
  });

  test('an OR in the filter never returns records outside the caller\'s organizations or the endpoint\'s subset', rule('roster.roster-query.filter-cannot-widen-visibility'), async ({ request, world }) => {
    const schoolB = await tokenFor(request, { orgs: [world.schoolB], scopes: ['core', 'demographics'] });
    const got = async (path: string, expr: string) => ((await getRecords(request, rosterUrl(`${path}?filter=${encodeURIComponent(expr)}`), schoolB))).map((o) => Number(o.identifier));
    expect(await got('orgs', `identifier='${world.schoolA}' OR identifier='${world.schoolB}'`)).toEqual([world.schoolB]);
    expect(await got('orgs', `status='active' OR status!='active'`)).toEqual([world.schoolB]);
    const lea = await tokenFor(request, { orgs: [world.lea1], scopes: ['core', 'demographics'] });
    const schools = ((await getRecords(request, rosterUrl(`schools?filter=${encodeURIComponent(`type='district' OR type='school'`)}`), lea))).map((o) => o.type);
    expect(schools.length).toBeGreaterThan(0);
    expect(new Set(schools)).toEqual(new Set(['school']));
  });
});

/**
 * The query parameters on every collection: the interface description gives each of them the same
 * ones (limit, offset, sort, orderBy, filter, fields), and the tests above try most of them on a
 * few collections (orgs, users, sessions, schools); these send each to every collection it
 * declares, with the state agency's reader, which sees records in all of them.
 */
test.describe('query parameters on every collection', () => {
  /** A check of another rule to make once the requests are done (checks run one at a time). */
  type Later = { rule: string; title: string; run: () => Promise<unknown> };
  type Each = (e: (typeof ENDPOINTS)[number], all: RosterRecord[], token: string) => Promise<Later[] | void>;
  async function everyCollection(request: HttpClient, world: World, body: Each): Promise<void> {
    const token = await seaToken(request, world);
    // The collections side by side (each one's requests in order): a local run spends its time waiting.
    const later = await Promise.all(ENDPOINTS.map(async (e) => {
      const all = await getRecords(request, rosterUrl(`${e.endpoint}?limit=500`), token);
      expect(all.length, `the world has ${e.endpoint}`).toBeGreaterThan(0);
      return (await body(e, all, token)) ?? [];
    }));
    for (const c of later.flat()) await check(c.rule, c.title, c.run);
  }
  const get = (request: HttpClient, path: string, token: string) => request.get(rosterUrl(path), { headers: bearer(token) });

  test('orders every collection by sourcedId ascending without sort', rule('roster.roster-query.default-order-sourcedid'), async ({ request, world }) => {
    await everyCollection(request, world, async (e, all) => { expect(ids(all), e.endpoint).toEqual([...ids(all)].sort()); });
  });

  test('refuses a limit that is zero, not an integer or repeated with 400 invalid_data on every collection', rule('roster.roster-query.limit-invalid-400', 'roster.roster-errors.invalid-data-code-minor'), async ({ request, world }) => {
    await everyCollection(request, world, async (e, _all, token) => {
      for (const bad of ['limit=0', 'limit=abc', 'limit=1&limit=2']) await expectStatus(await get(request, `${e.endpoint}?${bad}`, token), 400, 'invalid_data');
    });
  });

  test('offset skips records on every collection, and a negative or non-integer offset is 400 invalid_data', rule('roster.roster-query.offset-paging', 'roster.roster-errors.invalid-data-code-minor'), async ({ request, world }) => {
    await everyCollection(request, world, async (e, all, token) => {
      for (const offset of new Set([0, Math.floor(all.length / 2), all.length - 1, all.length])) {
        const page = ids(await getRecords(request, rosterUrl(`${e.endpoint}?limit=1&offset=${offset}`), token));
        expect(page, `${e.endpoint}?limit=1&offset=${offset}`).toEqual(ids(all).slice(offset, offset + 1));
      }
      for (const bad of ['offset=-1', 'offset=abc']) await expectStatus(await get(request, `${e.endpoint}?${bad}`, token), 400, 'invalid_data');
    });
  });

  test('sort=sourcedId with orderBy desc and asc orders every collection', rule('roster.roster-query.sort-and-order-by'), async ({ request, world }) => {
    await everyCollection(request, world, async (e, all, token) => {
      const sorted = [...ids(all)].sort();
      expect(ids(await getRecords(request, rosterUrl(`${e.endpoint}?sort=sourcedId&orderBy=desc`), token)), e.endpoint).toEqual([...sorted].reverse());
      expect(ids(await getRecords(request, rosterUrl(`${e.endpoint}?sort=sourcedId&orderBy=asc`), token)), e.endpoint).toEqual(sorted);
    });
  });

  test('fields returns only the named fields on every collection, and an unknown one is 400 invalid_data', rule('roster.roster-query.fields-selection', 'roster.roster-query.invalid-fields-400'), async ({ request, world }) => {
    await everyCollection(request, world, async (e, _all, token) => {
      const items = await getRecords(request, rosterUrl(`${e.endpoint}?fields=sourcedId,status&limit=500`), token);
      expect(items.length, e.endpoint).toBeGreaterThan(0);
      for (const r of items) expect(Object.keys(r).sort(), `${e.endpoint} ${r.sourcedId}`).toEqual(['sourcedId', 'status']);
      const res = await get(request, `${e.endpoint}?fields=sourcedId,nosuchfield`, token);
      return [{ rule: 'roster.roster-query.invalid-fields-400', title: `${e.endpoint}?fields=sourcedId,nosuchfield is 400 invalid_data`, run: () => expectStatus(res, 400, 'invalid_data') }];
    });
  });

  test('filter on sourcedId finds exactly that record on every collection, and a filter on an unknown field is 400 invalid_data', rule('roster.roster-query.filter-grammar', 'roster.roster-query.filter-invalid-400'), async ({ request, world }) => {
    await everyCollection(request, world, async (e, all, token) => {
      const one = all[all.length - 1].sourcedId;
      expect(ids(await getRecords(request, rosterUrl(`${e.endpoint}?filter=${encodeURIComponent(`sourcedId='${one}'`)}`), token)), e.endpoint).toEqual([one]);
      const res = await get(request, `${e.endpoint}?filter=${encodeURIComponent("nosuchfield='x'")}`, token);
      return [{ rule: 'roster.roster-query.filter-invalid-400', title: `${e.endpoint}?filter=nosuchfield='x' is 400 invalid_data`, run: () => expectStatus(res, 400, 'invalid_data') }];
    });
  });

  test('sends X-Total-Count with the number of matching records on every collection, whatever the page', rule('roster.roster-query.total-count-header'), async ({ request, world }) => {
    await everyCollection(request, world, async (e, all, token) => {
      for (const query of ['limit=500', 'limit=1', `limit=1&offset=${all.length}`]) {
        const res = await get(request, `${e.endpoint}?${query}`, token);
        expect(res.status(), `${e.endpoint}?${query}`).toBe(200);
        expect(res.headers()['x-total-count'], `${e.endpoint}?${query}`).toBe(String(all.length));
      }
    });
  });
});
