import { expect } from './expect.js';
import type { Field, Fields } from '../../spec/model/dsl.js';
import type { CompiledReference, CompiledResource, ReferenceFieldMapping } from '../../spec/model/compiled.js';
import { keyMaxLength } from '../../spec/model/key-lengths.js';
import { model } from './judged-model.js';
import { resourceOf } from './builders.js';
import { expectProblem } from './problem.js';
import type { DataClient } from './fixtures.js';

/**
 * The members of a write body, walked with the model, for the generated per-member rules
 * (decision 43): each refusal is sent for every member at once first (a refusal names every
 * failing path, decision 4), and a member that batch did not name is sent again alone, so a rule
 * fails only for a member it really does not hold for (reporting all failures at once is a rule
 * of its own, data.errors.all-validation-failures-one-response).
 */
type Body = Record<string, unknown>;

/** Where a member sits: top level, inside a nested object or reference, inside a collection item. */
export type Depth = 'top' | 'object' | 'item';

/** A member present in a body: its JSON path, its parent object and its model entry. */
export interface Member {
  path: string;
  parent: Body;
  name: string;
  depth: Depth;
  /** The model's field; undefined for a reference's key member (always required). */
  field?: Field;
  required: boolean;
}

/** Every member present in `body`, nested objects, references and each collection's first item included. */
export function membersOf(fields: Fields, body: Body, base = '$', depth: Depth = 'top'): Member[] {
  const inner: Depth = depth === 'item' ? 'item' : 'object';
  return Object.entries(fields).flatMap(([name, f]): Member[] => {
    const value = body[name];
    if (value === undefined) return [];
    const here: Member = { path: `${base}.${name}`, parent: body, name, depth, field: f, required: !!(f.required || f.identity) };
    if (f.kind === 'object' && value && typeof value === 'object') return [here, ...membersOf(f.fields, value as Body, here.path, inner)];
    if (f.kind === 'collection' && Array.isArray(value) && value[0] && typeof value[0] === 'object') {
      return [here, ...membersOf(f.item, value[0] as Body, `${here.path}[0]`, 'item')];
    }
    if (f.kind === 'reference' && value && typeof value === 'object') {
      const keys = Object.keys(value as Body).map((k): Member => ({ path: `${here.path}.${k}`, parent: value as Body, name: k, depth: depth === 'item' ? 'item' : 'object', required: true }));
      return [here, ...keys];
    }
    return [here];
  });
}

/** A copy of `body` with `change` applied to the members `choose` picks (found again in the copy). */
export function changed(fields: Fields, body: Body, choose: (m: Member) => boolean, change: (m: Member) => void): { body: Body; members: Member[] } {
  const copy = structuredClone(body);
  const members = membersOf(fields, copy).filter(choose);
  for (const m of members) change(m);
  return { body: copy, members };
}

/** How a body is written: POST to the resource's endpoint by default, or a PUT to a created record. */
export type Write = (body: Body) => ReturnType<DataClient['post']>;

/** The refusal's failing paths; a write that was accepted is tracked, so the record is deleted after the test. */
export async function refusedPaths(api: DataClient, endpoint: string, body: Body, write: Write = (b) => api.post(endpoint, b)): Promise<{ status: number; paths: string[] }> {
  const res = await write(body);
  if (res.status() < 300 && res.headers().location) api.track(res.headers().location);
  if (res.status() !== 400) return { status: res.status(), paths: [] };
  const problem = await expectProblem(res, 'bad-request:data-validation-failed');
  return { status: 400, paths: Object.keys(problem.validationErrors ?? {}) };
}

/**
 * Expects a 400 `data-validation-failed` at each chosen member's path when `change` is applied
 * to it: all at once first, then alone for each member the batch did not name. `what` says what
 * was done to them, for the failure message.
 */
export async function expectEachRefused(api: DataClient, endpoint: string, fields: Fields, body: Body, choose: (m: Member) => boolean, change: (m: Member) => void, what: string, write?: Write): Promise<void> {
  const all = changed(fields, body, choose, change);
  expect(all.members.length, `members to send ${what}`).toBeGreaterThan(0);
  const batch = await refusedPaths(api, endpoint, all.body, write);
  const notRefused: string[] = [];
  for (const m of all.members.filter((x) => !batch.paths.includes(x.path))) {
    const alone = await refusedPaths(api, endpoint, changed(fields, body, (x) => x.path === m.path, change).body, write);
    if (alone.status !== 400 || !alone.paths.includes(m.path)) notRefused.push(`${m.path} (${alone.status}${alone.status === 400 ? `, paths ${alone.paths.join(', ')}` : ''})`);
  }
  expect(notRefused, `members ${what}, not refused with 400 at their path`).toEqual([]);
}

