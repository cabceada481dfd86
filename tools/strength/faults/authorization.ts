/** Faulty deployments that break data.authorization. */
import { dataPath, jsonOf } from '../proxy.js';
import { isWrite, type Fault } from './helpers.js';

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
];
