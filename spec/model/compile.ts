import type { AbstractDef, Field, Fields, ReferenceField, ResourceDef } from './dsl.js';
import type {
  CollectionIdentity, CompiledAbstract, CompiledModel, CompiledReference, CompiledResource, EqualityConstraint,
  KeyPart, QueryField, ReferenceFieldMapping, SecurableElements,
} from './compiled.js';

/** A model error: the model contradicts itself (unknown target, unknown descriptor ...). */
export class ModelError extends Error {}

const pascal = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

/** The seed's shared descriptor shape. */
export function descriptorResource(name: string): ResourceDef {
  return {
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
}

export function compileModel(defs: ResourceDef[], abstractDefs: AbstractDef[], descriptorNames: readonly string[]): CompiledModel {
  const descriptorDefs = descriptorNames.map(descriptorResource);
  const all = [...descriptorDefs, ...defs];
  const defByName = new Map<string, ResourceDef>();
  for (const d of all) {
    if (defByName.has(d.name)) throw new ModelError(`resource ${d.name} is defined twice`);
    defByName.set(d.name, d);
  }
  const abstractByName = new Map(abstractDefs.map((a) => [a.name, a]));
  const descriptorSet = new Set(descriptorNames);

  // Reference shapes are the target's identity flattened; memoised, cycles are model errors.
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

  /** Natural key of a resource, references flattened, in field order. */
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

  const edOrgIdFields = new Set(['educationOrganizationId', ...all.filter((d) => d.educationOrganization).map((d) => d.educationOrganization!.idField)]);
  const personKeys: Record<string, 'student' | 'staff' | 'contact'> = { studentUniqueId: 'student', staffUniqueId: 'staff', contactUniqueId: 'contact' };

  const resources: CompiledResource[] = all.map((def) => {
    const isDescriptor = descriptorDefs.includes(def);
    const identity = identityOf(def).map(({ name, path, kind }) => ({ name, path, kind }));
    const references: CompiledReference[] = [];
    const descriptors: { path: string; descriptor: string }[] = [];
    const collections: CollectionIdentity[] = [];
    const deprecated: { path: string; reason: string }[] = [];
    const queryFields: Record<string, QueryField> = {};
    // name → paths, for key unification, per level (root, or one collection's item)
    const rootNames = new Map<string, string[]>();
    const equalities: EqualityConstraint[] = [];

    const walk = (fields: Fields, base: string, level: Map<string, string[]> | null, where: string) => {
      for (const [name, f] of Object.entries(fields)) {
        const path = `${base}.${name}`;
        if (f.deprecated) deprecated.push({ path, reason: f.deprecated });
        switch (f.kind) {
          case 'descriptor':
            if (!descriptorSet.has(f.descriptor)) throw new ModelError(`${where}.${name}: unknown descriptor '${f.descriptor}'`);
            descriptors.push({ path, descriptor: f.descriptor });
            if (level) push(level, name, path);
            break;
          case 'reference': {
            const shape = referenceShape(f.target).map((m) => ({ ...m, queryName: queryNameOf(name, f, m.property) }));
            for (const qn of Object.keys(f.queryNames ?? {})) {
              if (!shape.some((m) => m.property === qn)) throw new ModelError(`${where}.${name}: renames '${qn}', which '${f.target}' references do not have`);
            }
            references.push({ path, target: f.target, required: !!f.required, identity: !!f.identity, fields: shape });
            if (level) for (const m of shape) push(level, m.queryName, `${path}.${m.property}`);
            break;
          }
          case 'collection':
            walk(f.item, `${path}[*]`, null, `${where}.${name}[]`);
            collections.push({ path, itemKeys: itemKeys(f.item) });
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
    const referenceLeafs = new Set<string>();
    const isReferenceLeaf = (p: string) => referenceLeafs.has(p);
    walk(def.fields, '$', rootNames, def.name);
    for (const r of references) for (const m of r.fields) referenceLeafs.add(`${r.path}.${m.property}`);
    // Collection items unify with the parent's identity (the child table shares its key).
    const collect = (fields: Fields, base: string) => {
      for (const [name, f] of Object.entries(fields)) {
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
    const gatherNames = (fields: Fields, base: string, into: Map<string, string[]>) => {
      for (const [name, f] of Object.entries(fields)) {
        if (f.kind === 'reference') {
          for (const m of references.find((r) => r.path === `${base}.${name}`)!.fields) push(into, m.queryName, `${base}.${name}.${m.property}`);
        } else if (f.kind === 'object') gatherNames(f.fields, `${base}.${name}`, into);
        else if (f.kind !== 'collection' && f.kind !== 'extension') push(into, name, `${base}.${name}`);
      }
    };
    for (const [n, paths] of rootNames) {
      if (paths.length > 1 && paths.some(isReferenceLeaf)) equalities.unshift({ name: n, paths });
    }
    collect(def.fields, '$');

    // Query fields: root scalars and descriptors by name, root reference fields by query name, and id.
    for (const [name, f] of Object.entries(def.fields)) {
      if (f.kind === 'reference') {
        for (const m of references.find((r) => r.path === `$.${name}`)!.fields) {
          queryFields[m.queryName] ??= { path: `$.${name}.${m.property}`, kind: m.kind };
        }
      } else if (f.kind === 'descriptor') queryFields[name] = { path: `$.${name}`, kind: 'descriptor' };
      else if (f.kind !== 'collection' && f.kind !== 'object' && f.kind !== 'extension') queryFields[name] = { path: `$.${name}`, kind: f.kind };
    }
    queryFields.id = { path: '$.id', kind: 'id' };

    const securable: SecurableElements = { educationOrganization: [], person: {} };
    if (def.fields.namespace && !isDescriptor) securable.namespace = '$.namespace';
    for (const [qn, q] of Object.entries(queryFields)) {
      const bare = q.path.split('.').pop()!;
      if (edOrgIdFields.has(bare) && (q.path.split('.').length === 2 || bare === qn)) securable.educationOrganization.push(q.path);
      const person = personKeys[bare];
      if (person) (securable.person[person] ??= []).push(q.path);
    }

    return {
      name: def.name,
      resourceName: pascal(def.name),
      endpoint: def.plural ?? `${def.name}s`,
      isDescriptor,
      isSchoolYearEnumeration: !!def.schoolYearEnumeration,
      updatable: !!def.updatable,
      fields: def.fields,
      identity,
      references,
      descriptors,
      equalities,
      collections,
      queryFields,
      securable,
      deprecated,
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
  });

  const abstracts: CompiledAbstract[] = abstractDefs.map((a) => ({
    name: a.name,
    resourceName: pascal(a.name),
    identity: a.fields
      ? identityOf({ name: a.name, fields: a.fields }).map(({ name, path, kind }) => ({ name, path, kind }))
      : a.identity.map((n) => ({ name: n, path: `$.${n}`, kind: a.identityKinds[n] })),
    // A named identity is played by each member's own id field; a flattened one is shared.
    members: all
      .filter((d) => d.base === a.name)
      .map((d) => ({ resource: d.name, fieldFor: a.fields ? {} : { [a.identity[0]]: d.educationOrganization?.idField ?? a.identity[0] } })),
  }));

  for (const r of resources) {
    if (!r.identity.length) throw new ModelError(`${r.name} has no identity`);
    for (const p of r.educationOrganization?.parents ?? []) {
      if (!r.references.some((ref) => ref.path === p)) throw new ModelError(`${r.name}: parent '${p}' is not a reference`);
    }
    if (r.relationship && !r.references.some((ref) => ref.path === `$.${r.relationship!.via}`)) {
      throw new ModelError(`${r.name}: relationship via '${r.relationship.via}' is not a reference`);
    }
  }
  const byName = new Map(resources.map((r) => [r.name, r]));
  const byEndpoint = new Map<string, CompiledResource>();
  for (const r of resources) {
    const key = r.endpoint.toLowerCase();
    if (byEndpoint.has(key)) throw new ModelError(`endpoint ${r.endpoint} is used twice`);
    byEndpoint.set(key, r);
  }
  return { resources, abstracts, byName, byEndpoint, descriptorNames: [...descriptorNames] };
}

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

