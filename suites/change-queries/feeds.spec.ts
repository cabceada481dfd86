import { test, expect, target } from '../_harness/data.js';
import { deletesOf, eventsOf, keyChangesOf, newestIfOffered, reachOf, since } from '../_harness/changes.js';
import type { DataClient } from '../_harness/fixtures.js';
import { expectProblem } from '../_harness/problem.js';
import { rule } from '../_harness/rules.js';

/**
 * The /deletes and /keyChanges feeds (seed: What the service does; decisions #17, #18). Tests
 * look only at entries for records they created; other tests write concurrently. The MUST tests
 * find an entry by the record's id or a key value it wrote, wherever it appears in the item (the
 * seed shows no item fields); the item shape is SHOULD (decision 18).
 */

/** Whether a feed lists an event speaking of `marks` under `query`. */
const listedIn = (api: DataClient, endpoint: string, feed: 'deletes' | 'keyChanges', marks: string[]) =>
  async (query: string) => (await eventsOf(api, endpoint, feed, marks, `?${query}`)).length > 0;
test.describe('GET /core/<resource>/deletes', () => {
  test('lists a record deleted through the API', rule('data.change-queries.deletes-feed-offered'), async ({ api, data }) => {
    const window = await since(api);
    const created = await data.create('academicWeek');
    expect((await api.delete(created.url)).status()).toBe(204);
    expect(await eventsOf(api, 'academicWeeks', 'deletes', [created.id, created.body.weekIdentifier as string], window)).not.toEqual([]);
  });

  test('shapes each item as {id, changeVersion, keyValues}', rule('data.change-queries.deletes-item-shape'), async ({ api, data }) => {
    const window = await since(api);
    const created = await data.create('academicWeek');
    await api.delete(created.url);
    const item = (await deletesOf(api, 'academicWeeks', window)).find((i) => i.id === created.id);
    expect(item).toBeDefined();
    expect(Object.keys(item!).sort()).toEqual(['changeVersion', 'id', 'keyValues']);
    expect(typeof item!.id).toBe('string');
    expect(Number.isInteger(item!.changeVersion)).toBe(true);
    expect(typeof item!.keyValues).toBe('object');
  });

  test('keys keyValues by the natural-key query-parameter names', rule('data.change-queries.key-values-query-names'), async ({ api, data }) => {
    const window = await since(api);
    const created = await data.create('academicWeek');
    await api.delete(created.url);
    const item = (await deletesOf(api, 'academicWeeks', window)).find((i) => i.id === created.id);
    expect(item?.keyValues).toEqual({ weekIdentifier: created.body.weekIdentifier, schoolId: (created.body.schoolReference as { schoolId: number }).schoolId });
  });

  test('writes date key members as yyyy-mm-dd', rule('data.change-queries.key-value-formats'), async ({ api, data }) => {
    const window = await since(api);
    const created = await data.create('calendarDate', { date: '2024-09-03' });
    await api.delete(created.url);
    const item = (await deletesOf(api, 'calendarDates', window)).find((i) => i.id === created.id);
    expect(item?.keyValues.date).toBe('2024-09-03');
  });

  test('writes descriptor key members as full <namespace>#<codeValue> values', rule('data.change-queries.key-value-formats'), async ({ api, data }) => {
    const window = await since(api);
    const created = await data.create('credential');
    await api.delete(created.url);
    const item = (await deletesOf(api, 'credentials', window)).find((i) => i.id === created.id);
    expect(item?.keyValues.stateOfIssueStateAbbreviationDescriptor).toBe(created.body.stateOfIssueStateAbbreviationDescriptor);
  });

  test('does not list a record re-created afterwards with the same natural key', rule('data.change-queries.deletes-exclude-recreated'), async ({ api, data }) => {
    const window = await since(api);
    const created = await data.create('academicWeek');
    await api.delete(created.url);
    const again = await api.create('academicWeeks', created.body);
    expect(again.id).not.toBe(created.id);
    expect((await deletesOf(api, 'academicWeeks', window)).map((i) => i.id)).not.toContain(created.id);
  });

  test('refuses an out-of-range limit or a negative offset with 400 parameter-validation-failed', rule('data.change-queries.feed-invalid-limit-400'), async ({ api }) => {
    await expectProblem(await api.get(`academicWeeks/deletes?limit=${target.dataApi.pageSizeMaximum + 1}`), 'bad-request:parameter-validation-failed');
    await expectProblem(await api.get('academicWeeks/keyChanges?offset=-1'), 'bad-request:parameter-validation-failed');
  });

  test('accepts offset, limit, MinChangeVersion, MaxChangeVersion, totalCount and Use-Snapshot: false', rule('data.change-queries.feed-parameters'), async ({ api }) => {
    for (const f of ['deletes', 'keyChanges']) {
      const res = await api.get(`academicWeeks/${f}?offset=0&limit=10&MinChangeVersion=0&MaxChangeVersion=999999999&totalCount=true`, { 'Use-Snapshot': 'false' });
      expect(res.status(), f).toBe(200);
      expect(Array.isArray(await res.json())).toBe(true);
    }
  });

  test('adds a Total-Count header holding the number of matching events regardless of limit', rule('data.query-paging.total-count-header'), async ({ api, data }) => {
    // accountabilityRatings: no test re-creates a deleted one, so past events stay put.
    const window = await since(api);
    const a = await data.create('accountabilityRating');
    const b = await data.create('accountabilityRating', { educationOrganizationReference: a.body.educationOrganizationReference });
    await api.delete(a.url);
    await api.delete(b.url);
    const items = await deletesOf(api, 'accountabilityRatings', window);
    const va = items.find((i) => i.id === a.id)!.changeVersion;
    const vb = items.find((i) => i.id === b.id)!.changeVersion;
    const between = items.filter((i) => i.changeVersion >= va && i.changeVersion <= vb).length;
    const res = await api.get(`accountabilityRatings/deletes?MinChangeVersion=${va}&MaxChangeVersion=${vb}&totalCount=true&limit=1`);
    expect(res.headers()['total-count']).toBe(String(between));
    expect(between).toBeGreaterThanOrEqual(2);
    expect((await res.json()).length).toBe(1);
  });
});

