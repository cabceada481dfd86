import { test, expect } from '../_harness/data.js';
import { contains } from '../_harness/checks.js';
import { rule } from '../_harness/rules.js';
import type { Builder } from '../_harness/builders.js';
import type { DataClient } from '../_harness/fixtures.js';
import { model } from '../_harness/judged-model.js';
import { LONG, meetingTimes } from '../_harness/long-collections.js';
import { inGroups } from '../_harness/groups.js';

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

/** POSTs a body with every member filled and expects GET by id to return each as written. */
async function roundTrip({ api, data }: { api: DataClient; data: Builder }, resource: string): Promise<void> {
  const created = await data.create(resource, {}, { full: true, shared: true });
  const res = await api.get(created.url);
  expect(res.status()).toBe(200);
  expect(contains(await res.json(), created.body)).toEqual([]);
}

test.describe('every listed field round-trips through POST and GET by id', () => {
  inGroups(seedResources, (resource) => {
    test(`returns every written field of ${resource} with its value and type`, rule('data.upsert.fields-round-trip'), ({ api, data }) => roundTrip({ api, data }, resource));
  });

  test(`returns every item of a long collection: a classPeriod written with ${LONG} meeting times reads back with all of them`, rule('data.upsert.fields-round-trip'), async ({ api, data }) => {
    const created = await data.create('classPeriod', { meetingTimes: meetingTimes(LONG) });
    const res = await api.get(created.url);
    expect(res.status()).toBe(200);
    const read = await res.json() as { meetingTimes?: unknown[] };
    expect(read.meetingTimes).toHaveLength(LONG);
    expect(contains(read, created.body)).toEqual([]);
  });
});


/** The rest of the data standard: every member of every other resource comes back as written. */
const otherResources = model.resources
  .filter((r) => !r.isDescriptor && !r.isSchoolYearEnumeration && !(seedResources as readonly string[]).includes(r.name))
  .map((r) => r.name);

test.describe('every member of the data standard round-trips through POST and GET by id', () => {
  inGroups(otherResources, (resource) => {
    test(`returns every written member of ${resource} with its value and type`, rule('data.upsert.upstream-members-round-trip'), ({ api, data }) => roundTrip({ api, data }, resource));
  });

  test('accepts an upstream-shaped School (educationOrganizationCategories) and reads it back equal', rule('data.upsert.upstream-members-round-trip'), async ({ api, data }) => {
    const body = await data.body('school');
    expect(Object.keys(body)).toContain('educationOrganizationCategories');
    const created = await data.post(model.byName.get('school')!, body);
    const read = await (await api.get(created.url)).json() as Record<string, unknown>;
    expect(contains(read, body)).toEqual([]);
    expect(read.categories).toBeUndefined();
  });
});
