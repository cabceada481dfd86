import { test, expect, target } from '../_harness/data.js';
import { capability, dropSnapshot, takeSnapshot } from '../_harness/capabilities.js';
import { eventsOf, mentions, since } from '../_harness/changes.js';
import { expectProblem } from '../_harness/problem.js';
import { exercised, rule } from '../_harness/rules.js';

/**
 * The Use-Snapshot header (seed Endpoints rule 5; decisions #19). Which snapshot a deployment
 * serves is its own state, so the tests that take or drop one run in this file only, one after
 * the other (in file order, one worker).
 */
test.describe.configure({ mode: 'default' });

// Leave the deployment without the snapshot these tests took.
test.afterAll(async ({ request }) => {
  if (target.capabilities?.snapshotAdmin) await dropSnapshot(request);
});

test.describe('writes with Use-Snapshot: true', () => {
  test('refuses a POST with 405 method-not-allowed and stores nothing', rule('data.snapshot.writes-with-snapshot-405', 'data.errors.method-not-allowed-type'), async ({ api, data }) => {
    const body = await data.body('academicWeek');
    await expectProblem(await api.post('academicWeeks', body, { 'Use-Snapshot': 'true' }), 'method-not-allowed');
    expect(await (await api.get(`academicWeeks?weekIdentifier=${encodeURIComponent(body.weekIdentifier as string)}`)).json()).toEqual([]);
  });

  test('refuses a PUT with 405 method-not-allowed and changes nothing', rule('data.snapshot.writes-with-snapshot-405'), async ({ api, data }) => {
    const created = await data.create('academicWeek');
    await expectProblem(await api.put(created.url, { ...created.body, totalInstructionalDays: 1 }, { 'Use-Snapshot': 'true' }), 'method-not-allowed');
    expect((await (await api.get(created.url)).json()).totalInstructionalDays).toBe(created.body.totalInstructionalDays);
  });

  test('refuses a DELETE with 405 method-not-allowed and keeps the record', rule('data.snapshot.writes-with-snapshot-405'), async ({ api, data }) => {
    const created = await data.create('academicWeek');
    await expectProblem(await api.delete(created.url, { 'Use-Snapshot': 'true' }), 'method-not-allowed');
    expect((await api.get(created.url)).status()).toBe(200);
  });

  test('sends Allow: GET with the 405 of a write under Use-Snapshot', rule('data.snapshot.405-allow-get'), async ({ api, data }) => {
    const body = await data.body('academicWeek');
    const res = await api.post('academicWeeks', body, { 'Use-Snapshot': 'true' });
    expect(res.status()).toBe(405);
    expect(res.headers().allow).toBe('GET');
  });
});

test.describe('reads without a snapshot', () => {
  // With a snapshot hook a snapshot is taken first, and the changes made after it must show in
  // every read that does not ask for it: by id, the collection and both feeds. Without one the
  // reads still run (a deployment answering them from a snapshot it lacks fails), but a pass
  // proves nothing about a deployment that falls back to live data only when it has no
  // snapshot: the rule then stays not applicable.
  test('serves live data to a GET by id, a GET collection, /deletes and /keyChanges without Use-Snapshot or with Use-Snapshot: false', rule('data.snapshot.default-false-live-data'), async ({ api, data, request }) => {
    const window = await since(api);
    const week = await data.create('academicWeek', { totalInstructionalDays: 5 });
    const gone = await data.create('academicWeek', { schoolReference: week.body.schoolReference });
    const period = await data.create('classPeriod', { schoolReference: week.body.schoolReference });
    const snapshot = !!target.capabilities?.snapshotAdmin;
    if (snapshot) await takeSnapshot(request);
    expect((await api.put(week.url, { ...week.body, totalInstructionalDays: 1 })).status()).toBe(204);
    expect((await api.delete(gone.url)).status()).toBe(204);
    const renamed = `${period.body.classPeriodName as string}r`;
    expect((await api.put(period.url, { ...period.body, classPeriodName: renamed })).status()).toBe(204);
    const feedLists = async (path: string, marks: string[], headers: Record<string, string>) => {
      const res = await api.get(`${path}${window}${window ? '&' : '?'}limit=500`, headers);
      expect(res.status(), `${path}: ${await res.text()}`).toBe(200);
      return ((await res.json()) as unknown[]).some((i) => mentions(i, marks));
    };
    for (const [how, headers] of [['without Use-Snapshot', {}], ['with Use-Snapshot: false', { 'Use-Snapshot': 'false' }]] as const) {
      expect((await (await api.get(week.url, headers)).json()).totalInstructionalDays, `GET by id ${how}`).toBe(1);
      const listed = (await (await api.get(`academicWeeks?id=${week.id}`, headers)).json()) as { totalInstructionalDays: number }[];
      expect(listed.map((i) => i.totalInstructionalDays), `GET collection ${how}`).toEqual([1]);
      expect(await feedLists('academicWeeks/deletes', [gone.id, gone.body.weekIdentifier as string], headers), `/deletes ${how} lists the deletion`).toBe(true);
      expect(await feedLists('classPeriods/keyChanges', [period.id, renamed], headers), `/keyChanges ${how} lists the key change`).toBe(true);
    }
    if (snapshot) exercised('data.snapshot.default-false-live-data', 'live data read back by id, collection and both feeds while a snapshot taken before the changes existed');
  });

  test('answers 404 Snapshot not found to a Use-Snapshot read when no snapshot is configured', rule('data.snapshot.no-snapshot-404'), async ({ api, request }) => {
    if (target.capabilities?.snapshotAdmin) {
      const dropped = await dropSnapshot(request);
      expect([200, 202, 204, 404], `snapshot hook DELETE: ${await dropped.text()}`).toContain(dropped.status());
    }
    const problem = await expectProblem(await api.get('academicWeeks?limit=1', { 'Use-Snapshot': 'true' }), 'not-found');
    expect(problem.detail).toBe('Snapshot not found.');
  });
});

