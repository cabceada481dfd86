import { test, expect } from '../_harness/data.js';
import { contains } from '../_harness/checks.js';
import { rule } from '../_harness/rules.js';
import { changed, expectEachRefused, hasMember, unifiedNames, type Member } from '../_harness/members.js';
import { model } from '../../spec/model/index.js';

/**
 * The maximum lengths on every string member of every resource the model has (decision 43),
 * descriptors, nested members and collection items included: one character over the maximum is
 * refused with 400 at the member's path, and the maximum itself is stored as written. The
 * member's own text is kept as the start of the longer value, so nothing but the length changes
 * (a namespace keeps the run's prefix, a key stays unique).
 */
const maxOf = (m: Member) => (m.field?.kind === 'string' && !m.field.readOnly && typeof m.parent[m.name] === 'string' ? m.field.maxLength : undefined);
const padTo = (length: (max: number) => number) => (m: Member) => {
  const n = length(maxOf(m)!);
  m.parent[m.name] = (m.parent[m.name] as string).slice(0, n).padEnd(n, 'x');
};


test.describe('maximum lengths on every string member of every resource', () => {
  for (const r of model.resources.filter((x) => hasMember(x.fields, (f) => f.kind === 'string' && !!f.maxLength && !f.readOnly))) {
    // School years are shared by every run: refused over the maximum, never written here.
    const title = r.isSchoolYearEnumeration
      ? `refuses every string member of ${r.name} one character over its maximum length with 400 at that member's path`
      : `refuses every string member of ${r.name} one character over its maximum length with 400 at that member's path, and stores each at its maximum as written`;
    test(title, rule('data.validation.string-length-400'), async ({ api, data }) => {
      const body = await data.body(r.name, {}, { full: true });
      await expectEachRefused(api, r.endpoint, r.fields, body, (m) => maxOf(m) !== undefined, padTo((max) => max + 1), 'one character over their maximum length');
      if (r.isSchoolYearEnumeration) return;
      // Key members are built at their maximum already; the others are padded to theirs.
      const partners = unifiedNames(r.name);
      const atMax = changed(r.fields, body, (m) => maxOf(m) !== undefined && !m.field!.identity && !partners.has(m.name), padTo((max) => max));
      const created = await data.post(r, atMax.body);
      const read = await api.get(created.url);
      expect(read.status()).toBe(200);
      expect(contains(await read.json(), atMax.body), `${r.name} with every string member at its maximum, read back`).toEqual([]);
    });
  }
});
