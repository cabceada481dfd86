import { test, expect } from '../_harness/data.js';
import { expectProblem } from '../_harness/problem.js';
import { rule } from '../_harness/rules.js';

/** `?id=` on a collection: an id, or 400 at `$.id` (upstream). */
const resource = 'academicSubjectDescriptors';

test.describe('the id query parameter', () => {
  for (const value of ['invalid', '0', '123e4567-e89b-12d3-a456-42661417400', '123e4567e89b12d3a456426614174000x', '{123e4567-e89b-12d3-a456-426614174000']) {
    test(`refuses id=${value} with 400 data-validation-failed at $.id`, rule('data.query-paging.id-parameter-format-400'), async ({ api }) => {
      const problem = await expectProblem(await api.get(`${resource}?id=${encodeURIComponent(value)}`), 'bad-request:data-validation-failed');
      expect(Object.keys(problem.validationErrors ?? {})).toContain('$.id');
    });
  }

  test('finds the record by its id in the dashed, upper-case spelling too', rule('data.query-paging.id-parameter-format-400'), async ({ api, data }) => {
    const { id } = await data.newDescriptor('academicSubject');
    const hex = id.replace(/-/g, '');
    test.skip(!/^[0-9a-f]{32}$/i.test(hex), 'the target\'s ids are not GUIDs');
    const dashed = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`.toUpperCase();
    for (const spelling of [id, dashed]) {
      const res = await api.get(`${resource}?id=${spelling}`);
      expect(res.status(), spelling).toBe(200);
      expect(((await res.json()) as { id: string }[]).map((r) => r.id), spelling).toEqual([id]);
    }
  });
});
