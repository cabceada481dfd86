import type { AbstractDef, Field, Fields, ReferenceField, ResourceDef } from './dsl.js';
import type {
  CollectionIdentity, CompiledAbstract, CompiledModel, CompiledReference, CompiledResource, EqualityConstraint,
  KeyPart, QueryField, ReferenceFieldMapping, SecurableElements,
} from './compiled.js';

/** A model error: the model contradicts itself (unknown target, unknown descriptor ...). */
export class ModelError extends Error {}

const pascal = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

/**
 * Where a data standard's shared descriptor shape departs from the seed's: the minimum lengths
 * the standard puts on descriptor members (DS 4.0 gives `shortDescription` and `description`
 * at least one character; 5.2 and 6.1 give them none). The namespace's minimum stays 1 whatever
 * the standard says (decision 45).
 */
export interface CompileOptions {
  descriptorMinLengths?: Readonly<Record<string, number>>;
}

/** The seed's shared descriptor shape. */
export function descriptorResource(name: string, minLengths: Readonly<Record<string, number>> = {}): ResourceDef {
  const def: ResourceDef = {
    name: `${name}Descriptor`,
    description: `The ${pascal(name)} descriptor: a namespace-qualified code value.`,
    fields: {
      [`${name}DescriptorId`]: { kind: 'int32', identity: true, readOnly: true, description: 'Server assigned.' },
      // Not natural-key strings (the key is <name>DescriptorId): surrounding spaces are accepted,
      // as both upstream servers accept them, and the namespace needs one character, whatever
      // the XSD's 5 (decision 45). The seed states only the maxima.
      codeValue: { kind: 'string', maxLength: 50, minLength: 1, required: true },
      namespace: { kind: 'string', maxLength: 255, minLength: 1, required: true },
      shortDescription: { kind: 'string', maxLength: 75, required: true },
      description: { kind: 'string', maxLength: 1024, nullable: true },
      effectiveBeginDate: { kind: 'date', nullable: true, description: 'When omitted the descriptor is effective immediately.' },
      effectiveEndDate: { kind: 'date', nullable: true },
      priorDescriptorId: { kind: 'int32', nullable: true },
    },
  };
  for (const [member, minLength] of Object.entries(minLengths)) {
    const f = def.fields[member];
    if (member === 'namespace' || f?.kind !== 'string') throw new ModelError(`descriptors: no minimum length can be set on '${member}'`);
    def.fields[member] = { ...f, minLength };
  }
  return def;
}

/**
 * Compiles resource definitions into everything a generic implementation needs. It runs as named
 * passes, each readable and testable alone:
 * 1. `collectDefinitions` — one table of every definition, descriptors included;
 * 2. `identityResolver` — natural keys and the reference shapes they flatten into;
 * 3. `compileResource` per definition — `walkMembers`, `keyEqualities`, `queryFieldsOf`,
 *    `securableElementsOf`;
 * 4. `compileAbstracts` — abstract targets and the members that play them;
 * 5. `checkModel` — the model's self-checks;
 * 6. `indexModel` — lookups by name and endpoint.
 */
export function compileModel(defs: ResourceDef[], abstractDefs: AbstractDef[], descriptorNames: readonly string[], options: CompileOptions = {}): CompiledModel {
  const table = collectDefinitions(defs, abstractDefs, descriptorNames, options);
  const keys = identityResolver(table);
  const edOrgIdFields = educationOrganizationIdFields(table.all);
  const resources = table.all.map((def) => compileResource(def, table, keys, edOrgIdFields));
  const abstracts = compileAbstracts(abstractDefs, table.all, keys);
  checkModel(resources);
  const { byName, byEndpoint } = indexModel(resources);
  return { resources, abstracts, byName, byEndpoint, descriptorNames: [...descriptorNames] };
}

// ---- 1. every definition in one table ---------------------------------------------------------

/** What every later pass looks names up in. */
export interface DefinitionTable {
  /** Descriptors first (in the given order), then the resources (in theirs): the model's order. */
  all: ResourceDef[];
  descriptorDefs: ReadonlySet<ResourceDef>;
  defByName: ReadonlyMap<string, ResourceDef>;
  abstractByName: ReadonlyMap<string, AbstractDef>;
  /** Descriptor names without the `Descriptor` suffix. */
  descriptorSet: ReadonlySet<string>;
}