test.describe('reads with Use-Snapshot: true', () => {
  test('answers GET by id from the snapshot, not from data changed since', rule('data.snapshot.reads-use-snapshot'), async ({ api, data, request }) => {
    capability('snapshotAdmin');
    const created = await data.create('academicWeek', { totalInstructionalDays: 5 });
    await takeSnapshot(request);
    await api.put(created.url, { ...created.body, totalInstructionalDays: 1 });
    const res = await api.get(created.url, { 'Use-Snapshot': 'true' });
    expect(res.status()).toBe(200);
    expect((await res.json()).totalInstructionalDays).toBe(5);
    expect((await (await api.get(created.url)).json()).totalInstructionalDays).toBe(1);
  });

  test('answers GET collection from the snapshot, not from data changed since', rule('data.snapshot.reads-use-snapshot'), async ({ api, data, request }) => {
    capability('snapshotAdmin');
    const created = await data.create('academicWeek', { totalInstructionalDays: 5 });
    await takeSnapshot(request);
    await api.put(created.url, { ...created.body, totalInstructionalDays: 1 });
    const res = await api.get(`academicWeeks?id=${created.id}`, { 'Use-Snapshot': 'true' });
    expect(res.status()).toBe(200);
    expect(((await res.json()) as { totalInstructionalDays: number }[]).map((i) => i.totalInstructionalDays)).toEqual([5]);
  });

  test('answers /deletes from the snapshot, not from deletions since', rule('data.snapshot.reads-use-snapshot'), async ({ api, data, request }) => {
    capability('snapshotAdmin');
    const window = await since(api);
    const created = await data.create('academicWeek');
    await takeSnapshot(request);
    await api.delete(created.url);
    const marks = [created.id, created.body.weekIdentifier as string];
    const res = await api.get(`academicWeeks/deletes${window}`, { 'Use-Snapshot': 'true' });
    expect(res.status()).toBe(200);
    expect(((await res.json()) as unknown[]).filter((i) => mentions(i, marks))).toEqual([]);
    expect(await eventsOf(api, 'academicWeeks', 'deletes', marks, window)).not.toEqual([]);
  });

  test('answers /keyChanges from the snapshot, not from key changes since', rule('data.snapshot.reads-use-snapshot'), async ({ api, data, request }) => {
    capability('snapshotAdmin');
    const window = await since(api);
    const created = await data.create('classPeriod');
    await takeSnapshot(request);
    const renamed = `${created.body.classPeriodName as string}r`;
    expect((await api.put(created.url, { ...created.body, classPeriodName: renamed })).status()).toBe(204);
    const marks = [created.id, renamed];
    const res = await api.get(`classPeriods/keyChanges${window}`, { 'Use-Snapshot': 'true' });
    expect(res.status()).toBe(200);
    expect(((await res.json()) as unknown[]).filter((i) => mentions(i, marks))).toEqual([]);
    expect(await eventsOf(api, 'classPeriods', 'keyChanges', marks, window)).not.toEqual([]);
  });

  test('hides records created after the snapshot while serving the ones taken with it', rule('data.snapshot.isolation'), async ({ api, data, request }) => {
    capability('snapshotAdmin');
    const before = await data.create('academicWeek');
    await takeSnapshot(request);
    const after = await data.create('academicWeek', { schoolReference: before.body.schoolReference });
    expect((await api.get(before.url, { 'Use-Snapshot': 'true' })).status()).toBe(200);
    expect((await api.get(after.url, { 'Use-Snapshot': 'true' })).status()).toBe(404);
  });
});
