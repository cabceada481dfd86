import { test, expect } from '../_harness/data.js';
import { rule } from '../_harness/rules.js';
import { newEducationOrganizationId } from '../_harness/builders.js';
import { membersOf, referenceKeysOf, valueAt } from '../_harness/members.js';
import type { Field } from '../../spec/model/dsl.js';
import type { CompiledResource } from '../../spec/model/compiled.js';
import { model } from '../_harness/judged-model.js';
import { notInStandard } from '../_harness/standard-applicability.js';

/**
 * int64 education-organization ids on every resource that has one (decision 43): the seed's
 * schoolId and educationOrganizationId, as the interface description declares them, wherever
 * they sit — a resource's own id, a reference's key member (schoolReference.schoolId,
 * educationOrganizationReference.educationOrganizationId, the role-named ones) — written above
 * 2,147,483,647 and read back unchanged as JSON numbers. Storage is per resource in a real
 * deployment (a column per table), so one resource proves nothing for another.
 */
const INT32_MAX = 2147483647;
/** Key names (query names) of a resource's int64 members: its own, and its references' key members. */
function int64Names(r: CompiledResource): string[] {
  const own: string[] = [];
  const walk = (fields: Record<string, Field>) => {
    for (const [name, f] of Object.entries(fields)) {
      if (f.kind === 'int64' && !f.readOnly) own.push(name);
      else if (f.kind === 'object') walk(f.fields);
      else if (f.kind === 'collection') walk(f.item);
    }
  };
  walk(r.fields);
  return [...new Set([...own, ...r.references.flatMap((ref) => ref.fields.filter((k) => k.kind === 'int64').map((k) => k.queryName))])];
}

test.describe('int64 education-organization ids on every resource that has one', () => {
  const withInt64 = model.resources.filter((x) => !x.isDescriptor && !x.isSchoolYearEnumeration && int64Names(x).length);
  // 4.0's organization ids are int32 (the seed: int64 "in newer releases"): nothing to exercise.
  if (!withInt64.length) {
    test('accepts every int64 education-organization id above 2147483647 and returns each unchanged as a JSON number', rule('data.validation.int64-identifiers'), () => {
      notInStandard('int64 education-organization id');
    });
  }
  for (const r of withInt64) {
    test(`accepts every int64 education-organization id of ${r.name} above 2147483647 and returns each unchanged as a JSON number`, rule('data.validation.int64-identifiers'), async ({ api, data }) => {
      // One id above int32 per key name: the builder creates the organizations (and whatever else
      // is referenced) with those ids, and unified key members keep agreeing.
      const context = Object.fromEntries(int64Names(r).map((name) => [name, 3_000_000_000 + newEducationOrganizationId()]));
      const int64Targets = new Set(r.references.filter((ref) => ref.fields.some((k) => k.kind === 'int64')).map((ref) => ref.target));
      const created = await data.create(r.name, {}, { context, full: (f) => f.kind === 'reference' && int64Targets.has(f.target), shared: true });
      const written = [
        ...membersOf(r.fields, created.body).filter((m) => m.field?.kind === 'int64'),
        ...referenceKeysOf(r, created.body).filter((k) => k.key.kind === 'int64'),
      ].map((m) => ({ path: m.path, value: m.parent[m.name] }));
      expect(written.length, `${r.name}: int64 members written`).toBeGreaterThan(0);
      expect(written.filter((w) => !(typeof w.value === 'number' && w.value > INT32_MAX)), 'each written above int32').toEqual([]);
      const read = await api.get(created.url);
      expect(read.status()).toBe(200);
      // Unchanged as numbers, each at its path (a string or a rounded value differs); the other
      // members' round trip is the upsert rules'.
      const got = await read.json();
      expect(written.filter((w) => valueAt(got, w.path) !== w.value).map((w) => `${w.path}: wrote ${w.value}, read ${JSON.stringify(valueAt(got, w.path))}`), `${r.name}'s ids above int32, read back`).toEqual([]);
    });
  }
});
