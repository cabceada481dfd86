import type { PersonKind } from '../../spec/model/dsl.js';
import type { CompiledModel, CompiledResource } from '../../spec/model/compiled.js';
import type { Client } from '../config/load.js';
import { Problem } from '../http/problems.js';
import { expandPaths, getPath } from '../store/json-path.js';
import type { DataStore, StoredRecord } from '../store/store.js';

/**
 * Authorization after authentication (seed: Authentication; decisions #21, #22). A client's
 * permission set decides which resources and actions it may use and which checks apply:
 *
 * - `unrestricted`: everything, no relationship or namespace checks (like upstream's sandbox set);
 * - `namespace-based`: records carrying a `namespace` (descriptors included) are readable and
 *   writable only under the client's namespace prefixes; person records are out of reach; every
 *   other resource is read-only;
 * - `relationship-based`: education organization values must lie within the client's claims
 *   (downward through the hierarchy); person records only through an association to one of those
 *   organizations; descriptors and other unsecured resources are read-only.
 */
export type Action = 'Create' | 'Read' | 'Update' | 'Delete';

/** Each person kind's key and the hint a refusal gives, as the served model names them (persons). */
interface PersonTerms { key: string; hint: string }

const PERSON_ASSOCIATION_HINT: Record<PersonKind, string> = {
  student: "You may need to create a corresponding 'StudentSchoolAssociation' item.",
  staff: "You may need to create corresponding 'StaffEducationOrganizationEmploymentAssociation' or 'StaffEducationOrganizationAssignmentAssociation' items.",
  contact: "You may need to create a corresponding 'StudentContactAssociation' item.",
};
const PERSON_KEY: Record<PersonKind, string> = { student: 'studentUniqueId', staff: 'staffUniqueId', contact: 'contactUniqueId' };

/**
 * The person kinds' keys and hints in the standard served: DS 4.0's contact is a parent
 * (`parentUniqueId`, reached through a StudentParentAssociation, annotations.ts). A model without
 * a kind keeps the names above.
 */
function personTerms(model: CompiledModel): Record<PersonKind, PersonTerms> {
  const terms = (kind: PersonKind): PersonTerms => {
    const key = model.resources.find((r) => r.person === kind)?.identity[0]?.name ?? PERSON_KEY[kind];
    const association = kind === 'contact' ? model.resources.find((r) => r.relationship?.person === kind) : undefined;
    return { key, hint: association ? `You may need to create a corresponding '${association.resourceName}' item.` : PERSON_ASSOCIATION_HINT[kind] };
  };
  return { student: terms('student'), staff: terms('staff'), contact: terms('contact') };
}

interface Reach {
  version: number;
  organizations: Set<string>;
  persons: Record<PersonKind, Set<string>>;
}

export class Authorizer {
  private readonly cache = new WeakMap<DataStore, Map<string, Reach>>();
  private readonly persons: Record<PersonKind, PersonTerms>;

  constructor(private readonly model: CompiledModel) {
    this.persons = personTerms(model);
  }

  /** May the client use this action on this resource at all? (403 access-denied:resource/action) */
  checkAction(client: Client, resource: CompiledResource, action: Action): void {
    const set = client.permissionSet;
    if (set === 'unrestricted' || action === 'Read') {
      if (set === 'namespace-based' && resource.person) throw denied('security:authorization:access-denied:resource', resource, action);
      return;
    }
    if (set === 'namespace-based') {
      if (resource.person) throw denied('security:authorization:access-denied:resource', resource, action);
      if (!namespacePath(resource)) throw denied('security:authorization:access-denied:action', resource, action);
      return;
    }
    // relationship-based: unsecured resources (descriptors, school years ...) are read-only.
    if (!resource.securable.educationOrganization.length && !resource.person && !hasPersons(resource)) {
      throw denied('security:authorization:access-denied:action', resource, action);
    }
  }

  /** Checks one document (to be written, or read by id) against the client's data policy. */
  checkDocument(store: DataStore, client: Client, resource: CompiledResource, doc: Record<string, unknown>, action: Action): void {
    const failure = this.failure(store, client, resource, doc, action);
    if (failure) throw failure;
  }

  /** Whether a record is visible to the client (collections are filtered with this). */
  visible(store: DataStore, client: Client, resource: CompiledResource, record: StoredRecord): boolean {
    return this.visibleDocument(store, client, resource, record.doc);
  }

  visibleDocument(store: DataStore, client: Client, resource: CompiledResource, doc: Record<string, unknown>): boolean {
    return !this.failure(store, client, resource, doc, 'Read');
  }

