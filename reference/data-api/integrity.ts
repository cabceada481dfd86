import type { CompiledModel, CompiledResource, CompiledReference } from '../../spec/model/compiled.js';
import { stringifyExact } from '../http/exact-json.js';
import { Problem } from '../http/problems.js';
import type { DataStore, StoredRecord } from '../store/store.js';
import { expandPaths } from '../store/json-path.js';
import { naturalKeyOfValues } from '../store/keys.js';

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

export function findDescriptor(model: CompiledModel, store: DataStore, descriptor: string, value: string): StoredRecord | undefined {
  const hash = value.lastIndexOf('#');
  if (hash <= 0) return undefined;
  const resource = model.byName.get(`${descriptor}Descriptor`);
  if (!resource) return undefined;
  return store.collection(resource.name).byKey.get(naturalKeyOfValues(resource, [value.slice(0, hash), value.slice(hash + 1)]));
}

/** The record a reference names, resolving abstract targets against every member type. */
export function findReferenced(model: CompiledModel, store: DataStore, ref: CompiledReference, value: Record<string, unknown>): StoredRecord | undefined {
  const abstract = model.abstracts.find((a) => a.name === ref.target);
  if (abstract) {
    for (const m of abstract.members) {
      const member = model.byName.get(m.resource)!;
      const values = member.identity.map((part) => value[ref.fields.find((f) => `$.${m.fieldFor[f.property] ?? f.property}` === part.path)?.property ?? part.name]);
      const hit = store.collection(member.name).byKey.get(naturalKeyOfValues(member, values));
      if (hit) return hit;
    }
    return undefined;
  }
  const target = model.byName.get(ref.target)!;
  const values = target.identity.map((part) => value[ref.fields.find((f) => f.targetPath === part.path)?.property ?? part.name]);
  return store.collection(target.name).byKey.get(naturalKeyOfValues(target, values));
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
export function dependents(model: CompiledModel, store: DataStore, resource: CompiledResource, record: StoredRecord): string[] {
  const names = new Set<string>();
  const targetNames = new Set([resource.name, ...model.abstracts.filter((a) => a.members.some((m) => m.resource === resource.name)).map((a) => a.name)]);
  for (const other of model.resources) {
    if (resource.isDescriptor) {
      const value = `${record.doc.namespace as string}#${record.doc.codeValue as string}`.toLowerCase();
      const descriptor = resource.name.slice(0, -'Descriptor'.length);
      const paths = other.descriptors.filter((d) => d.descriptor === descriptor).map((d) => d.path);
      if (!paths.length) continue;
      for (const rec of store.collection(other.name).byId.values()) {
        if (paths.some((p) => expandPaths(rec.doc, p).some((x) => typeof x.value === 'string' && x.value.toLowerCase() === value))) {
          names.add(other.resourceName);
          break;
        }
      }
      continue;
    }
    const refs = other.references.filter((r) => targetNames.has(r.target));
    if (!refs.length) continue;
    for (const rec of store.collection(other.name).byId.values()) {
      if (refs.some((ref) => expandPaths(rec.doc, ref.path).some((x) => x.value && findReferenced(model, store, ref, x.value as Record<string, unknown>) === record))) {
        names.add(other.resourceName);
        break;
      }
    }
  }
  return [...names].sort();
}

const pascal = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
