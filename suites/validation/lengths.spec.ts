import { test, expect } from '../_harness/data.js';
import { check, rule } from '../_harness/rules.js';
import { changed, expectEachRefused, hasMember, stringMaxOf, unifiedNames, valueAt, type Member } from '../_harness/members.js';
import { model } from '../_harness/judged-model.js';
import { inGroups } from '../_harness/groups.js';

/**
 * The maximum lengths on every string member of every resource the model has (decision 43),
 * descriptors, nested members and collection items included: one character over the maximum is
 * refused with 400 at the member's path (data.validation.string-length-400), and the maximum
 * itself is stored as written (data.limits.string-maximum-length-accepted), natural-key members
 * included. The member's own text is kept as the start of the longer value, so nothing but the
 * length changes (a namespace keeps the run's prefix, a key stays unique).
 */
const padTo = (length: (max: number) => number) => (m: Member) => {
  const n = length(stringMaxOf(m)!);
  m.parent[m.name] = (m.parent[m.name] as string).slice(0, n).padEnd(n, 'x');
};


test.describe('maximum lengths on every string member of every resource', () => {
  inGroups(model.resources.filter((x) => hasMember(x.fields, (f) => f.kind === 'string' && !!f.maxLength && !f.readOnly)), (r) => {
    // School years are shared by every run: refused over the maximum, never written here.
    const title = r.isSchoolYearEnumeration
      ? `refuses every string member of ${r.name} one character over its maximum length with 400 at that member's path`
      : `refuses every string member of ${r.name} one character over its maximum length with 400 at that member's path, and stores each at its maximum as written`;
    const rules = r.isSchoolYearEnumeration ? rule('data.validation.string-length-400') : rule('data.validation.string-length-400', 'data.limits.string-maximum-length-accepted');
    test(title, rules, async ({ api, data }) => {
      const body = await data.body(r.name, {}, { full: true, shared: true });
      await expectEachRefused(api, r.endpoint, r.fields, body, (m) => stringMaxOf(m) !== undefined, padTo((max) => max + 1), 'one character over their maximum length');
      if (r.isSchoolYearEnumeration) return;
      // Every string member padded to its maximum, natural-key members too (the padding keeps the
      // unique start); members unified with a reference must keep matching the referenced record.
      const partners = unifiedNames(r.name);
      const atMax = changed(r.fields, body, (m) => stringMaxOf(m) !== undefined && !partners.has(m.name), padTo((max) => max));
      await check('data.limits.string-maximum-length-accepted', `${r.name} with ${atMax.members.length} string members at their maximum is stored and read back unchanged`, async () => {
        expect(atMax.members.length, 'string members at their maximum').toBeGreaterThan(0);
        const created = await data.post(r, atMax.body);
        const read = await api.get(created.url);
        expect(read.status()).toBe(200);
        // Each at its path, unchanged; the other members' round trip is the upsert rules'.
        const got = await read.json();
        const changedOnReadBack = atMax.members.filter((m) => valueAt(got, m.path) !== m.parent[m.name]);
        expect(changedOnReadBack.map((m) => `${m.path} (${stringMaxOf(m)} characters): read ${JSON.stringify(valueAt(got, m.path))?.slice(0, 40)}`), `${r.name}'s string members at their maximum, read back`).toEqual([]);
      });
    });
  });
});
