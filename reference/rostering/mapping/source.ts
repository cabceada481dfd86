import type { CompiledModel, CompiledReference, CompiledResource } from '../../../spec/model/compiled.js';
import { naturalKeyOfValues } from '../../store/keys.js';
import type { DataStore, StoredRecord } from '../../store/store.js';

/**
 * Read access to the core data a mapping needs, through the compiled model: records of a
 * resource, references resolved by natural key (O(1) through the store's key index), and the
 * education organization hierarchy built from every member's parent references.
 */
export type Doc = Record<string, unknown>;

export class Source {
  /** Education organization id → its record and resource. */
  readonly orgs = new Map<string, { record: StoredRecord; resource: CompiledResource }>();
  /** Education organization id → parent organization ids (model `educationOrganization.parents`). */
  readonly parents = new Map<string, string[]>();
  readonly children = new Map<string, string[]>();
  /** Resolved references by `<record id>|<property>`: each is resolved once per build. */
  private readonly followed = new Map<string, StoredRecord | undefined>();
  private readonly memos = new Map<string, unknown>();

  constructor(readonly model: CompiledModel, readonly store: DataStore) {
    for (const r of model.resources) {
      if (!r.educationOrganization) continue;
      for (const rec of this.records(r.name)) this.orgs.set(idText(rec.doc[r.educationOrganization.idField]), { record: rec, resource: r });
    }
    for (const [id, { record, resource }] of this.orgs) {
      const ps: string[] = [];
      for (const path of resource.educationOrganization!.parents) {
        const ref = resource.references.find((x) => x.path === path);
        const target = ref && record.doc[path.slice(2)];
        const parent = ref && target && typeof target === 'object' ? this.resolve(ref, target as Doc) : undefined;
        const parentId = parent && this.orgIdOf(parent);
        if (parentId && this.orgs.has(parentId) && parentId !== id) ps.push(parentId);
      }
      this.parents.set(id, ps);
      for (const p of ps) (this.children.get(p) ?? this.children.set(p, []).get(p)!).push(id);
    }
  }

  resource(name: string): CompiledResource {
    const r = this.model.byName.get(name);
    if (!r) throw new Error(`model has no resource ${name}`);
    return r;
  }

  records(resource: string): IterableIterator<StoredRecord> {
    return this.store.collection(resource).byId.values();
  }

  /** The record a reference value names (abstract targets tried member by member). */
  resolve(ref: CompiledReference, value: Doc): StoredRecord | undefined {
    const abstract = this.model.abstracts.find((a) => a.name === ref.target);
    if (abstract) {
      for (const m of abstract.members) {
        const member = this.resource(m.resource);
        const values = member.identity.map((part) => {
          const f = ref.fields.find((x) => `$.${m.fieldFor[x.property] ?? x.property}` === part.path);
          return value[f?.property ?? part.name];
        });
        const hit = this.store.collection(member.name).byKey.get(naturalKeyOfValues(member, values));
        if (hit) return hit;
      }
      return undefined;
    }
    const target = this.resource(ref.target);
    const values = target.identity.map((part) => value[ref.fields.find((f) => f.targetPath === part.path)?.property ?? part.name]);
    return this.store.collection(target.name).byKey.get(naturalKeyOfValues(target, values));
  }

  /** Follows `<resource>.<referenceProperty>` from a record, e.g. ref(section, 'courseOfferingReference'). */
  follow(record: StoredRecord, property: string): StoredRecord | undefined {
    const key = `${record.id}|${property}`;
    if (this.followed.has(key)) return this.followed.get(key);
    const value = record.doc[property];
    const ref = value && typeof value === 'object' ? this.resource(record.resource).references.find((r) => r.path === `$.${property}`) : undefined;
    const hit = ref ? this.resolve(ref, value as Doc) : undefined;
    this.followed.set(key, hit);
    return hit;
  }

  /** A value computed once per build (facts several mappers need). */
  memo<T>(key: string, compute: () => T): T {
    if (!this.memos.has(key)) this.memos.set(key, compute());
    return this.memos.get(key) as T;
  }

  /** The education organization id of an organization record. */
  orgIdOf(record: StoredRecord): string | undefined {
    const r = this.resource(record.resource);
    return r.educationOrganization ? idText(record.doc[r.educationOrganization.idField]) : undefined;
  }
}

/** Ids of int64 values (numbers or BigInt) as decimal text. */
export const idText = (v: unknown): string => (v === undefined || v === null ? '' : String(v));

/** The code value of a descriptor URI `<namespace>#<codeValue>`. */
export const codeValue = (uri: unknown): string | undefined =>
  typeof uri === 'string' && uri.includes('#') ? uri.slice(uri.lastIndexOf('#') + 1) : undefined;
