import type { HttpClient } from '../_harness/http.js';
import { check, rule } from '../_harness/rules.js';
import { DEMOGRAPHIC_MEMBERS, ENDPOINTS, membersNamed, membersOutsideSchema } from './_support/schema.js';
import { allValues, expectWithheld, identity, readCollection, recordIn, type Rec } from './_support/read.js';
import { bearer, expectTokenFailure, itemUrl, rosterUrl, seaToken, tokenFor, type ScopeKey } from './_support/service.js';
import { test, expect } from './_support/test.js';
import type { World } from './_support/world.js';

/**
 * The scopes matrix (seed: Scopes): roster-core.readonly and roster.readonly open every resource
 * but /demographics; only roster-demographics.readonly opens /demographics. A read a token's
 * scopes do not open gives none of the data, and is answered 401 with the stdx_ failure body
 * (seed: "Failure of any check returns HTTP 401"; decision 36). Collections are the seed's paths;
 * single reads by sourcedId (not in the seed) are tried where the records carry one, and their
 * success is the single-read rule's (SHOULD).
 */
const core = ENDPOINTS.filter((e) => !e.demographics);
const demographics = ENDPOINTS.filter((e) => e.demographics);
const WRONG_SCOPE = 'roster.roster-scopes.wrong-scope-for-route-401';
const SINGLE = 'roster.roster-resources.single-envelope';

type Request = HttpClient;
const get = (request: Request, url: string, token: string) => request.get(url, { headers: bearer(token) });

/** The single read of a record the token opens answers 200 (SHOULD: the seed shows no item paths). */
async function readsOneRecord(request: Request, endpoint: string, records: Rec[], token: string): Promise<void> {
  const url = itemUrl(endpoint, records[0]);
  if (!url) return;
  await check(SINGLE, `answers one of the ${endpoint} by its sourcedId`, async () => {
    const res = await get(request, url, token);
    expect(res.status(), await res.text()).toBe(200);
  });
}

/**
 * A read the token's scopes do not open, on the collection and (where addressable) one item:
 * none of `records` given (the calling test's rule), and 401 with the stdx_ body (decision 36).
 */
async function refusedForScope(request: Request, endpoint: string, records: Rec[], token: string): Promise<void> {
  const urls = { collection: rosterUrl(endpoint), item: itemUrl(endpoint, records[0]) };
  for (const [kind, url] of Object.entries(urls)) {
    if (!url) continue;
    const res = await get(request, url, token);
    await expectWithheld(res, records, `GET ${url}`);
    await check(WRONG_SCOPE, `the ${endpoint} ${kind} is answered 401 with the stdx_ failure body`, () => expectTokenFailure(res));
  }
}

const tokenWith = (request: Request, world: World, scopes: ScopeKey[]) => seaToken(request, world, scopes);