  private failure(store: DataStore, client: Client, resource: CompiledResource, doc: Record<string, unknown>, action: Action): Problem | undefined {
    if (client.permissionSet === 'unrestricted') return undefined;
    if (client.permissionSet === 'namespace-based') {
      const path = namespacePath(resource);
      if (!path) return undefined;
      const ns = getPath(doc, path);
      if (typeof ns === 'string' && client.namespacePrefixes.some((p) => ns.startsWith(p))) return undefined;
      return new Problem('security:authorization:namespace:access-denied:namespace-mismatch', {
        detail: `Access to the requested data could not be authorized. The 'Namespace' value of the data does not start with any of the caller's associated namespace prefixes ('${client.namespacePrefixes.join("', '")}').`,
      });
    }
    // relationship-based
    const reach = this.reach(store, client);
    if (resource.person) {
      const key = String(getPath(doc, `$.${this.persons[resource.person].key}`));
      // A new person record may be created; it is out of reach until an association exists.
      if (action === 'Create' || reach.persons[resource.person].has(key)) return undefined;
      return personDenied(this.persons[resource.person], client);
    }
    // An organization is secured by its own id; anything else by the organizations it names.
    const paths = resource.educationOrganization ? [`$.${resource.educationOrganization.idField}`] : resource.securable.educationOrganization;
    for (const path of paths) {
      for (const at of expandPaths(doc, path)) {
        if (at.value === undefined || at.value === null) continue;
        if (!reach.organizations.has(String(at.value)) && !(resource.educationOrganization && this.newOrganizationWithinReach(resource, doc, reach))) {
          const name = path.split('.').pop()!;
          return new Problem('security:authorization', {
            detail: 'Access to the requested data could not be authorized.',
            errors: [`No relationships have been established between the caller's education organization id claim(s) (${claimsText(client)}) and the resource item's '${name.charAt(0).toUpperCase()}${name.slice(1)}' value.`],
          });
        }
      }
    }
    // Records about a person (other than the associations that create the relationship) also
    // need that person to be within reach.
    if (!resource.relationship) {
      for (const kind of ['student', 'staff', 'contact'] as PersonKind[]) {
        for (const path of resource.securable.person[kind] ?? []) {
          const v = getPath(doc, path);
          if (v !== undefined && !reach.persons[kind].has(String(v))) return personDenied(this.persons[kind], client);
        }
      }
    }
    return undefined;
  }

  /** A new organization is within reach when one of its parents is. */
  private newOrganizationWithinReach(resource: CompiledResource, doc: Record<string, unknown>, reach: Reach): boolean {
    return (resource.educationOrganization?.parents ?? []).some((p) => {
      const ref = getPath(doc, p) as Record<string, unknown> | undefined;
      return ref ? Object.values(ref).some((v) => reach.organizations.has(String(v))) : false;
    });
  }

  /** Organizations and persons within the client's reach, cached per store change version. */
  private reach(store: DataStore, client: Client): Reach {
    let perStore = this.cache.get(store);
    if (!perStore) this.cache.set(store, (perStore = new Map()));
    const cached = perStore.get(client.key);
    if (cached && cached.version === store.newestChangeVersion) return cached;

    // Downward closure of the claimed organizations through the hierarchy's parent references.
    const organizations = new Set(client.educationOrganizationIds.map(String));
    const members = this.model.resources.filter((r) => r.educationOrganization);
    for (let grew = true; grew;) {
      grew = false;
      for (const m of members) {
        for (const rec of store.collection(m.name).byId.values()) {
          const id = String(rec.doc[m.educationOrganization!.idField]);
          if (organizations.has(id)) continue;
          const parentIn = m.educationOrganization!.parents.some((p) => {
            const ref = getPath(rec.doc, p) as Record<string, unknown> | undefined;
            return ref ? Object.values(ref).some((v) => organizations.has(String(v))) : false;
          });
          if (parentIn) { organizations.add(id); grew = true; }
        }
      }
    }
    // Persons related to those organizations through the association resources.
    const persons: Record<PersonKind, Set<string>> = { student: new Set(), staff: new Set(), contact: new Set() };
    for (const r of this.model.resources.filter((x) => x.relationship && x.relationship.person !== 'contact')) {
      const kind = r.relationship!.person;
      for (const rec of store.collection(r.name).byId.values()) {
        if (r.securable.educationOrganization.some((p) => organizations.has(String(getPath(rec.doc, p))))) {
          persons[kind].add(String(getPath(rec.doc, `$.${r.relationship!.via}.${this.persons[kind].key}`)));
        }
      }
    }
    // Contacts are reached through a student within reach.
    for (const r of this.model.resources.filter((x) => x.relationship?.person === 'contact')) {
      for (const rec of store.collection(r.name).byId.values()) {
        const student = getPath(rec.doc, `$.studentReference.${this.persons.student.key}`);
        if (persons.student.has(String(student))) persons.contact.add(String(getPath(rec.doc, `$.${r.relationship!.via}.${this.persons.contact.key}`)));
      }
    }
    const reach = { version: store.newestChangeVersion, organizations, persons };
    perStore.set(client.key, reach);
    return reach;
  }
}

function namespacePath(resource: CompiledResource): string | undefined {
  if (resource.isDescriptor) return '$.namespace';
  return resource.securable.namespace;
}

function hasPersons(resource: CompiledResource): boolean {
  return Object.values(resource.securable.person).some((p) => p && p.length);
}

function denied(suffix: 'security:authorization:access-denied:resource' | 'security:authorization:access-denied:action', resource: CompiledResource, action: Action): Problem {
  return new Problem(suffix, {
    errors: [suffix.endsWith('resource')
      ? `The API client's permission set does not include the '${resource.resourceName}' resource.`
      : `The API client's permission set does not allow the '${action}' action on the '${resource.resourceName}' resource.`],
  });
}

function personDenied(person: PersonTerms, client: Client): Problem {
  return new Problem('security:authorization', {
    detail: `Access to the requested data could not be authorized. Hint: ${person.hint}`,
    errors: [`No relationships have been established between the caller's education organization id claim(s) (${claimsText(client)}) and the resource item's '${person.key.charAt(0).toUpperCase()}${person.key.slice(1)}' value.`],
  });
}

function claimsText(client: Client): string {
  const ids = client.educationOrganizationIds;
  if (!ids.length) return 'none';
  return ids.length > 5 ? `${ids.slice(0, 5).join(', ')}, ...` : ids.join(', ');
}
