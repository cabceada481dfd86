import { test } from '../_harness/data.js';
import { rule } from '../_harness/rules.js';
import { expectEachRefused, hasMember, type Member } from '../_harness/members.js';
import { model } from '../_harness/judged-model.js';

/**
 * Natural-key strings must not start or end with a space (seed Conventions; Errors: "leading or
 * trailing space in a natural-key string"): on every natural-key string member of every
 * resource the model has (decision 43), the resource's own key and the keys of its collection
 * items (an address's city, an assessment item's possibleResponses[].responseValue, a
 * credential's endorsements[].credentialEndorsement), a value with a space in front, and one
 * with a space behind, are each refused with 400 at that member's path.
 *
 * The value is otherwise valid: the member's own text, cut by one character where it is at its
 * maximum, so with the space it is no longer than the maximum, and without the space no shorter
 * than the minimum. Not here: a descriptor's namespace and codeValue, which are not natural-key
 * strings (decision 45), and a reference's key fields, which are the referenced resource's key
 * and are tested on that resource.
 */
const isKeyString = (m: Member) => m.field?.kind === 'string' && !!m.field.identity && !m.field.readOnly && typeof m.parent[m.name] === 'string';
const spaced = (edge: 'leading' | 'trailing') => (m: Member) => {
  const f = m.field as { maxLength?: number; minLength?: number };
  let own = m.parent[m.name] as string;
  if (f.maxLength !== undefined && own.length >= f.maxLength) own = own.slice(0, f.maxLength - 1);
  own = own.padEnd(f.minLength ?? 1, 'k');
  m.parent[m.name] = edge === 'leading' ? ` ${own}` : `${own} `;
};

test.describe('natural-key strings of every resource, with a space around', () => {
  for (const r of model.resources.filter((x) => hasMember(x.fields, (f) => f.kind === 'string' && !!f.identity && !f.readOnly))) {
    test(`refuses every natural-key string of ${r.name} with a leading space, and with a trailing space, with 400 at that member's path`, rule('data.validation.natural-key-whitespace-400'), async ({ api, data }) => {
      const body = await data.body(r.name, {}, { full: (f) => f.kind === 'string' && !!f.identity, shared: true });
      for (const edge of ['leading', 'trailing'] as const) {
        await expectEachRefused(api, r.endpoint, r.fields, body, isKeyString, spaced(edge), `with a ${edge} space`);
      }
    });
  }
});
