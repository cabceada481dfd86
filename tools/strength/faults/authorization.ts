/** Faulty deployments that break data.authorization. */
import reference from '../../../suites/targets/reference.json' with { type: 'json' };
import { Tokens, dataPath, jsonOf, setJson } from '../proxy.js';
import { collection, isData, isWrite, item, problem, problemOf, type Fault } from './helpers.js';

/** The reference target's namespace-limited and permission-limited clients, whose checks these faults loosen. */
const NAMESPACE_PREFIX = reference.capabilities.namespaceLimited.namespacePrefix;
const PERMISSION_LIMITED = reference.capabilities.permissionLimits.client;
const READ_ONLY_RESOURCE = reference.capabilities.permissionLimits.readOnlyResource.toLowerCase();
const DENIED_RESOURCE = reference.capabilities.permissionLimits.deniedResource.toLowerCase();

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
