import type { Fields, PersonKind, ScalarKind } from './dsl.js';

/**
 * What the model compiler derives per resource: everything a generic implementation needs
 * (identity, reference mappings, descriptor paths, key unification, query fields, security
 * elements), so nothing downstream re-derives it from the authored fields.
 *
 * Paths are JSON paths: `$.a.b`, with `[*]` for every item of a collection.
 */
export type ValueKind = ScalarKind | 'descriptor';

export interface KeyPart {
  /** Name used in query parameters and change-feed key values. */
  name: string;
  /** JSON path of the value inside the document. */
  path: string;
  kind: ValueKind;
}

export interface ReferenceFieldMapping {
  /** Property name inside the reference object. */
  property: string;
  /** Query / unification name (differs from `property` for role-named fields). */
  queryName: string;
  /** Identity path inside the target document (for abstract targets: the member's id field). */
  targetPath: string;
  kind: ValueKind;
  /** Descriptor name when `kind` is `descriptor`. */
  descriptor?: string;
}

export interface CompiledReference {
  /** JSON path of the reference object, e.g. `$.schoolReference`, `$.classPeriods[*].classPeriodReference`. */
  path: string;
  /** Target resource name, possibly abstract. */
  target: string;
  required: boolean;
  identity: boolean;
  fields: ReferenceFieldMapping[];
}

export interface EqualityConstraint {
  /** The unified key name, e.g. `schoolId`. */
  name: string;
  /** Every value found at these paths must be equal. */
  paths: string[];
}

export interface QueryField {
  path: string;
  kind: ValueKind | 'id';
}

export interface CollectionIdentity {
  /** Path of the collection, e.g. `$.addresses`. */
  path: string;
  /** Item-relative property paths of the item's K fields (references expanded). */
  itemKeys: string[];
}

export interface SecurableElements {
  /** Path of the `namespace` value when the resource is secured by namespace. */
  namespace?: string;
  /** Paths of education organization ids (own id, or references to organizations). */
  educationOrganization: string[];
  /** Paths of person keys, by person kind. */
  person: Partial<Record<PersonKind, string[]>>;
}

export interface CompiledResource {
  /** Singular lower-camel name: `academicWeek`, `gradeLevelDescriptor`. */
  name: string;
  /** Pascal-case name used in messages: `AcademicWeek`. */
  resourceName: string;
  /** Plural endpoint name: `academicWeeks`. */
  endpoint: string;
  isDescriptor: boolean;
  isSchoolYearEnumeration: boolean;
  updatable: boolean;
  fields: Fields;
  /** Natural key in order (references flattened). */
  identity: KeyPart[];
  references: CompiledReference[];
  descriptors: { path: string; descriptor: string }[];
  equalities: EqualityConstraint[];
  collections: CollectionIdentity[];
  /** Query parameter name → where it looks and what type it parses to. */
  queryFields: Record<string, QueryField>;
  securable: SecurableElements;
  deprecated: { path: string; reason: string }[];
  /** Education organization member facts (id field and parent reference paths). */
  educationOrganization?: {
    idField: string;
    parents: string[];
    /** The member holding its categories: `categories`, or School's `educationOrganizationCategories`. */
    categories?: string;
  };
  person?: PersonKind;
  relationship?: { person: PersonKind; via: string };
  description?: string;
}

export interface CompiledAbstract {
  name: string;
  resourceName: string;
  identity: KeyPart[];
  /** Concrete members and the field that plays each identity field. */
  members: { resource: string; fieldFor: Record<string, string> }[];
}

export interface CompiledModel {
  resources: CompiledResource[];
  abstracts: CompiledAbstract[];
  /** Lookup by singular name. */
  byName: Map<string, CompiledResource>;
  /** Lookup by lower-cased endpoint name (paths are matched case-insensitively). */
  byEndpoint: Map<string, CompiledResource>;
  descriptorNames: string[];
}
