import type { CompiledModel, CompiledResource } from '../../spec/model/compiled.js';
import { stringifyExact } from '../http/exact-json.js';
import { Problem } from '../http/problems.js';
import type { DataStore, StoredRecord } from '../store/store.js';
import { expandPaths } from '../store/json-path.js';
import { findDescriptor, findReferenced } from '../store/references.js';

/**
 * Write-time integrity checks driven by the model: key unification, descriptor existence (400)
 * and reference resolution (409), each reporting every failure of the request at once.
 */

/** Same-named key values given differently across references (seed: key unification). */
export function checkUnification(resource: CompiledResource, doc: Record<string, unknown>): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (const eq of resource.equalities) {
    const found = eq.paths.flatMap((p) => expandPaths(doc, p)).filter((x) => x.value !== undefined && x.value !== null);
    const distinct = [...new Set(found.map((x) => stringifyExact(x.value)))];
    if (distinct.length > 1) {
      const message = `All values supplied for '${eq.name}' must match. Review all references (including those higher up in the resource's data) and align the following conflicting values: ${distinct.map((v) => `'${JSON.parse(v)}'`).join(', ')}`;
      for (const x of found) (errors[x.path] ??= []).push(message);
    }
  }
  return errors;
}

/**
 * Descriptor values must name an existing descriptor (`<namespace>#<codeValue>`, matched
 * case-insensitively); they are rewritten in place to the stored canonical spelling.
 */
export function resolveDescriptors(model: CompiledModel, store: DataStore, resource: CompiledResource, doc: Record<string, unknown>): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (const d of resource.descriptors) {
    for (const at of expandPaths(doc, d.path)) {
      if (typeof at.value !== 'string') continue;
      const found = findDescriptor(model, store, d.descriptor, at.value);
      if (found) at.set(`${found.doc.namespace as string}#${found.doc.codeValue as string}`);
      else (errors[at.path] ??= []).push(`${pascal(d.descriptor)}Descriptor value '${at.value}' does not exist.`);
    }
  }
  return errors;
}

/** Every reference of the document must name an existing record (409 unresolved-reference). */
export function checkReferences(model: CompiledModel, store: DataStore, resource: CompiledResource, doc: Record<string, unknown>): void {
  const errors: Record<string, string[]> = {};
  const targets = new Set<string>();
  for (const ref of resource.references) {
    for (const at of expandPaths(doc, ref.path)) {
      if (!at.value || typeof at.value !== 'object') continue;
      if (!findReferenced(model, store, ref, at.value as Record<string, unknown>)) {
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

/** Resource types whose records still reference the given record (409 dependent-item-exists). */
export function dependents(store: DataStore, record: StoredRecord): string[] {
  const names = new Set<string>();
  for (const referrer of store.references.referrers(record).keys()) names.add(store.model.byName.get(referrer.resource)!.resourceName);
  return [...names].sort();
}

const pascal = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
