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
  for (const { resource, properties } of lookupsOf(model, ref)) {
    const hit = store.collection(resource.name).byKey.get(naturalKeyOfValues(resource, properties.map((p) => value[p])));
    if (hit) return hit;
  }
  return undefined;
}

/**
 * Where a reference's target records are looked up: each resource its target may be (one, or
 * every member type of an abstract target), with the reference's property holding each part of
 * that resource's identity, in identity order. Made once per reference: every write resolves
 * its references.
 */
interface Lookup { resource: CompiledResource; properties: string[] }
const lookups = new WeakMap<CompiledReference, Lookup[]>();
function lookupsOf(model: CompiledModel, ref: CompiledReference): Lookup[] {
  let found = lookups.get(ref);
  if (found) return found;
  const abstract = model.abstracts.find((a) => a.name === ref.target);
  if (abstract) {
    found = abstract.members.map((m) => {
      const member = model.byName.get(m.resource)!;
      return { resource: member, properties: member.identity.map((part) => ref.fields.find((f) => `$.${m.fieldFor[f.property] ?? f.property}` === part.path)?.property ?? part.name) };
    });
  } else {
    const target = model.byName.get(ref.target)!;
    found = [{ resource: target, properties: target.identity.map((part) => ref.fields.find((f) => f.targetPath === part.path)?.property ?? part.name) }];
  }
  lookups.set(ref, found);
  return found;
}

/** The descriptor record a `<namespace>#<codeValue>` value names (case-insensitive). */
export function findDescriptor(model: CompiledModel, store: RecordLookup, descriptor: string, value: string): StoredRecord | undefined {
  return descriptorRecord(store, descriptorResource(model, descriptor), value);
}

/** The record of the descriptor resource (none: the model has no such descriptor) a value names. */
export function descriptorRecord(store: RecordLookup, resource: CompiledResource | undefined, value: string): StoredRecord | undefined {
  if (!resource) return undefined;
  const key = descriptorKey(resource, value);
  return key === undefined ? undefined : store.collection(resource.name).byKey.get(key);
}

/**
 * The resource of a descriptor named without its `Descriptor` suffix, looked up by the model's own
 * string: the name made by appending the suffix was a new string to hash on every value of every
 * write (0.1 µs each).
 */
const descriptorResources = new WeakMap<CompiledModel, Map<string, CompiledResource | undefined>>();
export function descriptorResource(model: CompiledModel, descriptor: string): CompiledResource | undefined {
  let byDescriptor = descriptorResources.get(model);
  if (!byDescriptor) descriptorResources.set(model, (byDescriptor = new Map()));
  let resource = byDescriptor.get(descriptor);
  if (resource === undefined && !byDescriptor.has(descriptor)) byDescriptor.set(descriptor, (resource = model.byName.get(`${descriptor}Descriptor`)));
  return resource;
}

/**
 * The natural key a descriptor value names, if it has the `<namespace>#<codeValue>` shape. Every
 * descriptor resource is keyed by (namespace, codeValue), compared case-insensitively, so one
 * value names one key string whatever the descriptor: they are kept by value, since a store's
 * writes name the same few values over and over. Bounded: values never seen again (typing
 * mistakes, a client sending new ones each time) only refill it.
 */
const descriptorKeys = new Map<string, string | undefined>();
const DESCRIPTOR_KEYS_KEPT = 10_000;
function descriptorKey(resource: CompiledResource, value: string): string | undefined {
  let key = descriptorKeys.get(value);
  if (key !== undefined || descriptorKeys.has(value)) return key;
  const hash = value.lastIndexOf('#');
  key = hash <= 0 ? undefined : naturalKeyOfValues(resource, [value.slice(0, hash), value.slice(hash + 1)]);
  if (descriptorKeys.size >= DESCRIPTOR_KEYS_KEPT) descriptorKeys.clear();
  descriptorKeys.set(value, key);
  return key;
}

/**
 * The records a write's checks resolved (its descriptor values and references), and the store's
 * change version when they did: the store indexes the write with them instead of looking every
 * one up again, while it is still at that version (nothing was written in between).
 */
export class ResolvedTargets {
  private readonly found = new Set<StoredRecord>();
  constructor(readonly version: number) {}
  add(record: StoredRecord): void { this.found.add(record); }
  get records(): StoredRecord[] { return [...this.found]; }
}

/** Where a referrer names a target: the concrete reference (or descriptor) path. */
export interface Link { path: string; ref?: CompiledReference }

/** Referrers of one target: the records themselves, or only how many there are per resource. */
type Referrers = Set<StoredRecord> | Map<string, number>;

/**
 * Who references whom, kept compact because it holds an entry per reference of every stored
 * record (at a million records the first design, a map of link arrays per target, took ~1.3 KB
 * per record, more than the records themselves). The records that reference a target are kept
 * only where a cascade may need them, for targets whose natural key can change; for every
 * other target (descriptors, students, schools...) the dependent-item check needs no more than
 * a count per referring resource. The paths of a link are recomputed on the rare paths that
 * need them (key-change cascades).
 */
export class ReferenceIndex {
  private readonly incoming = new Map<StoredRecord, Referrers>();
  /** referrer → its distinct targets (one record or several), to unlink it without lookups */
  private readonly outgoing = new Map<StoredRecord, StoredRecord | StoredRecord[]>();
  /** Resources whose records can change key: updatable, or keyed by a reference to one. */
  private readonly keyMutable: Set<string>;

