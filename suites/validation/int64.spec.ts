import { test, expect } from '../_harness/data.js';
import { rule } from '../_harness/rules.js';
import { newEducationOrganizationId } from '../_harness/builders.js';
import { membersOf, referenceKeysOf, valueAt } from '../_harness/members.js';
import type { Field } from '../../spec/model/dsl.js';
import type { CompiledResource } from '../../spec/model/compiled.js';
import { model } from '../_harness/judged-model.js';
import { notInStandard } from '../_harness/standard-applicability.js';
import { parseExact, stringifyExact } from '../_harness/exact-json.js';

/**
 * int64 education-organization ids on every resource that has one (decision 43): the seed's
 * schoolId and educationOrganizationId, as the interface description declares them, wherever
 * they sit — a resource's own id, a reference's key member (schoolReference.schoolId,
 * educationOrganizationReference.educationOrganizationId, the role-named ones) — written above
 * 2,147,483,647 and read back unchanged as JSON numbers. Storage is per resource in a real
 * deployment (a column per table), so one resource proves nothing for another.
 *
 * Both ends of the range the rule opens: just above the int32 maximum, and just below the int64
 * maximum (seed, Limits: 9,223,372,036,854,775,807), odd, so past 2^53 where no double holds the
 * value: a deployment that keeps ids as doubles writes back a neighbour, and only a reading of the
 * answer's exact digits (exact-json.ts) sees it.
 */
const INT32_MAX = 2147483647;
const INT64_MAX = 2n ** 63n - 1n;
const ranges = [
  { what: 'just above the int32 maximum', value: (id: number) => 3_000_000_000 + id, holds: (v: unknown) => typeof v === 'number' && v > INT32_MAX },
  { what: 'past 2^53, just below the int64 maximum', value: (id: number) => INT64_MAX - 2n * BigInt(id), holds: (v: unknown) => typeof v === 'bigint' && v > 2n ** 53n && v <= INT64_MAX && v % 2n === 1n },
];
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
  // A test per end of the range: two records of one resource made by one test's builder would
  // share every key member but the ids (the same student, descriptors, dates) and so be one record.
  for (const r of withInt64) {
    for (const { what, value, holds } of ranges) {
      test(`accepts every int64 education-organization id of ${r.name} ${what} and returns each unchanged as a JSON number`, rule('data.validation.int64-identifiers'), async ({ api, data }) => {
        // One id per key name: the builder creates the organizations (and whatever else is
        // referenced) with those ids, and unified key members keep agreeing.
        const context = Object.fromEntries(int64Names(r).map((name) => [name, value(newEducationOrganizationId())]));
        const int64Targets = new Set(r.references.filter((ref) => ref.fields.some((k) => k.kind === 'int64')).map((ref) => ref.target));
        const created = await data.create(r.name, {}, { context, full: (f) => f.kind === 'reference' && int64Targets.has(f.target), shared: true });
        const written = [
          ...membersOf(r.fields, created.body).filter((m) => m.field?.kind === 'int64'),
          ...referenceKeysOf(r, created.body).filter((k) => k.key.kind === 'int64'),
        ].map((m) => ({ path: m.path, value: m.parent[m.name] }));
        expect(written.length, `${r.name}: int64 members written`).toBeGreaterThan(0);
        expect(written.filter((w) => !holds(w.value)).map((w) => w.path), `each written ${what}`).toEqual([]);
        const read = await api.get(created.url);
        expect(read.status()).toBe(200);
        // Unchanged as numbers, each at its path (a string or a rounded value differs); the other
        // members' round trip is the upsert rules'.
        const got = parseExact(await read.text());
        expect(written.filter((w) => valueAt(got, w.path) !== w.value).map((w) => `${w.path}: wrote ${w.value}, read ${stringifyExact(valueAt(got, w.path))}`), `${r.name}'s ids ${what}, read back`).toEqual([]);
      });
    }
  }
});
