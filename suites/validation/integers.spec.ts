import { test, expect } from '../_harness/data.js';
import { contains } from '../_harness/checks.js';
import { rule } from '../_harness/rules.js';
import { changed, expectEachRefused, hasMember, unifiedNames, type Member } from '../_harness/members.js';
import { numericBounds } from '../../spec/generate/json-schema.js';
import { model } from '../_harness/judged-model.js';
import { inGroups } from '../_harness/groups.js';
import { settleAll } from '../_harness/in-parallel.js';

/**
 * The int32 range on every int32 member of every resource the model has (decision 43): one
 * above 2147483647 and one below -2147483648 are refused with 400 at the member's path, nested
 * members and collection items included. Both ends themselves are stored as written on every
 * member the data standard gives no narrower range (a narrower range is SHOULD,
 * data.validation.standard-ranges-400); key members and members unified with a reference keep
 * the builder's values, so the record stays the test's own.
 */
const INT32 = { max: 2147483647, min: -2147483648 };
const isInt32 = (m: Member) => m.field?.kind === 'int32' && typeof m.parent[m.name] === 'number';
const set = (value: number) => (m: Member) => { m.parent[m.name] = value; };


test.describe('the int32 range on every int32 member of every resource', () => {
  inGroups(model.resources.filter((x) => hasMember(x.fields, (f) => f.kind === 'int32' && !f.readOnly)), (r) => {
    const title = r.isSchoolYearEnumeration || r.isDescriptor
      ? `refuses every int32 member of ${r.name} one outside the int32 range, at either end, with 400 at that member's path`
      : `refuses every int32 member of ${r.name} one outside the int32 range, at either end, with 400 at that member's path, and stores both ends where the data standard gives no narrower range`;
    test(title, rule('data.validation.integer-too-large-400'), async ({ api, data }) => {
      // A descriptor's one int32 member a client writes (priorDescriptorId) names another descriptor: refused values only.
      const refused = await data.body(r.name, r.isDescriptor ? { priorDescriptorId: 1 } : {}, { full: true, shared: true, refusedOnly: true });
      // Both ends at once: a distant deployment is paid one round trip for them, not two.
      await settleAll([INT32.max + 1, INT32.min - 1].map((v) => expectEachRefused(api, r.endpoint, r.fields, refused, isInt32, set(v), `set to ${v}`)));
      // School years are shared by every run: never written here.
      if (r.isSchoolYearEnumeration || r.isDescriptor) return;
      const partners = unifiedNames(r.name);
      const free = (m: Member) => isInt32(m) && m.field?.kind === 'int32' && !m.field.identity && !partners.has(m.name)
        && Object.keys(numericBounds(m.field)).length === 0;
      if (!changed(r.fields, refused, free, set(INT32.max)).members.length) return;
      // Stored: a body whose key is the test's own.
      const body = await data.body(r.name, {}, { full: true, shared: true });
      const atMax = changed(r.fields, body, free, set(INT32.max));
      const created = await data.post(r, atMax.body);
      expect(contains(await (await api.get(created.url)).json(), atMax.body), `${r.name} with ${atMax.members.map((m) => m.path).join(', ')} at ${INT32.max}, read back`).toEqual([]);
      // The other end on the same record: an upsert of its own key.
      const atMin = changed(r.fields, body, free, set(INT32.min));
      const again = await api.post(r.endpoint, atMin.body);
      expect(again.status(), `POST of ${r.name} again with ${INT32.min}: ${await again.text()}`).toBe(200);
      expect(contains(await (await api.get(created.url)).json(), atMin.body), `${r.name} with those members at ${INT32.min}, read back`).toEqual([]);
    });
  });
});
