import { test, expect } from '../_harness/data.js';
import { contains } from '../_harness/checks.js';
import { check, rule } from '../_harness/rules.js';
import { expectEachRefused, membersOf, modelPath, referenceKeysOf, refusedPaths, type ReferenceKey } from '../_harness/members.js';
import type { DataClient } from '../_harness/fixtures.js';
import type { CompiledReference, CompiledResource } from '../../spec/model/compiled.js';
import { model } from '../_harness/judged-model.js';

/**
 * Every reference shape the model has (decision 43; seed Conventions and Reference shapes): for
 * each reference target, a write naming it with a key field left out, or of the wrong type or
 * length, is refused with 400 at that field's path, and a record holding it returns the reference
 * as an object of exactly its key fields (and a read-only link). The shapes are taken from
 * model.resources[].references and grouped into as few resources as hold them all, so one body
 * per resource carries many shapes; every reference of that body is checked, not only the shapes
 * it was chosen for.
 *
 * Wrong types: an integer key as text that is no number, a date key that is no date, a string key
 * one character over the referenced record's own maximum. Keys the same body gives in several
 * places (key unification) get the same wrong value everywhere, so the refusal cannot be a
 * mismatch. Descriptor keys are left out of the type check: any wrong value is also a descriptor
 * that does not exist, a 400 at the same path for another reason.
 */
type Body = Record<string, unknown>;

/** Whether the builder's minimal body holds the reference (required, outside optional objects and collections). */
const inMinimalBody = (ref: CompiledReference) => ref.required && !ref.path.slice(2).includes('.');

/** Resources whose bodies together hold every reference target: greedily, most targets not yet held first. */
function groups(): { resource: CompiledResource; full: boolean; targets: string[] }[] {
  const candidates = model.resources.filter((r) => !r.isDescriptor && !r.isSchoolYearEnumeration && r.references.length);
  const left = new Set(candidates.flatMap((r) => r.references.map((x) => x.target)));
  const out: { resource: CompiledResource; full: boolean; targets: string[] }[] = [];
  while (left.size) {
    let best: CompiledResource | undefined;
    let bestScore = -Infinity;
    for (const r of candidates) {
      const fresh = new Set(r.references.filter((x) => left.has(x.target)).map((x) => x.target));
      const cheap = new Set(r.references.filter((x) => left.has(x.target) && inMinimalBody(x)).map((x) => x.target));
      // More new targets first; then those a minimal body holds; then smaller bodies.
      const score = fresh.size * 10 + cheap.size - r.references.length / 10;
      if (fresh.size && score > bestScore) [best, bestScore] = [r, score];
    }
    const targets = [...new Set(best!.references.filter((x) => left.has(x.target)).map((x) => x.target))];
    for (const t of targets) left.delete(t);
    out.push({ resource: best!, targets, full: best!.references.some((x) => targets.includes(x.target) && !inMinimalBody(x)) });
  }
  return out;
}

/** A value of the key's wrong type (or length), or undefined where none is checked here. */
function wrongValue(k: ReferenceKey): unknown {
  switch (k.key.kind) {
    case 'int32':
    case 'int64':
      return 'two';
    case 'date':
      return 'not-a-date';
    case 'string':
      return k.maxLength === undefined ? undefined : String(k.parent[k.name]).slice(0, k.maxLength + 1).padEnd(k.maxLength + 1, 'x');
    default:
      return undefined;
  }
}

/** A path with every path key unification ties to it (the model lists the ties pairwise, so they are followed through). */
function unifiedWith(r: CompiledResource, path: string): Set<string> {
  const out = new Set([path]);
  for (let grew = true; grew;) {
    grew = false;
    for (const e of r.equalities) {
      if (e.paths.some((p) => out.has(p)) && e.paths.some((p) => !out.has(p))) {
        for (const p of e.paths) out.add(p);
        grew = true;
      }
    }
  }
  return out;
}

/**
 * Sends the body with each checked reference key given a wrong value (with the members it is
 * unified with, key unification): all at once first, then each key the batch did not name alone.
 * Expects a 400 naming each key's path.
 */
