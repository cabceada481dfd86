/**
 * The vocabulary of the resource model. upstream.ts writes the pinned data standard in it and
 * overlay.ts the seed's differences (with these builders); the OpenAPI documents, the
 * reference's behaviour and the suites' builders are all derived from what they hold.
 *
 * Notation follows the seed: R = required, N = nullable, K = identity (natural key).
 */

export interface FieldFlags {
  /** R: must be present in a write body. */
  required?: boolean;
  /** N: may be null (x-nullable). */
  nullable?: boolean;
  /** K: part of the natural key (x-Core-isIdentity). Identity implies required. */
  identity?: boolean;
  /** Deprecated with this reason (x-Core-isDeprecated, x-Core-deprecatedReasons). */
  deprecated?: string;
  /** Short human description for the interface description. */
  description?: string;
}

export type ScalarKind = 'string' | 'int32' | 'int64' | 'double' | 'boolean' | 'date' | 'date-time' | 'time';

export interface ScalarField extends FieldFlags {
  kind: ScalarKind;
  /** Strings only. */
  maxLength?: number;
  minLength?: number;
  /** Numbers: inclusive bounds (the data standard's minInclusive / maxInclusive). */
  minimum?: number;
  maximum?: number;
  /** Decimals: the data standard's precision; the range follows from it. */
  totalDigits?: number;
  fractionDigits?: number;
  /** Server-assigned (never accepted from a client, e.g. descriptor ids). */
  readOnly?: boolean;
}

export interface DescriptorField extends FieldFlags {
  kind: 'descriptor';
  /** Descriptor name without the `Descriptor` suffix, e.g. `gradeLevel`. */
  descriptor: string;
}

export interface ReferenceField extends FieldFlags {
  kind: 'reference';
  /** Target resource name (singular), possibly abstract (`educationOrganization`). */
  target: string;
  /**
   * Query-parameter names for reference fields that play a role and must not unify with
   * same-named fields elsewhere (e.g. `{ educationOrganizationId: 'courseEducationOrganizationId' }`).
   */
  queryNames?: Record<string, string>;
}

export interface CollectionField extends FieldFlags {
  kind: 'collection';
  /** Shape of each item; items are identified by their K fields (duplicates give 400). */
  item: Fields;
}

export interface ObjectField extends FieldFlags {
  kind: 'object';
  fields: Fields;
}

/** `_ext`: an object keyed by extension name. */
export interface ExtensionField extends FieldFlags {
  kind: 'extension';
}

export type Field = ScalarField | DescriptorField | ReferenceField | CollectionField | ObjectField | ExtensionField;
export type Fields = Record<string, Field>;

/** Which person a resource describes, for relationship-based authorization. */
export type PersonKind = 'student' | 'staff' | 'contact';

export interface ResourceDef {
  /** Singular lower-camel name, e.g. `academicWeek`. */
  name: string;
  /** Plural endpoint name; defaults to `name + 's'`. */
  plural?: string;
  /** The abstract supertype this resource is a member of (`educationOrganization`). */
  base?: string;
  fields: Fields;
  /** PUT may change the natural key, cascading into referencing records (x-Core-isUpdatable). */
  updatable?: boolean;
  /** An education organization member: its id field plays `educationOrganizationId`. */
  educationOrganization?: {
    /** The member's own id field, e.g. `schoolId`. */
    idField: string;
    /** Reference fields pointing at parent organizations (hierarchy for authorization). */
    parents?: string[];
  };
  /** The resource is the record of a person (students, staffs, contacts). */
  person?: PersonKind;
  /**
   * The resource establishes a relationship between an education organization and a person,
   * which is what makes the person reachable for relationship-based authorization.
   */
  relationship?: { person: PersonKind; via: string };
  /** The school-year enumeration (schoolYearTypes). */
  schoolYearEnumeration?: boolean;
  /** Short description for the interface description. */
  description?: string;
}

/**
 * An abstract resource: a reference target with no endpoint of its own. Its identity is either
 * named (`educationOrganizationId`, played by each member's own id field) or, with `fields`,
 * flattened from its identity members like a resource's (shared by its members).
 */
export interface AbstractDef {
  name: string;
  /** Identity field names, e.g. `['educationOrganizationId']`. */
  identity: string[];
  identityKinds: Record<string, ScalarKind>;
  fields?: Fields;
}

// ---- builders -----------------------------------------------------------------------------

type Flags = FieldFlags;

export const R: Flags = { required: true };
export const N: Flags = { nullable: true };
export const K: Flags = { identity: true, required: true };

export const str = (maxLength: number, flags: Flags = N, extra: { minLength?: number } = {}): ScalarField => ({
  kind: 'string', maxLength, ...extra, ...flags,
});
export const int32 = (flags: Flags = N): ScalarField => ({ kind: 'int32', ...flags });
export const int64 = (flags: Flags = N): ScalarField => ({ kind: 'int64', ...flags });
export const double = (flags: Flags = N): ScalarField => ({ kind: 'double', ...flags });
export const bool = (flags: Flags = N): ScalarField => ({ kind: 'boolean', ...flags });
export const date = (flags: Flags = N): ScalarField => ({ kind: 'date', ...flags });
export const dateTime = (flags: Flags = N): ScalarField => ({ kind: 'date-time', ...flags });
export const time = (flags: Flags = N): ScalarField => ({ kind: 'time', ...flags });
export const desc = (descriptor: string, flags: Flags = N): DescriptorField => ({ kind: 'descriptor', descriptor, ...flags });
export const ref = (target: string, flags: Flags = {}, queryNames?: Record<string, string>): ReferenceField => ({
  kind: 'reference', target, ...flags, ...(queryNames ? { queryNames } : {}),
});
export const coll = (item: Fields, flags: Flags = {}): CollectionField => ({ kind: 'collection', item, ...flags });
export const obj = (fields: Fields, flags: Flags = {}): ObjectField => ({ kind: 'object', fields, ...flags });
export const ext = (): ExtensionField => ({ kind: 'extension' });

/** `{ <name>Descriptor K R }` — the common one-descriptor collection item. */
export const descItem = (descriptor: string): Fields => ({ [`${descriptor}Descriptor`]: desc(descriptor, K) });
/** `{ <target>Reference R }` — the common one-reference collection item. */
export const refItem = (target: string): Fields => ({ [`${target}Reference`]: ref(target, K) });

export const resource = (def: ResourceDef): ResourceDef => def;