  constructor(private readonly model: CompiledModel, private readonly store: RecordLookup) {
    this.keyMutable = keyMutableResources(model);
  }

  /**
   * (Re)indexes a record's outgoing references and descriptor values. `resolved`: the distinct
   * records they name, when the write's own checks already looked them up in the store as it is
   * now (ResolvedTargets); otherwise they are looked up here.
   */
  add(resource: CompiledResource, record: StoredRecord, resolved?: StoredRecord[]): void {
    this.remove(record);
    const targets = resolved ?? this.targetsOf(resource, record);
    if (!targets.length) return;
    for (const target of targets) {
      let referrers = this.incoming.get(target);
      if (!referrers) this.incoming.set(target, (referrers = this.keyMutable.has(target.resource) ? new Set() : new Map()));
      if (referrers instanceof Set) referrers.add(record);
      else referrers.set(record.resource, (referrers.get(record.resource) ?? 0) + 1);
    }
    this.outgoing.set(record, targets.length === 1 ? targets[0] : targets);
  }

  remove(record: StoredRecord): void {
    const targets = this.outgoing.get(record);
    if (targets === undefined) return;
    for (const target of Array.isArray(targets) ? targets : [targets]) {
      const referrers = this.incoming.get(target);
      if (!referrers) continue;
      if (referrers instanceof Set) referrers.delete(record);
      else {
        const n = (referrers.get(record.resource) ?? 0) - 1;
        if (n > 0) referrers.set(record.resource, n);
        else referrers.delete(record.resource);
      }
      if (!referrers.size) this.incoming.delete(target);
    }
    this.outgoing.delete(record);
  }

  /** Names of the resources whose records reference the given one (dependent-item check). */
  referringResources(target: StoredRecord): string[] {
    const referrers = this.incoming.get(target);
    if (!referrers) return [];
    if (referrers instanceof Map) return [...referrers.keys()];
    const names = new Set<string>();
    for (const r of referrers) names.add(r.resource);
    return [...names];
  }

  /** Records that reference the given one; known only for targets whose key can change. */
  referrers(target: StoredRecord): ReadonlySet<StoredRecord> {
    if (!this.keyMutable.has(target.resource)) throw new Error(`referrers of ${target.resource} are counted, not kept: its key cannot change`);
    return (this.incoming.get(target) as Set<StoredRecord> | undefined) ?? NONE;
  }

  /** Whether the index links the referrer to the target (for invariant checks). */
  knows(referrer: StoredRecord, target: StoredRecord): boolean {
    const targets = this.outgoing.get(referrer);
    return targets === target || (Array.isArray(targets) && targets.includes(target));
  }

  /** The records the index holds a record to name (for invariant checks). */
  targetsKnown(referrer: StoredRecord): StoredRecord[] {
    const targets = this.outgoing.get(referrer);
    return targets === undefined ? [] : Array.isArray(targets) ? [...targets] : [targets];
  }

  /** The paths at which `referrer` names `target` through a reference, resolved against the store as it is now. */
  links(referrer: StoredRecord, target: StoredRecord): Link[] {
    const out: Link[] = [];
    this.visit(this.model.byName.get(referrer.resource)!, referrer, (named, path, ref) => { if (named === target && ref) out.push({ path, ref }); });
    return out;
  }

  /** The distinct records a record's references and descriptor values name (an exact-length array). */
  private targetsOf(resource: CompiledResource, record: StoredRecord): StoredRecord[] {
    const targets = new Set<StoredRecord>();
    this.visit(resource, record, (named) => targets.add(named));
    return [...targets];
  }

  /** Calls `found` for every reference and descriptor value of a record that names a stored record. */
  private visit(resource: CompiledResource, record: StoredRecord, found: (target: StoredRecord, path: string, ref?: CompiledReference) => void): void {
    for (const ref of resource.references) {
      for (const at of expandPaths(record.doc, ref.path)) {
        const target = at.value && typeof at.value === 'object' ? findReferenced(this.model, this.store, ref, at.value as Record<string, unknown>) : undefined;
        if (target) found(target, at.path, ref);
      }
    }
    for (const d of resource.descriptors) {
      for (const at of expandPaths(record.doc, d.path)) {
        const target = typeof at.value === 'string' ? findDescriptor(this.model, this.store, d.descriptor, at.value) : undefined;
        if (target) found(target, at.path);
      }
    }
  }
}

const NONE: ReadonlySet<StoredRecord> = new Set();

/**
 * Resources whose natural key can change: updatable ones, and (to a fixed point) those whose
 * identity includes a reference to one, since a cascade rewrites that reference.
 */
export function keyMutableResources(model: CompiledModel): Set<string> {
  const mutable = new Set(model.resources.filter((r) => r.updatable).map((r) => r.name));
  const targetMutable = (target: string) => mutable.has(target) || (model.abstracts.find((a) => a.name === target)?.members.some((m) => mutable.has(m.resource)) ?? false);
  for (let grew = true; grew;) {
    grew = false;
    for (const r of model.resources) {
      const inKey = (ref: CompiledReference) => r.identity.some((part) => part.path.startsWith(`${ref.path}.`));
      if (mutable.has(r.name) || !r.references.some((ref) => inKey(ref) && targetMutable(ref.target))) continue;
      mutable.add(r.name);
      grew = true;
    }
  }
  return mutable;
}
