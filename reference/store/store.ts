import { randomFillSync } from 'node:crypto';
import type { CompiledModel, CompiledResource } from '../../spec/model/compiled.js';
import { getPath, setPath } from './json-path.js';
import { keyValues, naturalKey } from './keys.js';
import type { JournalEntry, Persistence, PersistedState } from './persistence.js';
import { ReferenceIndex, type Link, type ResolvedTargets } from './references.js';
import { tombstoneDoc } from './tombstones.js';

/** A stored record: the client's document plus the system members the API adds. */
export interface StoredRecord {
  id: string;
  resource: string;
  doc: Record<string, unknown>;
  /** Canonical natural-key string (see keys.ts). */
  key: string;
  etag: string;
  lastModified: string;
  changeVersion: number;
  /** Change version at creation: the stable order of collections and pages. */
  created: number;
  /** Key of the client that created it, when a client did (per-client record quotas). */
  owner?: string;
}

export interface DeleteEvent {
  id: string;
  changeVersion: number;
  key: string;
  keyValues: Record<string, unknown>;
  /**
   * What the feed's authorization filter reads of the deleted document: its key and securable
   * members only (tombstones.ts), never the whole document.
   */
  doc?: Record<string, unknown>;
}
export interface KeyChangeEvent { id: string; changeVersion: number; oldKeyValues: Record<string, unknown>; newKeyValues: Record<string, unknown> }

/**
 * One resource's records, indexed by id and by natural key (Map order is creation order), plus
 * equality indexes on query fields, built the first time a field is queried and kept up to date
 * from then on.
 */
/**
 * Stored records of a resource the served model does not have: files written by a deployment of
 * another data standard (4.0's parents, 5.2's contacts …). Skipping them would lose them at the
 * next compaction, so loading stops instead (persistence.ts names the file and the resource).
 */
export class UnknownResourceError extends Error {
  constructor(readonly resource: string) { super(`no resource ${resource} in the served model`); }
}

export class Collection {
  readonly byId = new Map<string, StoredRecord>();
  readonly byKey = new Map<string, StoredRecord>();
  readonly deletes: DeleteEvent[] = [];
  /** Natural keys with a delete event in `deletes`, so that a create need not scan the feed. */
  readonly deletedKeys = new Set<string>();
  readonly keyChanges: KeyChangeEvent[] = [];
  private readonly indexes = new Map<string, Map<string, Set<StoredRecord>>>();
  constructor(readonly resource: CompiledResource) {}

  /** Value sets that received a record out of creation order (re-sorted on their next read). */
  private readonly unsorted = new Set<Set<StoredRecord>>();
  private readonly newest = new WeakMap<Set<StoredRecord>, number>();

  /**
   * Records whose query field equals the value key (see queryValueKey), in creation order. The
   * set itself, not a sorted copy: its size is the match count, and reading a page costs the
   * page, not the matches.
   */
  lookup(field: string, valueKey: string): ReadonlySet<StoredRecord> {
    let index = this.indexes.get(field);
    if (!index) {
      index = new Map();
      this.indexes.set(field, index);
      for (const r of this.byId.values()) this.addTo(field, index, r);
    }
    const set = index.get(valueKey);
    if (!set) return EMPTY;
    if (this.unsorted.has(set)) {
      const sorted = [...set].sort((a, b) => a.created - b.created);
      set.clear();
      for (const r of sorted) set.add(r);
      this.unsorted.delete(set);
    }
    return set;
  }

  index(record: StoredRecord): void {
    for (const [field, index] of this.indexes) this.addTo(field, index, record);
  }

  unindex(record: StoredRecord, doc: Record<string, unknown> = record.doc): void {
    for (const [field, index] of this.indexes) this.removeFrom(field, index, record, doc);
  }

  /** After an update: moves the record only in the indexes whose value changed. */
  reindex(record: StoredRecord, oldDoc: Record<string, unknown>): void {
    for (const [field, index] of this.indexes) {
      if (field === 'id') continue;
      const before = this.valueKeyOfDoc(field, oldDoc);
      const after = this.valueKeyOfDoc(field, record.doc);
      if (before === after) continue;
      this.removeFrom(field, index, record, oldDoc);
      this.addTo(field, index, record);
    }
  }

  private removeFrom(field: string, index: Map<string, Set<StoredRecord>>, record: StoredRecord, doc: Record<string, unknown>): void {
    const key = field === 'id' ? queryValueKey('id', record.id) : this.valueKeyOfDoc(field, doc);
    if (key === undefined) return;
    const set = index.get(key);
    set?.delete(record);
    if (set && !set.size) { index.delete(key); this.unsorted.delete(set); }
  }

