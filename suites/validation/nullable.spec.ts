import { test } from '../_harness/data.js';
import { rule } from '../_harness/rules.js';
import { expectEachAccepted, hasMember, type Member } from '../_harness/members.js';
import { model } from '../_harness/judged-model.js';
import { inGroups } from '../_harness/groups.js';

/**
 * Every nullable (N) member of every resource the model has (decision 43), descriptors, nested
 * members and collection items included, sent as JSON null: the write is accepted (seed
 * Conventions). One body per resource carries null in all of them at once; when it is refused,
 * each member is sent alone, so the failure names the members null is refused for. (Left out:
 * suites/validation/fields.spec.ts.)
 */
const isNullable = (m: Member) => !!m.field?.nullable && !('readOnly' in m.field && m.field.readOnly);
const toNull = (m: Member) => { m.parent[m.name] = null; };

test.describe('nullable members of every resource, sent as null', () => {
  inGroups(model.resources.filter((x) => hasMember(x.fields, (f) => !!f.nullable && !('readOnly' in f && f.readOnly))), (r) => {
    test(`accepts JSON null in every nullable member of ${r.name}, nested members and collection items included`, rule('data.validation.nullable-accepts-null-or-absent'), async ({ api, data }) => {
      const body = await data.body(r.name, {}, { full: (f) => !!f.nullable, shared: true });
      // A descriptor body carries only its required members: the nullable ones are added, to be sent as null.
      if (r.isDescriptor) for (const [name, f] of Object.entries(r.fields)) if (f.nullable && !(name in body)) body[name] = null;
      await expectEachAccepted(api, r.endpoint, r.fields, body, isNullable, toNull, 'sent as null');
    });
  });
});
