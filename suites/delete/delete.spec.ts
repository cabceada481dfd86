import { test, expect } from '../_harness/data.js';
import { unknownId } from '../_harness/checks.js';
import { expectProblem } from '../_harness/problem.js';
import { rule } from '../_harness/rules.js';

/** DELETE {data_root}/core/<resource>/{id} (seed Endpoints rule 4). */
test.describe('DELETE /core/<resource>/{id}', () => {
  test('answers 204 and removes exactly that record, leaving the others', rule('data.delete.existing-record-204'), async ({ api, data }) => {
    const a = await data.create('academicWeek');
    const b = await data.create('academicWeek', { schoolReference: a.body.schoolReference });
    expect((await api.delete(a.url)).status()).toBe(204);
    expect((await api.get(a.url)).status()).toBe(404);
    expect((await api.get(b.url)).status()).toBe(200);
  });

  test('answers 404 for an id that never existed', rule('data.delete.unknown-id-404'), async ({ api }) => {
    expect((await api.delete(`academicWeeks/${unknownId()}`)).status()).toBe(404);
  });

  test('refuses to delete a record another record references with 409 dependent-item-exists and keeps it', rule('data.delete.dependent-item-exists-409'), async ({ api, data }) => {
    const week = await data.create('academicWeek');
    const school = await api.get(`schools?schoolId=${(week.body.schoolReference as { schoolId: number }).schoolId}`);
    const [{ id }] = (await school.json()) as { id: string }[];
    await expectProblem(await api.delete(`schools/${id}`), 'data-conflict:dependent-item-exists');
    expect((await api.get(`schools/${id}`)).status()).toBe(200);
  });

  test('refuses to delete a descriptor a record still uses with 409 dependent-item-exists', rule('data.delete.dependent-item-exists-409'), async ({ api, data }) => {
    const calendar = await data.create('calendar');
    const value = calendar.body.calendarTypeDescriptor as string;
    const [namespace, codeValue] = value.split('#');
    const found = (await (await api.get(`calendarTypeDescriptors?namespace=${encodeURIComponent(namespace)}&codeValue=${encodeURIComponent(codeValue)}`)).json()) as { id: string }[];
    await expectProblem(await api.delete(`calendarTypeDescriptors/${found[0].id}`), 'data-conflict:dependent-item-exists');
  });

  test('deletes the formerly referenced record with 204 once its dependents are deleted', rule('data.delete.after-dependents-removed-204'), async ({ api, data }) => {
    const school = await data.school();
    const week = await data.create('academicWeek', { schoolReference: { schoolId: school.keys.schoolId } });
    expect((await api.delete(school.url)).status()).toBe(409);
    expect((await api.delete(week.url)).status()).toBe(204);
    expect((await api.delete(school.url)).status()).toBe(204);
  });
});
