import { test, expect } from '../_harness/data.js';
import { rule } from '../_harness/rules.js';
import { refusedPaths } from '../_harness/members.js';
import { numericBounds } from '../../spec/generate/json-schema.js';
import { model } from '../_harness/judged-model.js';

/**
 * Key unification on every resource whose body gives one key in several places (decision 43;
 * seed Conventions, "the same key … in several references"): for each such key, a body valid but
 * for that key given another value in one place is refused with 400 data-validation-failed, and
 * the refusal names only paths where that key is given (the hand-written courseOffering and
 * sectionAttendanceTakenEvent tests hold upstream's exact set of paths). The other value is the
 * key's own kind, within its bounds and length, so nothing but the mismatch is wrong.
 */
type Body = Record<string, unknown>;

/** The object holding a model path's last member in `body` (the first item of a collection), and that member's name. */
function holderOf(body: Body, path: string): { parent: Body; name: string; concrete: string } | undefined {
  const steps = path.slice(2).split('.');
  let at: unknown = body;
  const concrete: string[] = [];
  for (const step of steps.slice(0, -1)) {
    const name = step.replace('[*]', '');
    at = (at as Body | undefined)?.[name];
    if (step.endsWith('[*]')) at = Array.isArray(at) ? at[0] : undefined;
    concrete.push(step.replace('[*]', '[0]'));
    if (!at || typeof at !== 'object') return undefined;
  }
  const name = steps[steps.length - 1];
  return { parent: at as Body, name, concrete: ['$', ...concrete, name].join('.') };
}

/** Another value of the same kind: an integer one off (within the member's bounds), a date a day later, a string with its last character changed. */
function another(value: unknown, bounds: { minimum?: number; maximum?: number }): unknown {
  if (typeof value === 'number') return value + 1 <= (bounds.maximum ?? Number.MAX_SAFE_INTEGER) ? value + 1 : value - 1;
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)) return new Date(Date.parse(value) + 86_400_000).toISOString().slice(0, 10);
  if (typeof value === 'string') return `${value.slice(0, -1)}${value.endsWith('z') ? 'y' : 'z'}`;
  return undefined;
}

/** The bounds of a unified key, from the resource's own scalar of that name or any reference target's key member. */
function boundsOf(name: string): { minimum?: number; maximum?: number } {
  for (const r of model.resources) {
    const f = r.fields[name];
    if (f && (f.kind === 'int32' || f.kind === 'int64')) return numericBounds(f);
  }
  return {};
}

test.describe('key unification on every resource that gives a key in several places', () => {
  for (const r of model.resources.filter((x) => x.equalities.length)) {
    const keys = [...new Set(r.equalities.map((e) => e.name))].join(', ');
    test(`refuses a ${r.name} giving ${keys} differently in one of the places it is given with 400 naming only where it is given`, rule('data.references.key-unification-mismatch-400'), async ({ api, data }) => {
      const body = await data.body(r.name, {}, { full: true });
      const tried: string[] = [];
      for (const name of [...new Set(r.equalities.map((e) => e.name))]) {
        // Groups of one name that share a path are one unified key: every place any of them gives it.
        const paths = [...new Set(r.equalities.filter((e) => e.name === name).flatMap((e) => e.paths))];
        const places = paths.filter((p) => { const h = holderOf(body, p); return h !== undefined && h.parent[h.name] !== undefined; });
        if (places.length < 2) continue;
        // The last place the key is given (a reference's member, nested or in an item), changed alone.
        const mismatched = structuredClone(body);
        const place = holderOf(mismatched, places[places.length - 1])!;
        place.parent[place.name] = another(place.parent[place.name], boundsOf(name));
        const refusal = await refusedPaths(api, r.endpoint, mismatched);
        expect(refusal.status, `${name} given as ${JSON.stringify(place.parent[place.name])} at ${place.concrete}`).toBe(400);
        const named = refusal.paths;
        const given = new Set(places.map((p) => holderOf(body, p)!.concrete));
        expect(named.filter((p) => given.has(p)), `${name} given as ${JSON.stringify(place.parent[place.name])} at ${place.concrete}: the refusal names where ${name} is given`).not.toEqual([]);
        expect(named.filter((p) => !given.has(p)), `${name} mismatched at ${place.concrete}: paths named other than where ${name} is given (${[...given].join(', ')})`).toEqual([]);
        tried.push(name);
      }
      expect(tried.length, `${r.name}: keys given in several places in the body`).toBeGreaterThan(0);
    });
  }
});
