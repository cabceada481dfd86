/** Faulty deployments that break roster.roster-routing. */
import { pathOf, Tokens } from '../proxy.js';
import { isRoster, type Fault } from './helpers.js';

export const rosterRoutingFaults: Fault[] = [
  {
    name: 'roster-tenant-claim-ignored', family: 'roster.roster-routing', suites: ['rostering/routing.spec.ts'], grep: 'tenant',
    description: 'a multi-tenant rostering service serves the route\'s tenant whatever the tenantId claim says',
    request: async (req, tools) => {
      if (!isRoster(req) || !req.route.multiTenant) return;
      const tenant = pathOf(req).split('/').filter(Boolean)[0];
      if (tenant) await tools.tokens.rewrite(req, (c) => c.tenantId !== tenant && Boolean((c.tenantId = tenant)));
    },
  },
  {
    name: 'roster-other-version-served', family: 'roster.roster-routing', suites: ['rostering/routing.spec.ts'], grep: 'single-tenant routing',
    description: 'the rostering resources are also served under /std/roster/rostering/v1p1',
    request: (req) => { if (isRoster(req)) req.url = req.url.replace('/std/roster/rostering/v1p1/', '/std/roster/rostering/v1p2/'); },
  },
  {
    name: 'roster-last-instance-used', family: 'roster.roster-routing', suites: ['rostering/routing.spec.ts'], grep: 'single-tenant routing',
    description: 'the rostering service resolves the data store from the last odsInstances entry, not the first',
    request: async (req, tools) => {
      if (!isRoster(req)) return;
      await tools.tokens.rewrite(req, (c) => {
        if (typeof c.odsInstances !== 'string') return false;
        try {
          const parsed = JSON.parse(c.odsInstances) as { OdsInstances?: unknown[] };
          if (!Array.isArray(parsed.OdsInstances) || parsed.OdsInstances.length < 2) return false;
          parsed.OdsInstances.reverse();
          c.odsInstances = JSON.stringify(parsed);
          return true;
        } catch {
          return false;
        }
      });
    },
  },
  {
    name: 'roster-route-context-ignored', family: 'roster.roster-routing', suites: ['rostering/routing.spec.ts'], grep: 'context',
    description: 'a context-routed rostering service serves the token\'s first instance whatever context the route names',
    request: async (req, tools) => {
      const token = isRoster(req) && req.route.contextRouting ? Tokens.bearer(req) : undefined;
      const claims = token ? await tools.tokens.signed(token) : undefined;
      if (!claims || typeof claims.odsInstances !== 'string') return;
      try {
        const first = (JSON.parse(claims.odsInstances) as { OdsInstances?: { OdsInstanceContext?: { ContextValue?: string } | null }[] }).OdsInstances?.[0];
        const value = first?.OdsInstanceContext?.ContextValue;
        const segments = pathOf(req).split('/');
        const at = segments.indexOf('std') - 1;
        if (value && at >= (req.route.multiTenant ? 2 : 1)) { segments[at] = value; req.url = `${segments.join('/')}${req.url.slice(pathOf(req).length)}`; }
      } catch { /* not JSON: leave it */ }
    },
  },
];