/**
 * Why a pass: descriptors are not authored one by one but made from the shared shape, and every
 * name must mean one definition before a reference can be resolved (a name defined twice would
 * make a reference's target depend on order).
 */
export function collectDefinitions(defs: ResourceDef[], abstractDefs: AbstractDef[], descriptorNames: readonly string[], options: CompileOptions = {}): DefinitionTable {
  const descriptorDefs = descriptorNames.map((n) => descriptorResource(n, options.descriptorMinLengths));
  const all = [...descriptorDefs, ...defs];
  const defByName = new Map<string, ResourceDef>();
  for (const d of all) {
    if (defByName.has(d.name)) throw new ModelError(`resource ${d.name} is defined twice`);
    defByName.set(d.name, d);
  }
  return {
    all,
    descriptorDefs: new Set(descriptorDefs),
    defByName,
    abstractByName: new Map(abstractDefs.map((a) => [a.name, a])),
    descriptorSet: new Set(descriptorNames),
  };
}

// ---- 2. natural keys and reference shapes -----------------------------------------------------

export interface IdentityResolver {
  /** The fields a reference to `target` holds: the target's natural key, flattened. */
  referenceShape(target: string): ReferenceFieldMapping[];
  /** Natural key of a resource, references flattened, in field order. */
  identityOf(def: ResourceDef): (KeyPart & { descriptor?: string })[];
}

/**
 * Why a pass: a natural key holds references whose own keys hold references, so keys and
 * reference shapes are one recursion over the whole table, memoised (each target is flattened
 * once) and checked for cycles (a key that reaches itself has no finite shape).
 */
export function identityResolver(table: DefinitionTable): IdentityResolver {
  const { defByName, abstractByName, descriptorSet } = table;
  const shapeCache = new Map<string, ReferenceFieldMapping[]>();
  const inProgress = new Set<string>();
  function referenceShape(target: string): ReferenceFieldMapping[] {
    const cached = shapeCache.get(target);
    if (cached) return cached;
    const abstract = abstractByName.get(target);
    if (abstract && !abstract.fields) {
      const shape = abstract.identity.map((n) => ({ property: n, queryName: n, targetPath: `$.${n}`, kind: abstract.identityKinds[n] }));
      shapeCache.set(target, shape);
      return shape;
    }
    const def = defByName.get(target) ?? (abstract ? { name: abstract.name, fields: abstract.fields! } : undefined);
    if (!def) throw new ModelError(`unknown reference target '${target}'`);
    if (inProgress.has(target)) throw new ModelError(`identity of '${target}' refers to itself`);
    inProgress.add(target);
    const shape: ReferenceFieldMapping[] = [];
    const add = (m: ReferenceFieldMapping) => { if (!shape.some((s) => s.property === m.property)) shape.push(m); };
    for (const part of identityOf(def)) add({ property: part.name, queryName: part.name, targetPath: part.path, kind: part.kind, ...(part.descriptor ? { descriptor: part.descriptor } : {}) });
    inProgress.delete(target);
    shapeCache.set(target, shape);
    return shape;
  }

  function identityOf(def: ResourceDef): (KeyPart & { descriptor?: string })[] {
    if (def.name.endsWith('Descriptor') && descriptorSet.has(def.name.slice(0, -'Descriptor'.length))) {
      return [
        { name: 'namespace', path: '$.namespace', kind: 'string' },
        { name: 'codeValue', path: '$.codeValue', kind: 'string' },
      ];
    }
    const parts: (KeyPart & { descriptor?: string })[] = [];
    for (const [name, f] of Object.entries(def.fields)) {
      if (!f.identity) continue;
      if (f.kind === 'reference') {
        for (const m of referenceShape(f.target)) {
          const qn = queryNameOf(name, f, m.property);
          if (!parts.some((p) => p.name === qn)) parts.push({ name: qn, path: `$.${name}.${m.property}`, kind: m.kind, ...(m.descriptor ? { descriptor: m.descriptor } : {}) });
        }
      } else if (f.kind === 'descriptor') {
        parts.push({ name, path: `$.${name}`, kind: 'descriptor', descriptor: f.descriptor });
      } else if (f.kind === 'collection' || f.kind === 'object' || f.kind === 'extension') {
        throw new ModelError(`${def.name}.${name}: only scalars, descriptors and references can be identity`);
      } else {
        parts.push({ name, path: `$.${name}`, kind: f.kind });
      }
    }
    return parts;
  }

  return { referenceShape, identityOf };
}

