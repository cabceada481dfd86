import type { PersonKind } from '../../../spec/model/dsl.js';
import type { CompiledResource } from '../../../spec/model/compiled.js';
import type { StoredRecord } from '../../store/store.js';
import type { Doc, Source } from './source.js';

/**
 * A person's facts wherever the served data standard keeps them: on the person record, or on a
 * record keyed by a reference to the person. DS 4.0 and 5.2 keep a student's e-mails,
 * identification codes, sex, races and ethnicity on its education organization associations
 * and a staff member's on the staff record; 6.1 moved them to resources of their own
 * (research upstream-shapes/versions.md: "`Staff` loses its addresses, telephones, e-mails,
 * races, languages, identification documents, … (now `StaffDemographic`, `StaffDirectory`,
 * `StaffIdentificationCode`); `StudentEducationOrganizationAssociation` loses its demographics,
 * addresses and identification codes (now `StudentDemographic`, `StudentDirectory`,
 * `StudentIdentificationCode`)"). Looking a fact up by its member name across those records
 * finds it in every standard without naming a resource of any. The person kinds are the
 * model's (annotations.ts `persons`: DS 4.0's parent is the contact of later standards).
 */
export class PersonFacts {
  readonly resource: CompiledResource;

  private constructor(private readonly src: Source, readonly kind: PersonKind) {
    const resource = src.model.resources.find((r) => r.person === kind);
    if (!resource) throw new Error(`model has no ${kind} resource`);
    this.resource = resource;
  }

  /** The facts of one kind of person, once per mapping. */
  static of(src: Source, kind: PersonKind): PersonFacts {
    return src.memo(`personFacts:${kind}`, () => new PersonFacts(src, kind));
  }

  /** The person's unique id member (`studentUniqueId`, 4.0's `parentUniqueId` …). */
  get uniqueId(): string {
    return this.resource.identity[0].name;
  }

  /** The records about the person that carry `member` at their top level (the person's own first). */
  holding(person: StoredRecord, member: string): StoredRecord[] {
    const own = member in this.resource.fields ? [person] : [];
    const about = this.about().filter((a) => member in a.resource.fields);
    return [...own, ...about.flatMap((a) => this.byPerson(a).get(person.id) ?? [])];
  }

  /** Every value of `member` about the person; a collection's items one by one. */
  values(person: StoredRecord, member: string): unknown[] {
    return this.holding(person, member).flatMap((r) => (Array.isArray(r.doc[member]) ? (r.doc[member] as unknown[]) : [r.doc[member]]))
      .filter((v) => v !== undefined && v !== null);
  }

  /**
   * The person's identification codes: objects holding `<person>IdentificationSystemDescriptor`,
   * a record of their own (6.1) or the items of a collection of a record about the person (4.0, 5.2).
   */
  codes(person: StoredRecord): Doc[] {
    const system = `${this.resource.name}IdentificationSystemDescriptor`;
    const out: Doc[] = this.holding(person, system).map((r) => r.doc);
    for (const member of this.collectionsHolding(system)) out.push(...(this.values(person, member) as Doc[]));
    return out.filter((c) => c[system] !== undefined);
  }

  /** Top-level collections, of the person or of records about it, whose items hold `member`. */
  private collectionsHolding(member: string): string[] {
    return this.src.memo(`personFacts:${this.kind}:collections:${member}`, () => {
      const names = new Set<string>();
      for (const r of [this.resource, ...this.about().map((a) => a.resource)]) {
        for (const [name, f] of Object.entries(r.fields)) if (f.kind === 'collection' && member in f.item) names.add(name);
      }
      return [...names];
    });
  }

  /** Resources keyed by a reference to the person (at their top level), with that reference's member. */
  private about(): { resource: CompiledResource; via: string }[] {
    return this.src.memo(`personFacts:${this.kind}:about`, () => this.src.model.resources.flatMap((r) => {
      const ref = r.references.find((x) => x.identity && x.target === this.resource.name && /^\$\.\w+$/.test(x.path));
      return ref ? [{ resource: r, via: ref.path.slice(2) }] : [];
    }));
  }

  /** A resource's records about each person, by the person record's id (one pass per resource and mapping). */
  private byPerson({ resource, via }: { resource: CompiledResource; via: string }): Map<string, StoredRecord[]> {
    return this.src.memo(`personFacts:${this.kind}:${resource.name}`, () => {
      const out = new Map<string, StoredRecord[]>();
      for (const rec of this.src.records(resource.name)) {
        const person = this.src.follow(rec, via);
        if (person) (out.get(person.id) ?? out.set(person.id, []).get(person.id)!).push(rec);
      }
      return out;
    });
  }
}
