/** Faulty deployments that break data.authorization. */
import reference from '../../../suites/targets/reference.json' with { type: 'json' };
import { model } from './served-model.js';
import { Tokens, dataPath, header, jsonOf, pathOf, setJson, type ProxiedRequest, type Tools } from '../proxy.js';
import { collection, isData, isWrite, item, problem, problemOf, type Fault } from './helpers.js';

/** The reference target's namespace-limited and permission-limited clients, whose checks these faults loosen. */
const NAMESPACE_PREFIX = reference.capabilities.namespaceLimited.namespacePrefix;
const PERMISSION_LIMITED = reference.capabilities.permissionLimits.client;
const READ_ONLY_RESOURCE = reference.capabilities.permissionLimits.readOnlyResource.toLowerCase();
const DENIED_RESOURCE = reference.capabilities.permissionLimits.deniedResource.toLowerCase();

/** Endpoints (lower case) of person records, and of records tied to organizations only through an education organization reference (never a school's). */
const PERSON_ENDPOINTS = new Set(model.resources.filter((r) => r.person).map((r) => r.endpoint.toLowerCase()));
const EDORG_REFERENCE_ONLY = new Set(model.resources
  .filter((r) => !r.person && !r.relationship && !r.educationOrganization && r.securable.educationOrganization.length && r.securable.educationOrganization.every((p) => /educationOrganizationReference\.educationOrganizationId$/.test(p)))
  .map((r) => r.endpoint.toLowerCase()));

/** The school-limited client's request sent as the primary client's (which has no claims to check); true when it was the school-limited client's. */
const asPrimary = (req: ProxiedRequest, tools: Tools) =>
  tools.tokens.rewrite(req, (c) => c.client_id === tools.clients.schoolLimited?.key && Boolean((c.client_id = tools.clients.primary.key)));

/** The access-denied families of the permission sets (seed Errors, the 403 authorization row). */
const isAccessDenied = (res: Parameters<typeof problemOf>[0]) => /:security:authorization:access-denied:(resource|action)(:|$)/.test(String(problemOf(res)?.type ?? ''));