// ---- 3. one resource --------------------------------------------------------------------------

/** The names an education organization's id plays: `educationOrganizationId` and each member's own id field. */
export function educationOrganizationIdFields(all: readonly ResourceDef[]): ReadonlySet<string> {
  return new Set(['educationOrganizationId', ...all.filter((d) => d.educationOrganization).map((d) => d.educationOrganization!.idField)]);
}

/** Person keys and the person they identify (DS 4.0's `parent` is the `contact` of later standards). */
const PERSON_KEYS: Readonly<Record<string, 'student' | 'staff' | 'contact'>> = {
  studentUniqueId: 'student', staffUniqueId: 'staff', contactUniqueId: 'contact', parentUniqueId: 'contact',
};

/** Why a function: the per-resource passes below share only what this one hands them. */
export function compileResource(def: ResourceDef, table: DefinitionTable, keys: IdentityResolver, edOrgIdFields: ReadonlySet<string>): CompiledResource {
  const isDescriptor = table.descriptorDefs.has(def);
  const identity = keys.identityOf(def).map(({ name, path, kind }) => ({ name, path, kind }));
  const members = walkMembers(def, table, keys);
  const equalities = keyEqualities(def.fields, identity, members.references, members.rootNames);
  const queryFields = queryFieldsOf(def.fields, members.references);
  const securable = securableElementsOf(def, isDescriptor, queryFields, edOrgIdFields);
  return {
    name: def.name,
    resourceName: pascal(def.name),
    endpoint: def.plural ?? `${def.name}s`,
    isDescriptor,
    isSchoolYearEnumeration: !!def.schoolYearEnumeration,
    updatable: !!def.updatable,
    fields: def.fields,
    identity,
    references: members.references,
    descriptors: members.descriptors,
    equalities,
    collections: members.collections,
    queryFields,
    securable,
    deprecated: members.deprecated,
    ...(def.educationOrganization ? {
      educationOrganization: {
        idField: def.educationOrganization.idField,
        parents: (def.educationOrganization.parents ?? []).map((p) => `$.${p}`),
        categories: categoriesMember(def.fields),
      },
    } : {}),
    ...(def.person ? { person: def.person } : {}),
    ...(def.relationship ? { relationship: def.relationship } : {}),
    ...(def.description ? { description: def.description } : {}),
  };
}

export interface Members {
  references: CompiledReference[];
  descriptors: { path: string; descriptor: string }[];
  collections: CollectionIdentity[];
  deprecated: { path: string; reason: string }[];
  /** Root-level name → the paths carrying it (scalars, descriptors, reference fields by query name). */
  rootNames: Map<string, string[]>;
}

/**
 * Why a pass: references, descriptor paths, collection keys and deprecations are all found by
 * one walk over the members at any depth, and it is where unknown descriptors and references
 * renaming fields their target lacks are refused.
 */
export function walkMembers(def: ResourceDef, table: DefinitionTable, keys: IdentityResolver): Members {
  const out: Members = { references: [], descriptors: [], collections: [], deprecated: [], rootNames: new Map() };
  const walk = (fields: Fields, base: string, level: Map<string, string[]> | null, where: string) => {
    for (const [name, f] of Object.entries(fields)) {
      const path = `${base}.${name}`;
      if (f.deprecated) out.deprecated.push({ path, reason: f.deprecated });
      switch (f.kind) {
        case 'descriptor':
          if (!table.descriptorSet.has(f.descriptor)) throw new ModelError(`${where}.${name}: unknown descriptor '${f.descriptor}'`);
          out.descriptors.push({ path, descriptor: f.descriptor });
          if (level) push(level, name, path);
          break;
        case 'reference': {
          const shape = keys.referenceShape(f.target).map((m) => ({ ...m, queryName: queryNameOf(name, f, m.property) }));
          for (const qn of Object.keys(f.queryNames ?? {})) {
            if (!shape.some((m) => m.property === qn)) throw new ModelError(`${where}.${name}: renames '${qn}', which '${f.target}' references do not have`);
          }
          out.references.push({ path, target: f.target, required: !!f.required, identity: !!f.identity, fields: shape });
          if (level) for (const m of shape) push(level, m.queryName, `${path}.${m.property}`);
          break;
        }
        case 'collection':
          walk(f.item, `${path}[*]`, null, `${where}.${name}[]`);
          out.collections.push({ path, itemKeys: itemKeys(f.item) });
          break;
        case 'object':
          // Members of an embedded object play their own roles: no unification with the root.
          walk(f.fields, path, null, `${where}.${name}`);
          break;
        case 'extension':
          break;
        default:
          if (level) push(level, name, path);
      }
    }
  };
  walk(def.fields, '$', out.rootNames, def.name);
  return out;
}

