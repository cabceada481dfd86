import { rule } from '../_harness/rules.js';
import { ENDPOINTS } from './_support/schema.js';
import { bearer, expectUnauthorized, list, rosterUrl, seaToken, type RosterRecord } from './_support/service.js';
import { test, expect } from './_support/test.js';

/**
 * The scopes matrix (seed: Scopes): roster-core.readonly and roster.readonly open every endpoint
 * but /demographics; only roster-demographics.readonly opens /demographics. Each endpoint is read
 * as a collection and as a single record; a refused read is 401 with the stdx_ body (decisions #23).
 */
const core = ENDPOINTS.filter((e) => !e.demographics);
const demographics = ENDPOINTS.filter((e) => e.demographics);

test.describe('rostering scopes', () => {
  for (const e of core) {
    test(`roster-core.readonly and roster.readonly read ${e.endpoint} and one of its records`, rule('roster.roster-scopes.core-scope-grants-core-resources', 'roster.roster-scopes.roster-scope-same-as-core', 'roster.roster-scopes.others-need-core-or-roster-scope', 'roster.roster-resources.resource-list'), async ({ request, world }) => {
      const full = await seaToken(request, world, ['full']);
      const coreOnly = await seaToken(request, world, ['core']);
      const viaCore = await list(request, e.endpoint, coreOnly, e.collectionKey);
      expect(viaCore.length, `the world has ${e.endpoint}`).toBeGreaterThan(0);
      expect(await list(request, e.endpoint, full, e.collectionKey), 'roster.readonly sees what roster-core.readonly sees').toEqual(viaCore);
      for (const token of [coreOnly, full]) {
        const res = await request.get(rosterUrl(`${e.endpoint}/${viaCore[0].sourcedId}`), { headers: bearer(token) });
        expect(res.status(), await res.text()).toBe(200);
      }
    });
  }

  test('roster-demographics.readonly alone opens none of the other endpoints', rule('roster.roster-scopes.others-need-core-or-roster-scope', 'roster.roster-scopes.wrong-scope-for-route-401', 'roster.roster-errors.unauthorized-is-401'), async ({ request, world }) => {
    const reader = await seaToken(request, world, ['core']);
    const demographicsOnly = await seaToken(request, world, ['demographics']);
    for (const e of core) {
      const [one] = await list(request, e.endpoint, reader, e.collectionKey);
      await expectUnauthorized(await request.get(rosterUrl(e.endpoint), { headers: bearer(demographicsOnly) }));
      await expectUnauthorized(await request.get(rosterUrl(`${e.endpoint}/${one.sourcedId}`), { headers: bearer(demographicsOnly) }));
    }
  });

  for (const e of demographics) {
    test(`roster-demographics.readonly reads ${e.endpoint} and one of its records`, rule('roster.roster-scopes.demographics-scope-grants-demographics', 'roster.roster-resources.resource-list'), async ({ request, world }) => {
      const token = await seaToken(request, world, ['demographics']);
      const items = await list(request, e.endpoint, token, e.collectionKey);
      expect(items.length, 'the world has demographics').toBeGreaterThan(0);
      const res = await request.get(rosterUrl(`${e.endpoint}/${items[0].sourcedId}`), { headers: bearer(token) });
      expect(res.status(), await res.text()).toBe(200);
    });

    test(`roster-core.readonly and roster.readonly do not open ${e.endpoint}`, rule('roster.roster-scopes.demographics-needs-demographics-scope', 'roster.roster-scopes.roster-scope-excludes-demographics', 'roster.roster-scopes.wrong-scope-for-route-401'), async ({ request, world }) => {
      const reader = await seaToken(request, world, ['demographics']);
      const [one] = await list(request, e.endpoint, reader, e.collectionKey);
      for (const scopes of [['core'], ['full'], ['core', 'full']] as const) {
        const token = await seaToken(request, world, [...scopes]);
        await expectUnauthorized(await request.get(rosterUrl(e.endpoint), { headers: bearer(token) }));
        await expectUnauthorized(await request.get(rosterUrl(`${e.endpoint}/${one.sourcedId}`), { headers: bearer(token) }));
      }
    });
  }

  test('users, students and teachers carry no demographic fields, whatever the scopes', rule('roster.roster-scopes.core-scope-no-demographic-fields'), async ({ request, world }) => {
    const demographicFields = ['birthDate', 'sex', 'americanIndianOrAlaskaNative', 'asian', 'blackOrAfricanAmerican', 'nativeHawaiianOrOtherPacificIslander', 'white',
      'demographicRaceTwoOrMoreRaces', 'hispanicOrLatinoEthnicity', 'countryOfBirthCode', 'stateOfBirthAbbreviation', 'cityOfBirth', 'publicSchoolResidenceStatus'];
    const demographicsReader = await seaToken(request, world, ['demographics']);
    const known = await list(request, 'demographics', demographicsReader, 'demographics');
    expect(known.some((d) => d.birthDate && d.sex), 'the world has students with demographics').toBe(true);
    for (const scopes of [['core'], ['full'], ['core', 'demographics']] as const) {
      const token = await seaToken(request, world, [...scopes]);
      for (const path of ['users', 'students', 'teachers']) {
        const users = await list(request, path, token, 'users');
        expect(users.length).toBeGreaterThan(0);
        const single = (await (await request.get(rosterUrl(`${path}/${users[0].sourcedId}`), { headers: bearer(token) })).json()).user as RosterRecord;
        for (const u of [...users, single]) {
          const leaked = demographicFields.filter((f) => f in u);
          expect(leaked, `${path} ${u.sourcedId} with ${scopes.join('+')}`).toEqual([]);
        }
      }
    }
  });
});
