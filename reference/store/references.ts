import type { CompiledModel, CompiledReference, CompiledResource } from '../../spec/model/compiled.js';
import { expandPaths } from './json-path.js';
import { naturalKeyOfValues } from './keys.js';
import type { Collection, StoredRecord } from './store.js';

/**
 * Reference resolution and the reverse index of who references whom. The index makes the
 * dependent-item check of DELETE and the cascade of key changes proportional to the number of
 * referrers, never to the size of the store.
 */
export interface RecordLookup {
  collection(resource: string): Collection;
}

/** The record a reference value names, resolving abstract targets against every member type. */
export function findReferenced(model: CompiledModel, store: RecordLookup, ref: CompiledReference, value: Record<string, unknown>): StoredRecord | undefined {
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

/** The descriptor record a `<namespace>#<codeValue>` value names (case-insensitive). */
export function findDescriptor(model: CompiledModel, store: RecordLookup, descriptor: string, value: string): StoredRecord | undefined {
  const hash = value.lastIndexOf('#');
  if (hash <= 0) return undefined;
  const resource = model.byName.get(`${descriptor}Descriptor`);
  if (!resource) return undefined;
  return store.collection(resource.name).byKey.get(naturalKeyOfValues(resource, [value.slice(0, hash), value.slice(hash + 1)]));
}

/** One outgoing link of a record: the reference (or descriptor) path and the record it names. */
interface Link { path: string; ref?: CompiledReference; target: StoredRecord }

export class ReferenceIndex {
  /** target record → referrer record → the links from that referrer to the target */
  private readonly incoming = new Map<StoredRecord, Map<StoredRecord, Link[]>>();
  private readonly outgoing = new Map<StoredRecord, Link[]>();

  constructor(private readonly model: CompiledModel, private readonly store: RecordLookup) {}

  /** (Re)indexes a record's outgoing references and descriptor values. */
  add(resource: CompiledResource, record: StoredRecord): void {
    this.remove(record);
    const links: Link[] = [];
    for (const ref of resource.references) {
      for (const at of expandPaths(record.doc, ref.path)) {
        if (!at.value || typeof at.value !== 'object') continue;
        const target = findReferenced(this.model, this.store, ref, at.value as Record<string, unknown>);
        if (target) links.push({ path: at.path, ref, target });
      }
    }
    for (const d of resource.descriptors) {
      for (const at of expandPaths(record.doc, d.path)) {
        if (typeof at.value !== 'string') continue;
        const target = findDescriptor(this.model, this.store, d.descriptor, at.value);
        if (target) links.push({ path: at.path, target });
      }
    }
    this.outgoing.set(record, links);
    for (const l of links) {
      let byReferrer = this.incoming.get(l.target);
      if (!byReferrer) this.incoming.set(l.target, (byReferrer = new Map()));
      (byReferrer.get(record) ?? byReferrer.set(record, []).get(record)!).push(l);
    }
  }

  remove(record: StoredRecord): void {
    for (const l of this.outgoing.get(record) ?? []) {
      const byReferrer = this.incoming.get(l.target);
      byReferrer?.delete(record);
      if (byReferrer && !byReferrer.size) this.incoming.delete(l.target);
    }
    this.outgoing.delete(record);
  }

  /** Records that reference the given one, with the paths they reference it at. */
  referrers(record: StoredRecord): Map<StoredRecord, Link[]> {
    return this.incoming.get(record) ?? new Map();
  }
}