/**
 * Why a pass: key unification (one value for `schoolId` wherever a document carries it) is
 * upstream's equality constraints, and it has two sources: root names carried more than once
 * with a reference among them, and collection items whose references carry a name of the
 * parent's key (the child table shares the parent's key).
 */
export function keyEqualities(fields: Fields, identity: readonly KeyPart[], references: readonly CompiledReference[], rootNames: ReadonlyMap<string, string[]>): EqualityConstraint[] {
  const equalities: EqualityConstraint[] = [];
  const referenceLeafs = new Set<string>();
  for (const r of references) for (const m of r.fields) referenceLeafs.add(`${r.path}.${m.property}`);
  const isReferenceLeaf = (p: string) => referenceLeafs.has(p);
  const gatherNames = (item: Fields, base: string, into: Map<string, string[]>) => {
    for (const [name, f] of Object.entries(item)) {
      if (f.kind === 'reference') {
        for (const m of references.find((r) => r.path === `${base}.${name}`)!.fields) push(into, m.queryName, `${base}.${name}.${m.property}`);
      } else if (f.kind === 'object') gatherNames(f.fields, `${base}.${name}`, into);
      else if (f.kind !== 'collection' && f.kind !== 'extension') push(into, name, `${base}.${name}`);
    }
  };
  // Collection items unify with the parent's identity (the child table shares its key).
  const collect = (level: Fields, base: string) => {
    for (const [name, f] of Object.entries(level)) {
      if (f.kind === 'collection') {
        const item = new Map<string, string[]>();
        gatherNames(f.item, `${base}.${name}[*]`, item);
        for (const [n, paths] of item) {
          const parent = identity.find((p) => p.name === n);
          const refPaths = paths.filter(isReferenceLeaf);
          if (parent && refPaths.length) equalities.push({ name: n, paths: [parent.path, ...refPaths] });
        }
        collect(f.item, `${base}.${name}[*]`);
      } else if (f.kind === 'object') collect(f.fields, `${base}.${name}`);
    }
  };
  // Root unifications come first, each put before the ones found earlier (the order upstream lists them in).
  for (const [n, paths] of rootNames) {
    if (paths.length > 1 && paths.some(isReferenceLeaf)) equalities.unshift({ name: n, paths });
  }
  collect(fields, '$');
  return equalities;
}

/**
 * Why a pass: which query parameters a GET takes, and what each parses to, is its own contract
 * (root scalars and descriptors by name, root reference fields by query name, and `id`); the
 * change feeds' key values are named by it too.
 */
export function queryFieldsOf(fields: Fields, references: readonly CompiledReference[]): Record<string, QueryField> {
  const queryFields: Record<string, QueryField> = {};
  for (const [name, f] of Object.entries(fields)) {
    if (f.kind === 'reference') {
      for (const m of references.find((r) => r.path === `$.${name}`)!.fields) {
        queryFields[m.queryName] ??= { path: `$.${name}.${m.property}`, kind: m.kind };
      }
    } else if (f.kind === 'descriptor') queryFields[name] = { path: `$.${name}`, kind: 'descriptor' };
    else if (f.kind !== 'collection' && f.kind !== 'object' && f.kind !== 'extension') queryFields[name] = { path: `$.${name}`, kind: f.kind };
  }
  queryFields.id = { path: '$.id', kind: 'id' };
  return queryFields;
}

/**
 * Why a pass: authorization reads only these values (namespace, education organization ids,
 * person keys), found among the query fields: a root id, or a reference field under its own name.
 */
export function securableElementsOf(def: ResourceDef, isDescriptor: boolean, queryFields: Readonly<Record<string, QueryField>>, edOrgIdFields: ReadonlySet<string>): SecurableElements {
  const securable: SecurableElements = { educationOrganization: [], person: {} };
  if (def.fields.namespace && !isDescriptor) securable.namespace = '$.namespace';
  for (const [qn, q] of Object.entries(queryFields)) {
    const bare = q.path.split('.').pop()!;
    if (edOrgIdFields.has(bare) && (q.path.split('.').length === 2 || bare === qn)) securable.educationOrganization.push(q.path);
    const person = PERSON_KEYS[bare];
    if (person) (securable.person[person] ??= []).push(q.path);
  }
  return securable;
}

