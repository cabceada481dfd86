import { test, expect } from '../_harness/data.js';
import { availableChangeVersionsUrl, newestChangeVersion, newestIfOffered, reachOf } from '../_harness/changes.js';
import type { DataClient } from '../_harness/fixtures.js';
import { rule } from '../_harness/rules.js';

/**
 * MinChangeVersion / MaxChangeVersion on GET collection, and the data store's change-version
 * counter (decisions #17). A record's change version is not part of its body, and the seed shows
 * neither whether the bounds are inclusive nor any feed item field, so the MUST tests ask the
 * filter itself which bounds reach a record (reachOf, through `?id=`).
 */
const idsOf = async (res: { json: () => Promise<unknown> }) => ((await res.json()) as { id: string }[]).map((i) => i.id);

/** Whether GET collection lists the record with this id under `query`. */
const listedById = (api: DataClient, resource: string, id: string) =>
  async (query: string) => (await idsOf(await api.get(`${resource}?id=${id}&${query}`))).includes(id);

test.describe('MinChangeVersion and MaxChangeVersion on GET collection', () => {
  test('returns only records whose last change version lies within the bounds', rule('data.change-queries.collection-change-version-filter'), async ({ api, data }) => {
    const before = await newestIfOffered(api);
    const old = await data.create('academicWeek');
    const recent = await data.create('academicWeek', { schoolReference: old.body.schoolReference });
    const after = await newestIfOffered(api);
    const [oldListed, recentListed] = [listedById(api, 'academicWeeks', old.id), listedById(api, 'academicWeeks', recent.id)];
    const [ro, rr] = [await reachOf(oldListed, before, after), await reachOf(recentListed, before, after)];
    expect(await recentListed(`MaxChangeVersion=${ro.max}`), `MaxChangeVersion=${ro.max} leaves out the later record`).toBe(false);
    expect(await oldListed(`MinChangeVersion=${rr.min}`), `MinChangeVersion=${rr.min} leaves out the earlier record`).toBe(false);
    // Without ?id=, both bounds together select the earlier record among the school's weeks.
    const schoolId = (old.body.schoolReference as { schoolId: number }).schoolId;
    expect(await idsOf(await api.get(`academicWeeks?schoolId=${schoolId}&MinChangeVersion=${ro.min}&MaxChangeVersion=${ro.max}`))).toEqual([old.id]);
  });

  test('moves an updated record into a window that starts after its creation', rule('data.change-queries.collection-change-version-filter'), async ({ api, data }) => {
    const before = await newestIfOffered(api);
    const record = await data.create('academicWeek');
    const later = await data.create('academicWeek', { schoolReference: record.body.schoolReference });
    const listed = listedById(api, 'academicWeeks', record.id);
    const { min } = await reachOf(listedById(api, 'academicWeeks', later.id), before, await newestIfOffered(api));
    expect(await listed(`MinChangeVersion=${min}`), 'before its update the record lies before the window').toBe(false);
    expect((await api.put(record.url, { ...record.body, totalInstructionalDays: 1 })).status()).toBe(204);
    expect(await listed(`MinChangeVersion=${min}`), 'after its update the record lies in the window').toBe(true);
  });

  test('treats MinChangeVersion and MaxChangeVersion as inclusive bounds on the last change version', rule('data.change-queries.collection-bounds-inclusive'), async ({ api, data }) => {
    const low = await newestChangeVersion(api);
    const record = await data.create('academicWeek');
    const high = await newestChangeVersion(api);
    const present = async (query: string) => (await idsOf(await api.get(`academicWeeks?id=${record.id}&${query}`))).includes(record.id);
    // The smallest MaxChangeVersion that includes the record is its change version when the bound is inclusive.
    let [lo, hi] = [low, high];
    expect(await present(`MaxChangeVersion=${hi}`)).toBe(true);
    while (lo < hi) {
      const mid = Math.floor((lo + hi) / 2);
      if (await present(`MaxChangeVersion=${mid}`)) hi = mid;
      else lo = mid + 1;
    }
    const version = hi;
    expect(version).toBeGreaterThan(low);
    expect(await present(`MinChangeVersion=${version}`)).toBe(true);
    expect(await present(`MinChangeVersion=${version + 1}`)).toBe(false);
    expect(await present(`MinChangeVersion=${version}&MaxChangeVersion=${version}`)).toBe(true);
  });
});

test.describe('GET /changeQueries/v1/availableChangeVersions', () => {
  test('answers {oldestChangeVersion, newestChangeVersion}, newest growing after a change', rule('data.change-queries.available-change-versions'), async ({ api, data }) => {
    const res = await api.get(availableChangeVersionsUrl());
    expect(res.status()).toBe(200);
    const body = (await res.json()) as { oldestChangeVersion: unknown; newestChangeVersion: unknown };
    expect(Number.isInteger(body.oldestChangeVersion)).toBe(true);
    expect(Number.isInteger(body.newestChangeVersion)).toBe(true);
    await data.create('academicWeek');
    expect(await newestChangeVersion(api)).toBeGreaterThan(body.newestChangeVersion as number);
  });

  test('advances newestChangeVersion on a create, an update and a delete', rule('data.change-queries.change-version-monotonic'), async ({ api, data }) => {
    const v0 = await newestChangeVersion(api);
    const record = await data.create('academicWeek');
    const v1 = await newestChangeVersion(api);
    await api.put(record.url, { ...record.body, totalInstructionalDays: 1 });
    const v2 = await newestChangeVersion(api);
    await api.delete(record.url);
    const v3 = await newestChangeVersion(api);
    expect(v1).toBeGreaterThan(v0);
    expect(v2).toBeGreaterThan(v1);
    expect(v3).toBeGreaterThan(v2);
  });
});