test.describe('GET /core/<resource>/keyChanges', () => {
  test('lists a record whose natural key was changed by PUT', rule('data.change-queries.key-changes-feed-offered'), async ({ api, data }) => {
    const window = await since(api);
    const created = await data.create('classPeriod');
    const renamed = `${created.body.classPeriodName as string}r`;
    expect((await api.put(created.url, { ...created.body, classPeriodName: renamed })).status()).toBe(204);
    expect(await eventsOf(api, 'classPeriods', 'keyChanges', [created.id, renamed], window)).not.toEqual([]);
  });

  test('shapes each item as {id, changeVersion, oldKeyValues, newKeyValues}', rule('data.change-queries.key-changes-item-shape'), async ({ api, data }) => {
    const window = await since(api);
    const created = await data.create('classPeriod');
    const renamed = `${created.body.classPeriodName as string}r`;
    await api.put(created.url, { ...created.body, classPeriodName: renamed });
    const item = (await keyChangesOf(api, 'classPeriods', window)).find((i) => i.id === created.id);
    expect(Object.keys(item ?? {}).sort()).toEqual(['changeVersion', 'id', 'newKeyValues', 'oldKeyValues']);
    expect(item?.oldKeyValues).toMatchObject({ classPeriodName: created.body.classPeriodName });
    expect(item?.newKeyValues).toMatchObject({ classPeriodName: renamed });
  });

  test('lists a record whose key changed twice once, with the oldest old and the newest new values', rule('data.change-queries.key-changes-collapsed'), async ({ api, data }) => {
    const window = await since(api);
    const created = await data.create('classPeriod');
    const name = created.body.classPeriodName as string;
    await api.put(created.url, { ...created.body, classPeriodName: `${name}1` });
    await api.put(created.url, { ...created.body, classPeriodName: `${name}2` });
    const mine = (await keyChangesOf(api, 'classPeriods', window)).filter((i) => i.id === created.id);
    expect(mine.length).toBe(1);
    expect(mine[0].oldKeyValues.classPeriodName).toBe(name);
    expect(mine[0].newKeyValues.classPeriodName).toBe(`${name}2`);
  });
});