// ---- 4. abstract targets ----------------------------------------------------------------------

/**
 * Why a pass: an abstract target has no endpoint but is referenced, so its key and the members
 * that play it (each organization by its own id; program associations by a shared key) must be
 * known to resolve a reference against any member.
 */
export function compileAbstracts(abstractDefs: readonly AbstractDef[], all: readonly ResourceDef[], keys: IdentityResolver): CompiledAbstract[] {
  return abstractDefs.map((a) => ({
    name: a.name,
    resourceName: pascal(a.name),
    identity: a.fields
      ? keys.identityOf({ name: a.name, fields: a.fields }).map(({ name, path, kind }) => ({ name, path, kind }))
      : a.identity.map((n) => ({ name: n, path: `$.${n}`, kind: a.identityKinds[n] })),
    // A named identity is played by each member's own id field; a flattened one is shared.
    members: all
      .filter((d) => d.base === a.name)
      .map((d) => ({ resource: d.name, fieldFor: a.fields ? {} : { [a.identity[0]]: d.educationOrganization?.idField ?? a.identity[0] } })),
  }));
}

// ---- 5. self-checks ---------------------------------------------------------------------------

/**
 * Why a pass: the annotations name members by hand (hierarchy parents, relationship paths); a
 * name that is no reference of its resource, or a resource without a key, is refused here
 * rather than met by a request.
 */
export function checkModel(resources: readonly CompiledResource[]): void {
  for (const r of resources) {
    if (!r.identity.length) throw new ModelError(`${r.name} has no identity`);
    for (const p of r.educationOrganization?.parents ?? []) {
      if (!r.references.some((ref) => ref.path === p)) throw new ModelError(`${r.name}: parent '${p}' is not a reference`);
    }
    if (r.relationship && !r.references.some((ref) => ref.path === `$.${r.relationship!.via}`)) {
      throw new ModelError(`${r.name}: relationship via '${r.relationship.via}' is not a reference`);
    }
  }
}

// ---- 6. lookups -------------------------------------------------------------------------------

/** Why a pass: paths are matched case-insensitively, so two endpoints equal but for case are a model error. */
export function indexModel(resources: readonly CompiledResource[]): Pick<CompiledModel, 'byName' | 'byEndpoint'> {
  const byName = new Map(resources.map((r) => [r.name, r]));
  const byEndpoint = new Map<string, CompiledResource>();
  for (const r of resources) {
    const key = r.endpoint.toLowerCase();
    if (byEndpoint.has(key)) throw new ModelError(`endpoint ${r.endpoint} is used twice`);
    byEndpoint.set(key, r);
  }
  return { byName, byEndpoint };
}

// ---- helpers ----------------------------------------------------------------------------------

/**
 * The name a reference field plays in the document (query parameter, key unification): the
 * model's explicit name, else the role prefix of a role-named reference
 * (`parentLocalEducationAgencyReference` → `parentLocalEducationAgencyId`) unless the field
 * already carries it, else the field's own name.
 */
function queryNameOf(fieldName: string, f: ReferenceField, property: string): string {
  const explicit = f.queryNames?.[property];
  if (explicit) return explicit;
  const suffix = `${pascal(f.target)}Reference`;
  const role = fieldName.endsWith(suffix) ? fieldName.slice(0, -suffix.length) : '';
  if (!role || property.startsWith(role)) return property;
  return role + pascal(property);
}

/** The collection of education organization categories (`categories`, School's `educationOrganizationCategories`). */
function categoriesMember(fields: Fields): string | undefined {
  return Object.entries(fields).find(([, f]) => f.kind === 'collection' && 'educationOrganizationCategoryDescriptor' in f.item)?.[0];
}

function push(map: Map<string, string[]>, name: string, path: string) {
  const list = map.get(name);
  if (list) list.push(path);
  else map.set(name, [path]);
}

/** Item-relative paths of a collection item's K fields (a K reference contributes its object). */
function itemKeys(item: Fields): string[] {
  return Object.entries(item).filter(([, f]: [string, Field]) => f.identity).map(([n]) => n);
}