  private addTo(field: string, index: Map<string, Set<StoredRecord>>, record: StoredRecord): void {
    const key = this.valueKeyOf(field, record);
    if (key === undefined) return;
    let set = index.get(key);
    if (!set) index.set(key, (set = new Set()));
    const newest = this.newest.get(set) ?? -1;
    if (record.created < newest) this.unsorted.add(set);
    else this.newest.set(set, record.created);
    set.add(record);
  }

  private valueKeyOfDoc(field: string, doc: Record<string, unknown>): string | undefined {
    const q = this.resource.queryFields[field];
    const v = getPath(doc, q.path);
    return v === undefined || v === null ? undefined : queryValueKey(q.kind, v);
  }

  private valueKeyOf(field: string, record: StoredRecord): string | undefined {
    const q = this.resource.queryFields[field];
    const v = field === 'id' ? record.id : getPath(record.doc, q.path);
    return v === undefined || v === null ? undefined : queryValueKey(q.kind, v);
  }
}

const EMPTY: ReadonlySet<StoredRecord> = new Set();

/** The comparable form of a query-field value: descriptors and ids case-insensitive. */
export function queryValueKey(kind: string, v: unknown): string {
  if (typeof v === 'string') return kind === 'descriptor' || kind === 'id' ? v.toLowerCase() : v;
  return String(v);
}

/**
 * The authoritative in-memory data store: one change-version counter shared by all resources
 * (decisions #17); every create, update, key change and delete takes the next version.
 */
export class DataStore {
  private version = 0;
  private readonly collections = new Map<string, Collection>();
  /** Who references whom: dependent-item checks and key-change cascades without scans. */
  readonly references: ReferenceIndex;

  constructor(readonly model: CompiledModel) {
    for (const r of model.resources) this.collections.set(r.name, new Collection(r));
    this.references = new ReferenceIndex(model, this);
  }

  collection(resource: string): Collection {
    const c = this.collections.get(resource);
    if (!c) throw new Error(`no collection ${resource}`);
    return c;
  }

  private descriptorIds = 0;
  /** Live records per owning client (per-client record quotas). */
  private readonly owned = new Map<string, number>();
  /** The configured snapshot, served to reads with `Use-Snapshot: true` (decisions #19). */
  snapshot?: DataStore;
  /** Durable stores journal every change before it is acknowledged (persistence.ts). */
  private persistence?: Persistence;

  attach(persistence: Persistence): void {
    this.persistence = persistence;
    persistence.stateOf = () => this.state();
  }

  /** Entries of the operation in progress: journaled together, as one line, when it ends. */
  private batch?: JournalEntry[];
  /**
   * How to take back the operation in progress, newest last, and the records it touched (their
   * references are re-derived once everything is restored, since a reference resolves by key).
   */
  private undo?: { steps: (() => void)[]; touched: Set<StoredRecord> };

  private log(entry: JournalEntry extends infer E ? (E extends JournalEntry ? Omit<E, 'v' | 'd'> : never) : never): void {
    // A store without a journal (memory:) keeps no entries: nothing would ever read them.
    if (!this.persistence) return;
    const full = { ...entry, v: this.version, d: this.descriptorIds } as JournalEntry;
    if (this.batch) this.batch.push(full);
    else this.persistence?.append([full]);
  }

  /**
   * Runs one store operation; everything it journals is appended in one write (all or nothing
   * after a kill). If that write fails (or the operation throws), the operation is taken back in
   * memory before the error goes on, so that a 5xx leaves no trace: memory never holds a change
   * the journal lacks.
   */
  private atomically<T>(operation: () => T): T {
    if (this.batch) return operation();
    this.batch = [];
    this.undo = { steps: [], touched: new Set() };
    const version = this.version;
    try {
      const result = operation();
      if (this.batch.length) this.persistence?.append(this.batch);
      return result;
    } catch (err) {
      const { steps, touched } = this.undo;
      for (let i = steps.length - 1; i >= 0; i--) steps[i]();
      this.version = version;
      for (const r of touched) if (this.collection(r.resource).byId.get(r.id) === r) this.references.add(this.model.byName.get(r.resource)!, r);
      throw err;
    } finally {
      this.batch = undefined;
      this.undo = undefined;
    }
  }

  private onUndo(record: StoredRecord, step: () => void): void {
    this.undo?.steps.push(step);
    this.undo?.touched.add(record);
  }

