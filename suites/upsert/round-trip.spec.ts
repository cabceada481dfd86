import { test, expect } from '../_harness/data.js';
import { contains } from '../_harness/checks.js';
import { rule } from '../_harness/rules.js';

/**
 * Every field the seed lists for a resource is accepted on write and comes back from GET by id
 * with the value and JSON type written. Bodies are built from the model with every member filled
 * (optional members, references and one item per collection included).
 */
const seedResources = [
  'academicWeek', 'accountabilityRating', 'assessment', 'assessmentItem', 'balanceSheetDimension', 'bellSchedule',
  'calendar', 'calendarDate', 'chartOfAccount', 'classPeriod', 'cohort', 'communityOrganization', 'communityProvider',
  'communityProviderLicense', 'course', 'courseOffering', 'courseTranscript', 'credential',
] as const;

test.describe('every listed field round-trips through POST and GET by id', () => {
  for (const resource of seedResources) {
    test(`returns every written field of ${resource} with its value and type`, rule('data.upsert.fields-round-trip'), async ({ api, data }) => {
      const created = await data.create(resource, {}, { full: true });
      const res = await api.get(created.url);
      expect(res.status()).toBe(200);
      expect(contains(await res.json(), created.body)).toEqual([]);
    });
  }
});