test.describe('rostering scopes', () => {
  for (const e of core) {
    test(`roster-core.readonly reads ${e.endpoint}`, rule('roster.roster-scopes.core-scope-grants-core-resources', SINGLE), async ({ request, world }) => {
      const token = await tokenWith(request, world, ['core']);
      const records = await readCollection(request, rosterUrl(e.endpoint), token);
      await readsOneRecord(request, e.endpoint, records, token);
    });
  }

  test('roster.readonly reads every resource but demographics, the same records as roster-core.readonly', rule('roster.roster-scopes.roster-scope-same-as-core', SINGLE), async ({ request, world }) => {
    const [full, coreOnly] = await Promise.all([tokenWith(request, world, ['full']), tokenWith(request, world, ['core'])]);
    for (const e of core) {
      const viaFull = await readCollection(request, rosterUrl(e.endpoint), full);
      const viaCore = await readCollection(request, rosterUrl(e.endpoint), coreOnly);
      expect(viaFull.map(identity).sort(), `${e.endpoint}: roster.readonly sees what roster-core.readonly sees`).toEqual(viaCore.map(identity).sort());
      await readsOneRecord(request, e.endpoint, viaFull, full);
    }
  });

  for (const e of demographics) {
    test(`roster-demographics.readonly reads ${e.endpoint}`, rule('roster.roster-scopes.demographics-scope-grants-demographics', SINGLE), async ({ request, world }) => {
      const token = await tokenWith(request, world, ['demographics']);
      const records = await readCollection(request, rosterUrl(e.endpoint), token);
      await readsOneRecord(request, e.endpoint, records, token);
    });

    test(`roster-core.readonly, alone or with roster.readonly, gives no ${e.endpoint} data`, rule('roster.roster-scopes.demographics-needs-demographics-scope', WRONG_SCOPE), async ({ request, world }) => {
      const records = await readCollection(request, rosterUrl(e.endpoint), await tokenWith(request, world, ['demographics']));
      for (const scopes of [['core'], ['core', 'full']] as ScopeKey[][]) await refusedForScope(request, e.endpoint, records, await tokenWith(request, world, scopes));
    });

    test(`roster.readonly alone gives no ${e.endpoint} data`, rule('roster.roster-scopes.roster-scope-excludes-demographics', WRONG_SCOPE), async ({ request, world }) => {
      const records = await readCollection(request, rosterUrl(e.endpoint), await tokenWith(request, world, ['demographics']));
      await refusedForScope(request, e.endpoint, records, await tokenWith(request, world, ['full']));
    });
  }

  test('roster-demographics.readonly alone gives the data of none of the other resources', rule('roster.roster-scopes.others-need-core-or-roster-scope', WRONG_SCOPE), async ({ request, world }) => {
    const [reader, demographicsOnly] = await Promise.all([tokenWith(request, world, ['core']), tokenWith(request, world, ['demographics'])]);
    for (const e of core) await refusedForScope(request, e.endpoint, await readCollection(request, rosterUrl(e.endpoint), reader), demographicsOnly);
  });

  test('a token without the scope a route needs is answered 401 with the stdx_ failure body, on every resource\'s collection and item', rule(WRONG_SCOPE), async ({ request, world }) => {
    const tokens = Object.fromEntries(await Promise.all((['core', 'full', 'demographics'] as const).map(async (s) => [s, await tokenWith(request, world, [s])] as const)));
    for (const e of ENDPOINTS) {
      const opens = e.demographics ? tokens.demographics : tokens.core;
      const [one] = await readCollection(request, rosterUrl(e.endpoint), opens);
      // An item read is refused for its scope, whether or not the record exists.
      const urls = [rosterUrl(e.endpoint), itemUrl(e.endpoint, one) ?? rosterUrl(`${e.endpoint}/0123456789abcdef0123456789abcdef`)];
      for (const token of e.demographics ? [tokens.core, tokens.full] : [tokens.demographics]) {
        for (const url of urls) await expectTokenFailure(await get(request, url, token));
      }
    }
  });

  /**
   * What the core scopes open holds no demographics (seed: roster-core.readonly grants "the
   * non-demographic fields of users, students, teachers"; only roster-demographics.readonly opens
   * /demographics). The demographic members are the demographics schema's (interface description,
   * the 1.2 standard's), found in any letter case or separator spelling at any depth; a user
   * record holds only the 1.2 user schema's members, since one the standard does not define
   * (extensions go inside metadata) may be a demographic under a name of its own; and no record
   * holds a value the world wrote only as demographics (birth dates, a birth city), whatever the
   * member holding it is called. Read with every scope set that opens the resource (the
   * demographics scope beside them opens /demographics, not demographic fields elsewhere).
   */
  for (const e of core) {
    const people = e.type === 'user';
    test(`under every rostering scope, ${e.endpoint} records hold no member of the demographics record in any spelling, no value written only as demographics${people ? ' and no member outside the 1.2 user schema' : ''}`, rule('roster.roster-scopes.core-scope-no-demographic-fields'), async ({ request, world }) => {
      expect(DEMOGRAPHIC_MEMBERS.length, 'the demographics schema has members of its own').toBeGreaterThan(0);
      // The state agency's reader with each scope set, and a school's, which sees people under any reading of the claim.
      const tokens: [string, string][] = [
        ...await Promise.all((['core', 'full', 'demographics'] as const).map(async (s) => [s === 'demographics' ? 'core + demographics' : s, await tokenWith(request, world, s === 'demographics' ? ['core', 'demographics'] : [s])] as [string, string])),
        ['school A, core + demographics', await tokenFor(request, { orgs: [world.schoolA], scopes: ['core', 'demographics'] })],
      ];
      let seen = 0;
      for (const [scopes, token] of tokens) {
        const records = await readCollection(request, rosterUrl(e.endpoint), token);
        // Single reads too: every person's, one record of the other resources.
        const singles: Rec[] = [];
        for (const r of people ? records : records.slice(0, 1)) {
          const url = itemUrl(e.endpoint, r);
          const single = url ? recordIn(await (await get(request, url, token)).json().catch(() => undefined)) : undefined;
          if (single) singles.push(single);
        }
        for (const [i, r] of [...records, ...singles].entries()) {
          seen++;
          const what = `${scopes}: ${e.endpoint}${i >= records.length ? ' single read' : ''} ${identity(r)}`;
          expect(membersNamed(r, DEMOGRAPHIC_MEMBERS), `${what}: members of the demographics record`).toEqual([]);
          if (people) expect(membersOutsideSchema('user', r), `${what}: members the 1.2 user schema does not define`).toEqual([]);
          expect(allValues(r).filter((v) => world.demographicValues.includes(v)), `${what}: values written only as demographics`).toEqual([]);
        }
      }
      expect(seen, `the tokens see ${e.endpoint} (the world has them)`).toBeGreaterThan(0);
    });
  }
});