  /** The whole store as plain data (for compaction into the state file). */
  state(): PersistedState {
    const collections: PersistedState['collections'] = {};
    for (const [name, c] of this.collections) {
      if (!c.byId.size && !c.deletes.length && !c.keyChanges.length) continue;
      collections[name] = { records: [...c.byId.values()], deletes: c.deletes, keyChanges: c.keyChanges };
    }
    return { generation: 0, version: this.version, descriptorIds: this.descriptorIds, collections };
  }

  /** Loads a compacted state into this (empty) store. */
  restore(state: PersistedState): void {
    this.version = state.version;
    this.descriptorIds = state.descriptorIds;
    for (const [name, data] of Object.entries(state.collections)) {
      const c = this.collections.get(name);
      if (!c) {
        if (data.records.length || data.deletes.length || data.keyChanges.length) throw new UnknownResourceError(name);
        continue;
      }
      for (const r of data.records) { r.created ??= r.changeVersion; c.byId.set(r.id, r); c.byKey.set(r.key, r); c.index(r); this.own(r, 1); }
      // An earlier version kept whole documents in delete events.
      for (const d of data.deletes) if (d.doc) d.doc = tombstoneDoc(c.resource, d.doc);
      c.deletes.push(...data.deletes);
      for (const d of data.deletes) c.deletedKeys.add(d.key);
      c.keyChanges.push(...data.keyChanges);
    }
    for (const [name, c] of this.collections) for (const r of c.byId.values()) this.references.add(this.model.byName.get(name)!, r);
  }

  /** Applies one journal entry (replay after a restart; idempotent). */
  replay(entry: JournalEntry): void {
    const c = this.collections.get(entry.r);
    if (!c) throw new UnknownResourceError(entry.r);
    const resource = this.model.byName.get(entry.r)!;
    if (entry.t === 'put') {
      // An update is applied to the record object already loaded, so that the reverse index's
      // links from the records that reference it (keyed by that object) stay valid.
      const old = c.byId.get(entry.rec.id);
      let rec = entry.rec;
      if (old) { c.byKey.delete(old.key); this.references.remove(old); c.unindex(old); this.own(old, -1); rec = Object.assign(old, entry.rec); }
      this.own(rec, 1);
      c.byId.set(rec.id, rec);
      c.byKey.set(rec.key, rec);
      c.index(rec);
      this.references.add(resource, rec);
    } else if (entry.t === 'del') {
      const old = c.byId.get(entry.ev.id);
      if (old) { c.byId.delete(old.id); c.byKey.delete(old.key); this.references.remove(old); c.unindex(old); this.own(old, -1); }
      if (entry.ev.doc) entry.ev.doc = tombstoneDoc(resource, entry.ev.doc);
      if (!c.deletes.some((d) => d.changeVersion === entry.ev.changeVersion)) { c.deletes.push(entry.ev); c.deletedKeys.add(entry.ev.key); }
    } else if (entry.t === 'kc') {
      if (!c.keyChanges.some((k) => k.changeVersion === entry.ev.changeVersion && k.id === entry.ev.id)) c.keyChanges.push(entry.ev);
    } else {
      const i = c.deletes.findIndex((d) => d.key === entry.key);
      if (i >= 0) c.deletes.splice(i, 1);
      c.deletedKeys.delete(entry.key);
    }
    this.version = Math.max(this.version, entry.v);
    this.descriptorIds = Math.max(this.descriptorIds, entry.d);
  }

  /** A deep, independent copy of every record and change feed, frozen at this change version. */
  clone(): DataStore {
    const copy = new DataStore(this.model);
    copy.version = this.version;
    copy.descriptorIds = this.descriptorIds;
    for (const [owner, n] of this.owned) copy.owned.set(owner, n);
    for (const [name, c] of this.collections) {
      const target = copy.collection(name);
      for (const r of c.byId.values()) {
        const record = { ...r, doc: structuredClone(r.doc) };
        target.byId.set(record.id, record);
        target.byKey.set(record.key, record);
        target.index(record);
      }
      target.deletes.push(...structuredClone(c.deletes));
      for (const d of c.deletes) target.deletedKeys.add(d.key);
      target.keyChanges.push(...structuredClone(c.keyChanges));
    }
    for (const [name, c] of copy.collections) for (const r of c.byId.values()) copy.references.add(this.model.byName.get(name)!, r);
    return copy;
  }

  /** Every record of every resource (for digests and persistence). */
  *records(): Iterable<StoredRecord> {
    for (const c of this.collections.values()) yield* c.byId.values();
  }

