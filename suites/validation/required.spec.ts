import { test } from '../_harness/data.js';
import { rule } from '../_harness/rules.js';
import { expectEachRefused, type Depth, type Member } from '../_harness/members.js';
import type { Fields } from '../../spec/model/dsl.js';
import { model } from '../_harness/judged-model.js';
import { inGroups } from '../_harness/groups.js';

/**
 * Every required member of every resource the model has (decision 43), sent missing: at the top
 * level, inside a nested object or a reference (its key members), and inside a collection item
 * (the path names the item's index). Each body is valid but for the missing members; the
 * refusal must name each one's path.
 */
const required = (at: Depth) => (m: Member) => m.depth === at && m.required && !(m.field && 'readOnly' in m.field && m.field.readOnly);
const remove = (m: Member) => { delete m.parent[m.name]; };

/** Whether `fields` has, at depth `at`, a required member (a reference's key members always are). */
function hasRequired(fields: Fields, at: Depth, depth: Depth = 'top'): boolean {
  const inner: Depth = depth === 'item' ? 'item' : 'object';
  return Object.values(fields).some((f) =>
    (depth === at && (f.required || f.identity))
    || (f.kind === 'reference' && inner === at)
    || (f.kind === 'object' && hasRequired(f.fields, at, inner))
    || (f.kind === 'collection' && hasRequired(f.item, at, 'item')));
}

test.describe('required members of every resource, sent missing', () => {
  inGroups(model.resources.filter((x) => hasRequired(x.fields, 'top')), (r) => {
    test(`refuses a ${r.name} body missing any one of its required members with 400 at that member's path`, rule('data.validation.required-property-missing-400'), async ({ api, data }) => {
      const body = await data.body(r.name, {}, { shared: true, refusedOnly: true });
      await expectEachRefused(api, r.endpoint, r.fields, body, required('top'), remove, 'left out');
    });
  });

  // Full bodies: optional objects, references and collections are present, so their required members can be left out.
  inGroups(model.resources.filter((x) => hasRequired(x.fields, 'object')), (r) => {
    test(`refuses a ${r.name} body whose nested objects or references lack a required member with 400 at the nested path`, rule('data.validation.nested-required-missing-400'), async ({ api, data }) => {
      const body = await data.body(r.name, {}, { full: true, shared: true, refusedOnly: true });
      await expectEachRefused(api, r.endpoint, r.fields, body, required('object'), remove, 'left out of their nested object or reference');
    });
  });

  inGroups(model.resources.filter((x) => hasRequired(x.fields, 'item')), (r) => {
    test(`refuses a ${r.name} body whose collection items lack a required member with 400 at a path naming the item's index`, rule('data.validation.array-item-required-missing-400'), async ({ api, data }) => {
      const body = await data.body(r.name, {}, { full: true, shared: true, refusedOnly: true });
      await expectEachRefused(api, r.endpoint, r.fields, body, required('item'), remove, 'left out of their collection item');
    });
  });
});