test.describe('change versions on the feeds', () => {
  // Two changes a then b: the bounds that reach each (reachOf) must tell them apart both ways.
  test('returns only /deletes entries whose change version lies within MinChangeVersion and MaxChangeVersion', rule('data.change-queries.feeds-filter-by-change-version'), async ({ api, data }) => {
    const before = await newestIfOffered(api);
    const a = await data.create('academicWeek');
    const b = await data.create('academicWeek', { schoolReference: a.body.schoolReference });
    expect((await api.delete(a.url)).status()).toBe(204);
    expect((await api.delete(b.url)).status()).toBe(204);
    const after = await newestIfOffered(api);
    const aListed = listedIn(api, 'academicWeeks', 'deletes', [a.id, a.body.weekIdentifier as string]);
    const bListed = listedIn(api, 'academicWeeks', 'deletes', [b.id, b.body.weekIdentifier as string]);
    const [ra, rb] = [await reachOf(aListed, before, after), await reachOf(bListed, before, after)];
    expect(await bListed(`MaxChangeVersion=${ra.max}`), `MaxChangeVersion=${ra.max} lists the earlier deletion only`).toBe(false);
    expect(await aListed(`MinChangeVersion=${rb.min}`), `MinChangeVersion=${rb.min} lists the later deletion only`).toBe(false);
    expect(await aListed(`MinChangeVersion=${ra.min}&MaxChangeVersion=${ra.max}`), 'both bounds at once').toBe(true);
    expect(await bListed(`MinChangeVersion=${ra.min}&MaxChangeVersion=${ra.max}`), 'both bounds at once').toBe(false);
  });

  test('returns only /keyChanges entries whose change version lies within MinChangeVersion and MaxChangeVersion', rule('data.change-queries.feeds-filter-by-change-version'), async ({ api, data }) => {
    const before = await newestIfOffered(api);
    const a = await data.create('classPeriod');
    const b = await data.create('classPeriod', { schoolReference: a.body.schoolReference });
    const [aName, bName] = [`${a.body.classPeriodName as string}r`, `${b.body.classPeriodName as string}r`];
    expect((await api.put(a.url, { ...a.body, classPeriodName: aName })).status()).toBe(204);
    expect((await api.put(b.url, { ...b.body, classPeriodName: bName })).status()).toBe(204);
    const after = await newestIfOffered(api);
    const aListed = listedIn(api, 'classPeriods', 'keyChanges', [a.id, aName]);
    const bListed = listedIn(api, 'classPeriods', 'keyChanges', [b.id, bName]);
    const [ra, rb] = [await reachOf(aListed, before, after), await reachOf(bListed, before, after)];
    expect(await bListed(`MaxChangeVersion=${ra.max}`), `MaxChangeVersion=${ra.max} lists the earlier key change only`).toBe(false);
    expect(await aListed(`MinChangeVersion=${rb.min}`), `MinChangeVersion=${rb.min} lists the later key change only`).toBe(false);
  });

  test('treats MinChangeVersion and MaxChangeVersion on the feeds as inclusive bounds', rule('data.change-queries.feed-bounds-inclusive'), async ({ api, data }) => {
    const window = await since(api);
    const created = await data.create('academicWeek');
    await api.delete(created.url);
    const v = (await deletesOf(api, 'academicWeeks', window)).find((i) => i.id === created.id)!.changeVersion;
    const exact = await deletesOf(api, 'academicWeeks', `?MinChangeVersion=${v}&MaxChangeVersion=${v}`);
    expect(exact.map((i) => i.id)).toEqual([created.id]);
  });

  test('orders feed items by changeVersion ascending', rule('data.change-queries.feed-order-ascending'), async ({ api, data }) => {
    const window = await since(api);
    const a = await data.create('academicWeek');
    const b = await data.create('academicWeek', { schoolReference: a.body.schoolReference });
    await api.delete(b.url);
    await api.delete(a.url);
    const items = await deletesOf(api, 'academicWeeks', window);
    const versions = items.map((i) => i.changeVersion);
    expect(versions).toEqual([...versions].sort((x, y) => x - y));
    expect(items.findIndex((i) => i.id === b.id)).toBeLessThan(items.findIndex((i) => i.id === a.id));
  });

  test('orders /keyChanges items by changeVersion ascending', rule('data.change-queries.feed-order-ascending'), async ({ api, data }) => {
    const window = await since(api);
    const a = await data.create('classPeriod');
    const b = await data.create('classPeriod', { schoolReference: a.body.schoolReference });
    await api.put(b.url, { ...b.body, classPeriodName: `${b.body.classPeriodName as string}r` });
    await api.put(a.url, { ...a.body, classPeriodName: `${a.body.classPeriodName as string}r` });
    const items = await keyChangesOf(api, 'classPeriods', window);
    const versions = items.map((i) => i.changeVersion);
    expect(versions).toEqual([...versions].sort((x, y) => x - y));
    expect(items.findIndex((i) => i.id === b.id)).toBeGreaterThanOrEqual(0);
    expect(items.findIndex((i) => i.id === b.id)).toBeLessThan(items.findIndex((i) => i.id === a.id));
  });

  test('gives each change the next value of one data-store-wide, increasing change version', rule('data.change-queries.change-version-monotonic'), async ({ api, data }) => {
    const window = await since(api);
    const week = await data.create('academicWeek');
    const period = await data.create('classPeriod', { schoolReference: week.body.schoolReference });
    const subject = await data.newDescriptor('academicSubject');
    await api.delete(week.url);
    await api.put(period.url, { ...period.body, classPeriodName: `${period.body.classPeriodName as string}r` });
    await api.delete(subject.url);
    const v1 = (await deletesOf(api, 'academicWeeks', window)).find((i) => i.id === week.id)!.changeVersion;
    const v2 = (await keyChangesOf(api, 'classPeriods', window)).find((i) => i.id === period.id)!.changeVersion;
    const v3 = (await deletesOf(api, 'academicSubjectDescriptors', window)).find((i) => i.id === subject.id)!.changeVersion;
    expect(v2).toBeGreaterThan(v1);
    expect(v3).toBeGreaterThan(v2);
  });
});