  get newestChangeVersion(): number { return this.version; }

  /** Live records the client created (its record quota counts these). */
  recordsOwnedBy(client: string): number { return this.owned.get(client) ?? 0; }

  private own(record: StoredRecord, delta: 1 | -1): void {
    if (record.owner === undefined) return;
    const n = (this.owned.get(record.owner) ?? 0) + delta;
    if (n) this.owned.set(record.owner, n);
    else this.owned.delete(record.owner);
  }

  /** Next server-assigned descriptor id (int32, never reused). */
  nextDescriptorId(): number { return ++this.descriptorIds; }

  findByKey(resource: CompiledResource, doc: Record<string, unknown>): StoredRecord | undefined {
    return this.collection(resource.name).byKey.get(naturalKey(resource, doc));
  }

  /** Creates a record. */
  create(resource: CompiledResource, doc: Record<string, unknown>, opts: CreateOptions = {}): StoredRecord {
    return this.atomically(() => this.createNow(resource, doc, opts));
  }

  private createNow(resource: CompiledResource, doc: Record<string, unknown>, { owner, resolved, key = naturalKey(resource, doc) }: CreateOptions): StoredRecord {
    const targets = this.stillCurrent(resolved);
    const c = this.collection(resource.name);
    const record: StoredRecord = { id: newId(), resource: resource.name, doc, key, etag: '', lastModified: '', changeVersion: 0, created: 0 };
    // Set only when there is one: a property spread here made every create build two objects.
    if (owner !== undefined) record.owner = owner;
    this.stamp(record);
    record.created = record.changeVersion;
    c.byId.set(record.id, record);
    c.byKey.set(key, record);
    c.index(record);
    this.references.add(resource, record, targets);
    this.own(record, 1);
    this.onUndo(record, () => { c.byId.delete(record.id); c.byKey.delete(key); c.unindex(record); this.references.remove(record); this.own(record, -1); });
    // A key deleted and created again no longer counts as deleted (decisions #17, upstream).
    const i = c.deletedKeys.has(key) ? c.deletes.findIndex((d) => d.key === key) : -1;
    if (i >= 0) {
      const [event] = c.deletes.splice(i, 1);
      c.deletedKeys.delete(key);
      this.onUndo(record, () => { c.deletes.splice(i, 0, event); c.deletedKeys.add(key); });
      this.log({ t: 'undel', r: resource.name, key });
    }
    this.log({ t: 'put', r: resource.name, rec: record });
    return record;
  }

  /** Replaces a record's document; a changed natural key is re-indexed and logged. */
  replace(resource: CompiledResource, record: StoredRecord, doc: Record<string, unknown>, resolved?: ResolvedTargets): StoredRecord {
    return this.atomically(() => this.replaceNow(resource, record, doc, resolved));
  }

  private replaceNow(resource: CompiledResource, record: StoredRecord, doc: Record<string, unknown>, resolved?: ResolvedTargets): StoredRecord {
    const targets = this.stillCurrent(resolved);
    const c = this.collection(resource.name);
    const key = naturalKey(resource, doc);
    const oldDoc = record.doc;
    const before = { key: record.key, doc: record.doc, etag: record.etag, lastModified: record.lastModified, changeVersion: record.changeVersion };
    this.onUndo(record, () => {
      const newDoc = record.doc;
      if (record.key !== before.key) { c.byKey.delete(record.key); c.byKey.set(before.key, record); }
      Object.assign(record, before);
      c.reindex(record, newDoc);
    });
    if (key !== record.key) {
      const oldKeyValues = keyValues(resource, record.doc);
      // Where each referrer names this record, found while the old key still resolves to it.
      const dependents = [...this.references.referrers(record)].map((r) => [r, this.references.links(r, record)] as const);
      c.byKey.delete(record.key);
      c.byKey.set(key, record);
      record.key = key;
      record.doc = doc;
      c.reindex(record, oldDoc);
      this.stamp(record);
      // Looked up again: the key the checks resolved against has just changed.
      this.references.add(resource, record);
      const event = { id: record.id, changeVersion: record.changeVersion, oldKeyValues, newKeyValues: keyValues(resource, doc) };
      c.keyChanges.push(event);
      this.onUndo(record, () => { c.keyChanges.splice(c.keyChanges.indexOf(event), 1); });
      this.log({ t: 'put', r: resource.name, rec: record });
      this.log({ t: 'kc', r: resource.name, ev: event });
      this.cascade(record, dependents);
      return record;
    }
    record.doc = doc;
    c.reindex(record, oldDoc);
    this.references.add(resource, record, targets);
    this.stamp(record);
    this.log({ t: 'put', r: resource.name, rec: record });
    return record;
  }