/** Whether `fields` has a member `wanted` picks, at any depth (nested objects and collection items included). */
export const hasMember = (fields: Fields, wanted: (f: Field, name: string) => boolean): boolean => Object.entries(fields).some(([name, f]) =>
  wanted(f, name) || (f.kind === 'object' && hasMember(f.fields, wanted)) || (f.kind === 'collection' && hasMember(f.item, wanted)));

/** A writable string member's maximum length, where the body holds it as a string (undefined otherwise). */
export const stringMaxOf = (m: Member): number | undefined =>
  (m.field?.kind === 'string' && !m.field.readOnly && typeof m.parent[m.name] === 'string' ? m.field.maxLength : undefined);

/** Member names that must equal a reference's member (key unification): changed alone, they would no longer match. */
export const unifiedNames = (resource: string): Set<string> =>
  new Set(resourceOf(resource).references.flatMap((r) => r.fields.flatMap((f) => [f.property, f.queryName])));

/** The value at a member's path in a body (`$.items[0].ref.key`), or undefined. Split on `.`, then a `[n]` suffix: linear. */
export function valueAt(body: unknown, path: string): unknown {
  let at = body;
  for (const step of path.slice(2).split('.')) {
    const open = step.indexOf('[');
    at = (at as Body | undefined)?.[open < 0 ? step : step.slice(0, open)];
    if (open >= 0) at = Array.isArray(at) ? at[Number(step.slice(open + 1, -1))] : undefined;
  }
  return at;
}

/** A member's path as the model writes it: `$.sections[0].sectionReference` → `$.sections[*].sectionReference`. */
export const modelPath = (path: string): string => path.replace(/\[\d+\]/g, '[*]');

/** A key member of a reference present in a body, with the reference and the key field it is. */
export interface ReferenceKey extends Member {
  reference: CompiledReference;
  key: ReferenceFieldMapping;
  /** A string key's maximum length (the referenced record's own key member's), where the model gives one. */
  maxLength?: number;
}

/** The key members of every reference present in `body` (of a collection, its first item's). */
export function referenceKeysOf(resource: CompiledResource, body: Body): ReferenceKey[] {
  return membersOf(resource.fields, body).flatMap((m): ReferenceKey[] => {
    if (m.field) return [];
    const reference = resource.references.find((r) => r.path === modelPath(m.path.slice(0, m.path.lastIndexOf('.'))));
    const key = reference?.fields.find((f) => f.property === m.name);
    if (!reference || !key) return [];
    return [{ ...m, reference, key, ...(key.kind === 'string' ? { maxLength: keyMaxLength(model, reference.target, key.targetPath) } : {}) }];
  });
}

/** Whether a write was accepted (201, or 200 for an upsert); an accepted record is tracked, so it is deleted after the test. */
async function accepted(api: DataClient, endpoint: string, body: Body): Promise<{ ok: boolean; why: string }> {
  const res = await api.post(endpoint, body);
  if (res.status() < 300 && res.headers().location) api.track(res.headers().location);
  const ok = res.status() === 201 || res.status() === 200;
  return { ok, why: ok ? '' : `${res.status()} ${(await res.text()).slice(0, 300)}` };
}

/**
 * Expects a write with `change` applied to every chosen member to be accepted (201, or 200 for
 * an upsert): all at once first, and when that is not accepted, each member alone, so the
 * failure names the members refused (with the answer). `what` says what was done to them.
 */
export async function expectEachAccepted(api: DataClient, endpoint: string, fields: Fields, body: Body, choose: (m: Member) => boolean, change: (m: Member) => void, what: string): Promise<void> {
  const all = changed(fields, body, choose, change);
  expect(all.members.length, `members to send ${what}`).toBeGreaterThan(0);
  const batch = await accepted(api, endpoint, all.body);
  if (batch.ok) return;
  const refused: string[] = [];
  for (const m of all.members) {
    const alone = await accepted(api, endpoint, changed(fields, body, (x) => x.path === m.path, change).body);
    if (!alone.ok) refused.push(`${m.path} (${alone.why})`);
  }
  expect(refused, `members ${what}, refused alone`).toEqual([]);
  expect(batch.why, `every member ${what} at once (${all.members.map((m) => m.path).join(', ')}), though each alone was accepted`).toBe('');
}
