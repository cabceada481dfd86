import { test, expect } from '../_harness/data.js';
import { availableChangeVersionsUrl, deletesOf, newestChangeVersion, since } from '../_harness/changes.js';
import type { DataClient } from '../_harness/fixtures.js';
import { rule } from '../_harness/rules.js';

/**
 * MinChangeVersion / MaxChangeVersion on GET collection, and the data store's change-version
 * counter (decisions #17). A record's change version is not part of its body, so tests locate it
 * through a marker: the version of a delete event, which shares the data store's one counter.
 */
const idsOf = async (res: { json: () => Promise<unknown> }) => ((await res.json()) as { id: string }[]).map((i) => i.id);

/** Deletes a fresh descriptor and answers the change version of that delete. */
async function marker(api: DataClient, data: { newDescriptor: (n: string) => Promise<{ id: string; url: string }> }): Promise<number> {
  const window = await since(api);
  const m = await data.newDescriptor('academicSubject');
  expect((await api.delete(m.url)).status()).toBe(204);
  return (await deletesOf(api, 'academicSubjectDescriptors', window)).find((i) => i.id === m.id)!.changeVersion;
}

test.describe('MinChangeVersion and MaxChangeVersion on GET collection', () => {
  test('returns only records whose last change version lies within the bounds', rule('data.change-queries.collection-change-version-filter'), async ({ api, data }) => {
    const old = await data.create('academicWeek');
    const schoolId = (old.body.schoolReference as { schoolId: number }).schoolId;
    const v = await marker(api, data);
    const recent = await data.create('academicWeek', { schoolReference: old.body.schoolReference });
    const after = await idsOf(await api.get(`academicWeeks?schoolId=${schoolId}&MinChangeVersion=${v + 1}`));
    expect(after).toEqual([recent.id]);
    const before = await idsOf(await api.get(`academicWeeks?schoolId=${schoolId}&MaxChangeVersion=${v}`));
    expect(before).toEqual([old.id]);
  });

  test('moves an updated record into a window that starts after its creation', rule('data.change-queries.collection-change-version-filter'), async ({ api, data }) => {
    const record = await data.create('academicWeek');
    const schoolId = (record.body.schoolReference as { schoolId: number }).schoolId;
    const v = await marker(api, data);
    expect(await idsOf(await api.get(`academicWeeks?schoolId=${schoolId}&MinChangeVersion=${v + 1}`))).toEqual([]);
    expect((await api.put(record.url, { ...record.body, totalInstructionalDays: 1 })).status()).toBe(204);
    expect(await idsOf(await api.get(`academicWeeks?schoolId=${schoolId}&MinChangeVersion=${v + 1}`))).toEqual([record.id]);
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