  /**
   * A changed natural key flows into every record that references it, recursively, array items
   * included; each changed record takes a new change version (and a key-change event when its
   * own key changed as a result).
   */
  private cascade(target: StoredRecord, dependents: (readonly [StoredRecord, Link[]])[]): void {
    const targetResource = this.model.byName.get(target.resource)!;
    for (const [referrer, links] of dependents) {
      const resource = this.model.byName.get(referrer.resource)!;
      const doc = structuredClone(referrer.doc);
      for (const link of links) {
        if (!link.ref) continue;
        for (const m of link.ref.fields) {
          const path = targetResource.educationOrganization && m.targetPath === '$.educationOrganizationId' ? `$.${targetResource.educationOrganization.idField}` : m.targetPath;
          setPath(doc, `${link.path}.${m.property}`, getPath(target.doc, path));
        }
      }
      this.replace(resource, referrer, doc);
    }
  }

  /** Targets resolved at the store's current version, else undefined (to be looked up again). */
  private stillCurrent(resolved: ResolvedTargets | undefined): StoredRecord[] | undefined {
    return resolved && resolved.version === this.version ? resolved.records : undefined;
  }

  remove(resource: CompiledResource, record: StoredRecord): void {
    this.atomically(() => this.removeNow(resource, record));
  }

  private removeNow(resource: CompiledResource, record: StoredRecord): void {
    const c = this.collection(resource.name);
    this.references.remove(record);
    c.unindex(record);
    c.byId.delete(record.id);
    c.byKey.delete(record.key);
    this.own(record, -1);
    const event = { id: record.id, changeVersion: ++this.version, key: record.key, keyValues: keyValues(resource, record.doc), doc: tombstoneDoc(resource, record.doc) };
    c.deletes.push(event);
    const wasDeleted = c.deletedKeys.has(event.key);
    c.deletedKeys.add(event.key);
    this.onUndo(record, () => {
      c.deletes.splice(c.deletes.indexOf(event), 1);
      if (!wasDeleted) c.deletedKeys.delete(event.key);
      // Back in its place in creation order (the order of collections and pages).
      const records = [...c.byId.values(), record].sort((a, b) => a.created - b.created);
      c.byId.clear();
      for (const r of records) c.byId.set(r.id, r);
      c.byKey.set(record.key, record);
      c.index(record);
      this.own(record, 1);
    });
    this.log({ t: 'del', r: resource.name, ev: event });
  }

  private stamp(record: StoredRecord): StoredRecord {
    record.changeVersion = ++this.version;
    record.etag = String(record.changeVersion);
    record.lastModified = this.now();
    return record;
  }

  /** The current time as an ISO string; records stamped in the same millisecond share it. */
  private lastStamp = { ms: -1, iso: '' };
  private now(): string {
    const ms = Date.now();
    if (ms !== this.lastStamp.ms) this.lastStamp = { ms, iso: new Date(ms).toISOString() };
    return this.lastStamp.iso;
  }
}

export interface CreateOptions {
  /** The key of the client creating the record (counted for its quota). */
  owner?: string;
  /** What the write's checks found its references and descriptors to name (ResolvedTargets). */
  resolved?: ResolvedTargets;
  /** The document's natural key (keys.ts naturalKey), when the caller has just computed it to look the key up. */
  key?: string;
}

/** Resource ids: GUIDs as 32 lower-case hex digits (decisions #16a). */
// Drawn from a pool filled 256 ids at a time (randomBytes(16) calls into OpenSSL each time), and
// written as hex directly: randomUUID().replaceAll('-', '') spent 1.3 µs of its 1.5 removing dashes.
// Version 4 and variant bits as randomUUID sets them, so an id reads as the GUID it is.
const ID_POOL = Buffer.alloc(16 * 256);
let idOffset = ID_POOL.length;
export const newId = (): string => {
  if (idOffset === ID_POOL.length) {
    randomFillSync(ID_POOL);
    idOffset = 0;
  }
  const at = idOffset;
  idOffset += 16;
  ID_POOL[at + 6] = (ID_POOL[at + 6] & 0x0f) | 0x40;
  ID_POOL[at + 8] = (ID_POOL[at + 8] & 0x3f) | 0x80;
  return ID_POOL.toString('hex', at, at + 16);
};