export const authorizationFaults: Fault[] = [
  {
    name: 'namespace-prefixes-ignored', family: 'data.authorization', suites: ['authorization'],
    description: 'writes of namespaced records are not checked against the caller\'s namespace prefixes',
    request: async (req, tools) => {
      if (!dataPath(req) || !isWrite(req) || typeof (jsonOf(req) as { namespace?: unknown } | undefined)?.namespace !== 'string') return;
      await tools.tokens.rewrite(req, (c) => c.client_id === tools.clients.namespaceLimited?.key && Boolean((c.client_id = tools.clients.primary.key)));
    },
  },
  {
    name: 'education-organization-claims-ignored', family: 'data.authorization', suites: ['authorization'],
    description: 'reads by a relationship-based client are not limited to its education organizations',
    request: async (req, tools) => {
      if (!dataPath(req) || req.method !== 'GET') return;
      await tools.tokens.rewrite(req, (c) => c.client_id === tools.clients.schoolLimited?.key && Boolean((c.client_id = tools.clients.primary.key)));
    },
  },
  {
    name: 'permission-set-reads-unchecked', family: 'data.authorization', suites: ['authorization'],
    description: 'reads are not checked against the client\'s permission set (a denied resource is readable)',
    request: async (req, tools) => {
      if (dataPath(req) && req.method === 'GET') await tools.tokens.rewrite(req, (c) => c.client_id === tools.clients.namespaceLimited?.key && Boolean((c.client_id = tools.clients.primary.key)));
    },
  },
  {
    name: 'namespace-prefix-contained-accepted', family: 'data.authorization', suites: ['authorization'],
    description: 'a namespace that contains one of the caller\'s prefixes anywhere (not only at its start) passes the namespace check',
    request: async (req, tools) => {
      const namespace = dataPath(req) && isWrite(req) ? (jsonOf(req) as { namespace?: unknown } | undefined)?.namespace : undefined;
      if (typeof namespace !== 'string' || !NAMESPACE_PREFIX || !namespace.includes(NAMESPACE_PREFIX) || namespace.startsWith(NAMESPACE_PREFIX)) return;
      await tools.tokens.rewrite(req, (c) => c.client_id === tools.clients.namespaceLimited?.key && Boolean((c.client_id = tools.clients.primary.key)));
    },
  },
  {
    name: 'permission-set-updates-deletes-unchecked', family: 'data.authorization', suites: ['authorization'],
    description: 'a read-only permission set refuses creates but lets the client update and delete',
    request: async (req, tools) => {
      if (!item(req) || (req.method !== 'PUT' && req.method !== 'DELETE') || dataPath(req)?.resource.toLowerCase() !== READ_ONLY_RESOURCE) return;
      await tools.tokens.rewrite(req, (c) => c.client_id === tools.clients[PERMISSION_LIMITED]?.key && Boolean((c.client_id = tools.clients.primary.key)));
    },
  },
  {
    name: 'permission-set-resource-writes-unchecked', family: 'data.authorization', suites: ['authorization'],
    description: 'a resource the permission set does not grant is refused on reads only: creates, updates and deletes go through',
    request: async (req, tools) => {
      if (!isWrite(req) && req.method !== 'DELETE') return;
      if (dataPath(req)?.resource.toLowerCase() !== DENIED_RESOURCE) return;
      await tools.tokens.rewrite(req, (c) => c.client_id === tools.clients[PERMISSION_LIMITED]?.key && Boolean((c.client_id = tools.clients.primary.key)));
    },
  },
  {
    name: 'education-organization-claims-ignored-on-collection', family: 'data.authorization', suites: ['authorization'],
    description: 'collection reads by a relationship-based client are not filtered by its education organizations or person relationships (item reads are)',
    request: async (req, tools) => {
      if (!collection(req) || req.method !== 'GET') return;
      await tools.tokens.rewrite(req, (c) => c.client_id === tools.clients.schoolLimited?.key && Boolean((c.client_id = tools.clients.primary.key)));
    },
  },
  {
    name: 'permission-set-item-reads-unchecked', family: 'data.authorization', suites: ['authorization'],
    description: 'a resource the permission set does not grant is refused on the collection route only: an item read by id is served',
    request: async (req, tools) => {
      if (!item(req) || req.method !== 'GET' || dataPath(req)?.resource.toLowerCase() !== DENIED_RESOURCE) return;
      await tools.tokens.rewrite(req, (c) => c.client_id === tools.clients[PERMISSION_LIMITED]?.key && Boolean((c.client_id = tools.clients.primary.key)));
    },
  },
  {
    name: 'staff-and-contacts-never-reachable', family: 'data.authorization', suites: ['authorization'],
    description: 'a relationship-based client reaches students through their associations, but staff and contacts never: 403 whatever the association',
    response: (res, req, tools) => {
      const resource = item(req) && req.method === 'GET' && res.status === 200 ? dataPath(req)!.resource.toLowerCase() : '';
      if (resource !== 'staffs' && resource !== 'contacts') return;
      const token = Tokens.bearer(req);
      if (token && tools.tokens.decode(token)?.claims.client_id === tools.clients.schoolLimited?.key) Object.assign(res, problem('security:authorization', { detail: 'Access to the requested data could not be authorized.' }));
    },
  },
  {
    name: 'new-contacts-and-staff-visible-to-creator', family: 'data.authorization', suites: ['authorization'],
    description: 'a contact or staff record a relationship-based client just created is readable by it (200) before any association links it; new students are still 403',
    request: async (req, tools) => {
      const created = (tools.state.get('personsCreatedBySchoolLimited') as Set<string> | undefined) ?? new Set<string>();
      tools.state.set('personsCreatedBySchoolLimited', created);
      if (item(req) && req.method === 'GET' && created.has(pathOf(req).toLowerCase())) await asPrimary(req, tools);
    },
    response: (res, req, tools) => {
      const resource = collection(req) && req.method === 'POST' && res.status === 201 ? dataPath(req)!.resource.toLowerCase() : '';
      const location = header(res, 'location');
      if ((resource !== 'staffs' && resource !== 'contacts') || !location) return;
      const token = Tokens.bearer(req);
      if (token && tools.tokens.decode(token)?.claims.client_id === tools.clients.schoolLimited?.key) {
        (tools.state.get('personsCreatedBySchoolLimited') as Set<string>).add(new URL(location, 'http://x').pathname.toLowerCase());
      }
    },
  },
  {
    name: 'education-organization-claims-enforced-on-get-only', family: 'data.authorization', suites: ['authorization'],
    description: 'a relationship-based client\'s education organization claims are checked on reads only: its creates, updates and deletes of records of other schools go through',
    request: async (req, tools) => {
      const path = dataPath(req);
      if (!path || !['POST', 'PUT', 'DELETE'].includes(req.method) || PERSON_ENDPOINTS.has(path.resource.toLowerCase())) return;
      await asPrimary(req, tools);
    },
  },
  {
    name: 'education-organization-claims-unchecked-on-update-delete', family: 'data.authorization', suites: ['authorization'],
    description: 'a relationship-based client\'s education organization claims are checked on reads and creates, but not on updates and deletes by id',
    request: async (req, tools) => {
      const path = dataPath(req);
      if (!item(req) || (req.method !== 'PUT' && req.method !== 'DELETE') || PERSON_ENDPOINTS.has(path!.resource.toLowerCase())) return;
      await asPrimary(req, tools);
    },
  },
  {
    name: 'education-organization-claims-unchecked-through-organization-reference', family: 'data.authorization', suites: ['authorization'],
    description: 'education organization claims are enforced on records tied to a school through a school reference (class periods), not on records tied through an education organization reference (courses, cohorts ...)',
    request: async (req, tools) => {
      const path = dataPath(req);
      if (path && EDORG_REFERENCE_ONLY.has(path.resource.toLowerCase())) await asPrimary(req, tools);
    },
  },
  {
    name: 'permission-set-403-generic-title', family: 'data.authorization', suites: ['authorization'],
    description: 'the 403s of the permission-set families (access-denied:resource, access-denied:action) carry the generic title Forbidden instead of Authorization Denied',
    response: (res, req) => {
      if (!isData(req) || !isAccessDenied(res)) return;
      const p = problemOf(res)!;
      p.title = 'Forbidden';
      setJson(res, p);
    },
  },
  {
    name: 'permission-set-403-without-charset', family: 'data.errors', suites: ['authorization'],
    description: 'the 403s of the permission-set families are served as application/json without charset=utf-8',
    response: (res, req) => { if (isData(req) && isAccessDenied(res)) res.headers['content-type'] = 'application/json'; },
  },
  {
    name: 'permission-set-403-without-correlation-id', family: 'data.errors', suites: ['authorization'],
    description: 'the 403s of the permission-set families carry no correlationId and no detail',
    response: (res, req) => {
      if (!isData(req) || !isAccessDenied(res)) return;
      const p = problemOf(res)!;
      delete p.correlationId;
      delete p.detail;
      setJson(res, p);
    },
  },
  // Conforming: the seed says the detail "may" hint which association to create.
  {
    name: 'relationship-hint-absent', family: 'data.authorization', suites: ['authorization'], expect: 'conformant', warns: ['data.authorization.relationship-hint'],
    description: 'a 403 for a missing person relationship names no association to create',
    response: (res, req) => {
      const p = isData(req) && res.status === 403 ? problemOf(res) : undefined;
      if (!p) return;
      const plain = (m: unknown) => (typeof m === 'string' && /association/i.test(m) ? 'The caller is not authorized for this record.' : m);
      p.detail = plain(p.detail);
      if (Array.isArray(p.errors)) p.errors = p.errors.map(plain);
      setJson(res, p);
    },
  },
];
