/** Faulty deployments that break roster.roster-routing. */
import { jsonOf, pathOf, Tokens } from '../proxy.js';
import { isRoster, rosterFailure, type Fault } from './helpers.js';

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
    name: 'roster-other-version-served', family: 'roster.roster-routing', suites: ['rostering/paths.spec.ts'], grep: 'version segment',
    description: 'the rostering resources are also served under /std/roster/rostering/v1p1',
    request: (req) => { if (isRoster(req)) req.url = req.url.replace('/std/roster/rostering/v1p1/', '/std/roster/rostering/v1p2/'); },
  },
  {
    name: 'roster-last-instance-used', family: 'roster.roster-routing', suites: ['rostering/routing.spec.ts'], grep: 'single-tenant routing', expect: 'conformant', warns: ['roster.roster-routing.instance-from-first-entry'],
    description: 'the rostering service resolves the data store from the last odsInstances entry, not the first (the seed does not say which entry; the first is upstream\'s, decision 41\'s SHOULD half)',
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
  {
    name: 'roster-instance-id-claim-ignored', family: 'roster.roster-routing', suites: ['rostering/routing.spec.ts'], grep: 'odsInstanceId',
    description: 'a token\'s direct odsInstanceId claim is ignored: the odsInstances claim alone selects the instance (seed 001: "odsInstanceId from the token"; decision 41)',
    request: async (req, tools) => { if (isRoster(req)) await tools.tokens.rewrite(req, (c) => c.odsInstanceId !== undefined && delete c.odsInstanceId); },
  },
  {
    name: 'roster-instance-id-claim-ignored-single-flow', family: 'roster.roster-routing', suites: ['rostering/routing.spec.ts'], grep: 'direct odsInstanceId claim names',
    description: 'the single-tenant flow takes the instance from the odsInstances claim alone, ignoring a direct odsInstanceId claim (seed 001, Routing flows: "odsInstanceId from the token"); the multi-tenant flow honours it',
    request: async (req, tools) => { if (isRoster(req) && !req.route.multiTenant && !req.route.contextRouting) await tools.tokens.rewrite(req, (c) => c.odsInstanceId !== undefined && delete c.odsInstanceId); },
  },
  // ---- conforming deviations: the seed allows them, the verdict must stay conformant ----
  {
    name: 'roster-context-missing-404', family: 'roster.roster-routing', suites: ['rostering'], expect: 'conformant',
    description: 'a context-routed service answers a route without its context value 404, not 400 (the seed gives no status; 400 is SHOULD)',
    response: (res, req) => {
      const description = String((jsonOf(res) as { stdx_description?: unknown } | undefined)?.stdx_description ?? '');
      if (isRoster(req) && req.route.contextRouting && res.status === 400 && /context/i.test(description)) rosterFailure(res, 404, 'The specified resource was not found.');
    },
  },
  {
    name: 'roster-tenant-missing-401', family: 'roster.roster-routing', suites: ['rostering'], expect: 'conformant',
    description: 'a multi-tenant service answers a path without the tenant segment 401, not 404 (the seed gives no status; 404 is SHOULD)',
    response: (res, req) => {
      if (isRoster(req) && req.route.multiTenant && res.status === 404 && pathOf(req).startsWith('/std/roster/')) rosterFailure(res, 401, 'Authentication failed: the token is invalid or missing.');
    },
  },
];
