import { test } from '../_harness/data.js';
import { rule } from '../_harness/rules.js';
import { expectEachRefused, hasMember, type Member } from '../_harness/members.js';
import { model } from '../_harness/judged-model.js';

/**
 * A required array must have at least one item (seed Conventions): every required array of every
 * resource the model has (decision 43), at the top level and inside a collection item
 * (graduationPlan's creditsByCourses[].courses), sent with zero items in an otherwise valid body,
 * is refused with 400 at the array's path. (The seed's three examples, in a body with only the
 * required members: suites/validation/fields.spec.ts.)
 */
const isRequiredArray = (m: Member) => m.field?.kind === 'collection' && !!m.field.required && Array.isArray(m.parent[m.name]);
const empty = (m: Member) => { m.parent[m.name] = []; };

test.describe('required arrays of every resource, sent empty', () => {
  for (const r of model.resources.filter((x) => hasMember(x.fields, (f) => f.kind === 'collection' && !!f.required))) {
    test(`refuses every required array of ${r.name} sent with zero items with 400 at the array's path`, rule('data.validation.empty-required-array-400'), async ({ api, data }) => {
      const body = await data.body(r.name, {}, { full: (f) => f.kind === 'collection' && !!f.required, shared: true });
      await expectEachRefused(api, r.endpoint, r.fields, body, isRequiredArray, empty, 'with zero items');
    });
  }
});