async function expectWrongTypesRefused(api: DataClient, r: CompiledResource, body: Body, keys: ReferenceKey[]): Promise<void> {
  const units = new Map<string, { paths: Set<string>; value: unknown; keys: string[] }>();
  for (const k of keys) {
    const value = wrongValue(k);
    if (value === undefined) continue;
    const paths = unifiedWith(r, modelPath(k.path));
    const id = [...paths].sort().join(' ');
    const unit = units.get(id) ?? { paths, value, keys: [] };
    unit.keys.push(k.path);
    units.set(id, unit);
  }
  expect(units.size, `reference keys of ${r.name} whose type or length is checked`).toBeGreaterThan(0);
  const apply = (chosen: { paths: Set<string>; value: unknown }[]): Body => {
    const copy = structuredClone(body);
    for (const m of membersOf(r.fields, copy)) {
      const unit = chosen.find((u) => u.paths.has(modelPath(m.path)));
      if (unit) m.parent[m.name] = unit.value;
    }
    return copy;
  };
  const batch = await refusedPaths(api, r.endpoint, apply([...units.values()]));
  const notRefused: string[] = [];
  for (const unit of units.values()) {
    if (unit.keys.every((p) => batch.paths.includes(p))) continue;
    const alone = await refusedPaths(api, r.endpoint, apply([unit]));
    for (const p of unit.keys.filter((x) => !alone.paths.includes(x))) notRefused.push(`${p} = ${JSON.stringify(unit.value)} (${alone.status}${alone.status === 400 ? `, paths ${alone.paths.join(', ')}` : ''})`);
  }
  expect(notRefused, 'reference keys of the wrong type or length, not refused with 400 at their path').toEqual([]);
}

/** The values at a model path (`$.a[*].b`) of a document. */
function valuesAt(doc: unknown, path: string): unknown[] {
  let here: unknown[] = [doc];
  for (const step of path.slice(2).split('.')) {
    const [name, each] = step.endsWith('[*]') ? [step.slice(0, -3), true] : [step, false];
    here = here.flatMap((v) => {
      const next = v && typeof v === 'object' ? (v as Body)[name] : undefined;
      if (next === undefined) return [];
      return each ? (Array.isArray(next) ? next : []) : [next];
    });
  }
  return here;
}

/** Every reference the body sent, found again in the record read back: an object of its key fields and at most a `link` object. */
function referencesHeld(r: CompiledResource, sent: Body, got: unknown): { problems: string[]; checked: number } {
  const problems: string[] = [];
  let checked = 0;
  for (const ref of r.references) {
    const keys = ref.fields.map((f) => f.property);
    const returned = valuesAt(got, ref.path);
    for (const s of valuesAt(sent, ref.path)) {
      checked++;
      const expected = Object.fromEntries(keys.map((k) => [k, (s as Body)[k]]));
      const match = returned.find((g) => contains(g, expected).length === 0);
      if (!match) {
        problems.push(`${ref.path}: no returned reference holds ${JSON.stringify(expected)} (returned ${JSON.stringify(returned)})`);
        continue;
      }
      const extra = Object.keys(match as Body).filter((k) => !keys.includes(k) && k !== 'link');
      if (extra.length) problems.push(`${ref.path}: members besides the key fields and link: ${extra.join(', ')}`);
      const link = (match as Body).link;
      if (link !== undefined && (link === null || typeof link !== 'object' || Array.isArray(link))) problems.push(`${ref.path}.link is not an object: ${JSON.stringify(link)}`);
    }
  }
  return { problems, checked };
}

test.describe('every reference shape of the model', () => {
  for (const g of groups()) {
    const r = g.resource;
    test(`refuses each key field of ${r.name}'s references (${g.targets.map((t) => `${t}Reference`).join(', ')}) left out, or of the wrong type or length, with 400 at its path, and returns each reference holding exactly its key fields`, rule('data.references.reference-key-fields-required', 'data.references.reference-key-field-types', 'data.references.reference-object-holds-key-fields'), async ({ api, data }) => {
      const body = await data.body(r.name, {}, { full: g.full });
      const keys = referenceKeysOf(r, body);
      const held = new Set(keys.map((k) => k.reference.target));
      expect(g.targets.filter((t) => !held.has(t)), `the ${r.name} body holds a reference to each of its targets`).toEqual([]);
      const keyPaths = new Set(keys.map((k) => k.path));

      await check('data.references.reference-key-fields-required', `each key field of a ${r.name} reference left out gives 400 at its path`, () =>
        expectEachRefused(api, r.endpoint, r.fields, body, (m) => keyPaths.has(m.path), (m) => { delete m.parent[m.name]; }, 'left out of their reference'));
      await check('data.references.reference-key-field-types', `each key field of a ${r.name} reference of the wrong type or length gives 400 at its path`, () =>
        expectWrongTypesRefused(api, r, body, keys));

      const created = await data.post(r, body);
      const read = await api.get(created.url);
      expect(read.status()).toBe(200);
      const got = await read.json();
      await check('data.references.reference-object-holds-key-fields', `each reference of the ${r.name} read back holds exactly its key fields (and a link object)`, () => {
        const { problems, checked } = referencesHeld(r, body, got);
        expect(checked, 'references checked').toBeGreaterThan(0);
        expect(problems).toEqual([]);
      });
    });
  }
});
