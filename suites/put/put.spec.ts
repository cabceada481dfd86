import { test, expect } from '../_harness/data.js';
import { unknownId } from '../_harness/checks.js';
import { expectProblem } from '../_harness/problem.js';
import { rule } from '../_harness/rules.js';

/** PUT {data_root}/core/<resource>/{id}: replaces the record named by the path (seed Endpoints rule 2). */
test.describe('PUT /core/<resource>/{id}', () => {
  test('updates exactly the record named by the path id and answers 204', rule('data.put.update-by-id-204'), async ({ api, data }) => {
    const a = await data.create('academicWeek');
    const b = await data.create('academicWeek', { schoolReference: a.body.schoolReference });
    const res = await api.put(a.url, { ...a.body, totalInstructionalDays: 2 });
    expect(res.status()).toBe(204);
    expect((await (await api.get(a.url)).json()).totalInstructionalDays).toBe(2);
    expect((await (await api.get(b.url)).json()).totalInstructionalDays).toBe(b.body.totalInstructionalDays);
  });

  test('replaces the whole document: an optional member or collection left out of the body is gone afterwards', rule('data.put.update-by-id-204'), async ({ api, data }) => {
    const created = await data.create('course', {}, { full: true });
    expect(created.body.courseDescription, 'the full body has the optional member').toBeDefined();
    expect(created.body.offeredGradeLevels, 'the full body has the optional collection').toBeDefined();
    const { courseDescription: _d, offeredGradeLevels: _g, ...rest } = created.body;
    expect((await api.put(created.url, rest)).status()).toBe(204);
    const read = (await (await api.get(created.url)).json()) as Record<string, unknown>;
    expect(read.courseDescription).toBeUndefined();
    expect(read.offeredGradeLevels ?? []).toEqual([]);
    expect(read.courseTitle).toBe(created.body.courseTitle);
  });

  // program.programId is an optional member, not part of the natural key, though named as a
  // resource's own id would be: the PUT must store the value sent, not keep the stored one.
  test('stores the new value of a non-key member named like the resource\'s id (program.programId)', rule('data.put.update-by-id-204'), async ({ api, data }) => {
    const stamp = Date.now().toString(36).slice(-8);
    const created = await data.create('program', { programId: `A${stamp}` });
    expect((await api.put(created.url, { ...created.body, programId: `B${stamp}` })).status()).toBe(204);
    expect((await (await api.get(created.url)).json()).programId).toBe(`B${stamp}`);
  });

  test('ignores an id in the body: the path id names the record and it keeps its id', rule('data.put.id-in-body-ignored'), async ({ api, data }) => {
    const a = await data.create('academicWeek');
    const b = await data.create('academicWeek', { schoolReference: a.body.schoolReference });
    const res = await api.put(a.url, { ...a.body, id: b.id, totalInstructionalDays: 1 });
    expect(res.status()).toBe(204);
    const gotA = await (await api.get(a.url)).json();
    expect(gotA.id).toBe(a.id);
    expect(gotA.totalInstructionalDays).toBe(1);
    expect((await (await api.get(b.url)).json()).totalInstructionalDays).toBe(b.body.totalInstructionalDays);
  });

  test('refuses a natural-key change on a resource not marked updatable with 400 key-change-not-supported', rule('data.put.key-change-not-supported-400'), async ({ api, data }) => {
    const created = await data.create('academicWeek');
    await expectProblem(await api.put(created.url, { ...created.body, weekIdentifier: `${created.body.weekIdentifier as string}x` }), 'bad-request:data-validation-failed:key-change-not-supported');
    expect((await (await api.get(created.url)).json()).weekIdentifier).toBe(created.body.weekIdentifier);
  });

  test('changes the natural key of an updatable resource, keeping the record id', rule('data.put.key-change-allowed-when-updatable'), async ({ api, data }) => {
    const created = await data.create('classPeriod');
    const renamed = `${created.body.classPeriodName as string}r`;
    expect((await api.put(created.url, { ...created.body, classPeriodName: renamed })).status()).toBe(204);
    const got = await (await api.get(created.url)).json();
    expect(got.id).toBe(created.id);
    expect(got.classPeriodName).toBe(renamed);
  });

  test('refuses a key change to the key of another record with 409 non-unique-identity', rule('data.put.key-change-to-existing-key-409'), async ({ api, data }) => {
    const a = await data.create('classPeriod');
    const b = await data.create('classPeriod', { schoolReference: a.body.schoolReference });
    await expectProblem(await api.put(b.url, { ...b.body, classPeriodName: a.body.classPeriodName }), 'data-conflict:non-unique-identity');
    expect((await (await api.get(b.url)).json()).classPeriodName).toBe(b.body.classPeriodName);
  });

  test('answers 404 not-found for an id that does not exist', rule('data.put.unknown-id-404'), async ({ api, data }) => {
    const body = await data.body('academicWeek');
    const res = await api.put(`academicWeeks/${unknownId()}`, body);
    expect(res.status()).toBe(404);
    if ((await res.text()).trim()) await expectProblem(res, 'not-found');
  });

  test('answers 400 data-validation-failed, never 500, for a PUT whose id is not in the id format', rule('data.put.malformed-id-400'), async ({ api, data }) => {
    const body = await data.body('academicWeek');
    await expectProblem(await api.put('academicWeeks/not-an-id', body), 'bad-request:data-validation-failed');
  });

  test('answers 400 data-validation-failed, never 500, for a DELETE whose id is not in the id format', rule('data.put.malformed-id-400'), async ({ api }) => {
    await expectProblem(await api.delete('academicWeeks/not-an-id'), 'bad-request:data-validation-failed');
  });
});
