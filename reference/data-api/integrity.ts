import type { CompiledModel, CompiledReference, CompiledResource, EqualityConstraint } from '../../spec/model/compiled.js';
import { stringifyExact } from '../http/exact-json.js';
import { Problem } from '../http/problems.js';
import type { DataStore, StoredRecord } from '../store/store.js';
import { expandPaths, getPath } from '../store/json-path.js';
import { findReferenced, type ResolvedTargets } from '../store/references.js';

/**
 * Write-time integrity checks driven by the model: key unification, descriptor existence (400)
 * and reference resolution (409), each reporting every failure of the request at once. The
 * first two run inside the write plan (write-plan.ts), as it meets the values.
 */

/**
 * The refusals of one key unification (seed: same-named key values given differently across
 * references): every path of a value, when the values found (nulls and absent ones aside) are
 * not all one. The write plan calls this only for an equality whose values it saw differ.
 */
export function unificationErrors(eq: EqualityConstraint, doc: Record<string, unknown>, report: (path: string, message: string) => void): void {
  const found = eq.paths.flatMap((p) => expandPaths(doc, p)).filter((x) => x.value !== undefined && x.value !== null);
  const distinct = [...new Set(found.map((x) => stringifyExact(x.value)))];
  if (distinct.length < 2) return;
  const message = `All values supplied for '${eq.name}' must match. Review all references (including those higher up in the resource's data) and align the following conflicting values: ${distinct.map((v) => `'${JSON.parse(v)}'`).join(', ')}`;
  for (const x of found) report(x.path, message);
}

/** The refusal of a descriptor value that names no stored descriptor (400). */
export const missingDescriptorMessage = (descriptor: string, value: string) => `${pascal(descriptor)}Descriptor value '${value}' does not exist.`;

/**
 * A descriptor's `<namespace>#<codeValue>` in its stored spelling, one string per descriptor:
 * the documents that use it share that string rather than holding a copy each (descriptor
 * values are most of the text of a typical document).
 */
const spellings = new WeakMap<StoredRecord, { namespace: unknown; codeValue: unknown; value: string }>();
export function canonicalSpelling(descriptor: StoredRecord): string {
  const { namespace, codeValue } = descriptor.doc;
  const cached = spellings.get(descriptor);
  if (cached && cached.namespace === namespace && cached.codeValue === codeValue) return cached.value;
  const value = `${namespace as string}#${codeValue as string}`;
  spellings.set(descriptor, { namespace, codeValue, value });
  return value;
}

/**
 * Every reference of the document must name an existing record (409 unresolved-reference).
 * Key strings of a resolved reference are replaced by the equal strings of the target, so that
 * the many documents referencing one record share them. The records named are added to `resolved`.
 * `sites`: the document's references as its write plan kept them (pairs of the reference's index
 * and its object), so the usual write, whose references all resolve, is not walked again by path;
 * when one does not, the walk by path reports every failure, in the order of the model's references.
 */
export function checkReferences(model: CompiledModel, store: DataStore, resource: CompiledResource, doc: Record<string, unknown>, resolved?: ResolvedTargets, sites?: ReferenceSites): void {
  if (sites && resolvesAll(model, store, resource, sites, resolved)) return;
  const errors: Record<string, string[]> = {};
  const targets = new Set<string>();
  for (const ref of resource.references) {
    for (const at of expandPaths(doc, ref.path)) {
      if (!at.value || typeof at.value !== 'object') continue;
      if (!resolveReference(model, store, ref, at.value as Record<string, unknown>, resolved)) {
        const name = pascal(ref.target);
        targets.add(name);
        (errors[at.path] ??= []).push(`The referenced ${name} item does not exist.`);
      }
    }
  }
  if (targets.size) {
    throw new Problem('data-conflict:unresolved-reference', {
      detail: `The referenced ${[...targets].join(', ')} item${targets.size > 1 ? 's do' : ' does'} not exist.`,
      validationErrors: errors,
    });
  }
}

/** A document's references: the index of each in its resource's `references`, then the reference object. */
export type ReferenceSites = (number | Record<string, unknown>)[];

function resolvesAll(model: CompiledModel, store: DataStore, resource: CompiledResource, sites: ReferenceSites, resolved?: ResolvedTargets): boolean {
  for (let i = 0; i < sites.length; i += 2) {
    if (!resolveReference(model, store, resource.references[sites[i] as number], sites[i + 1] as Record<string, unknown>, resolved)) return false;
  }
  return true;
}

/** Resolves one reference object: its target is added to `resolved` and lends it its key strings. */
function resolveReference(model: CompiledModel, store: DataStore, ref: CompiledReference, value: Record<string, unknown>, resolved?: ResolvedTargets): boolean {
  const target = findReferenced(model, store, ref, value);
  if (!target) return false;
  resolved?.add(target);
  for (const f of ref.fields) {
    const mine = value[f.property];
    if (typeof mine !== 'string') continue;
    const theirs = getPath(target.doc, f.targetPath);
    if (theirs === mine) value[f.property] = theirs;
  }
  return true;
}

/** Resource types whose records still reference the given record (409 dependent-item-exists). */
export function dependents(store: DataStore, record: StoredRecord): string[] {
  return store.references.referringResources(record).map((name) => store.model.byName.get(name)!.resourceName).sort();
}

const pascal = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
