import type { HttpClient, HttpResponse } from '../../_harness/http.js';
import { needs, notApplicable } from '../../_harness/capabilities.js';
import { target } from '../../_harness/target.js';
import { flowsDescription, type FlowsDescription } from './flows.js';
import { heldMark, parseJson, recordsIn, recordsOf } from './read.js';
import { PREFIX, bearer, craftToken, declaredClient, rosteringOrigin, tokenFor } from './service.js';
import { WORLD_FIELDS, rosteringRun, unlessHeld, type District } from './setup.js';

/**
 * The routing flows under test (seed: Routing flows), for the routing suites: each deployment the
 * target describes (rostering.flows) holds a district its data API wrote with the reserved ids;
 * a read under a route prefix shows whether the data store behind it is the one holding the
 * district. The district is found by what was written (its ids and names), wherever a record
 * holds them, so the mapping the service uses does not matter (the seed shows no fields).
 */
export type FlowName = keyof FlowsDescription;
export type Instances = { id: number; context?: { key: string; value: string } }[];

export function flow<K extends FlowName>(name: K): NonNullable<FlowsDescription[K]> {
  const f = flowsDescription()[name];
  needs(`rostering.flows.${name}`, f, `the ${name} routing flow`);
  return f!;
}

export function district(name: FlowName): District {
  const run = rosteringRun();
  // Every district is written only once the world is (setup.ts).
  unlessHeld(WORLD_FIELDS);
  const withheld = run.withheldFlows?.[name];
  if (withheld) notApplicable(`${withheld}: the suites never write over it`);
  const d = run.districts[name];
  needs('rostering.organizations', d, 'the routing district is written with those ids');
  return d!;
}

/** A token from the flow's issuer naming the district's LEA, these instances and tenant, with core scope. */
export const tokenOn = (request: HttpClient, name: FlowName, d: District, instances: Instances, tenant: string | null = null) =>
  tokenFor(request, { flow: name, orgs: [d.lea], scopes: ['core'], instances, tenant });

/**
 * The same claims with the demographics scope too, for reading every resource: a declared
 * client's token, else a crafted one where the target lets the suites sign, else undefined.
 */
export async function fullReaderOn(request: HttpClient, name: FlowName, d: District, instances: Instances, tenant: string | null = null): Promise<string | undefined> {
  const found = declaredClient({ flow: name, orgs: [d.lea], scopes: ['core', 'demographics'], instances, tenant });
  if (found) return found.token;
  if (!target.capabilities?.testIssuer && !target.capabilities?.issuerSigningKey) return undefined;
  return craftToken(request, { orgs: [d.lea], scopes: ['core', 'demographics'], instances, ...(tenant ? { tenantId: tenant } : {}) }, { dataApi: flow(name).dataApi });
}

/** URL of a resource under a route prefix (`/tenant/context`, or '') of a flow's service. */
export const routeUrl = (origin: string, route: string, resource: string) => `${origin}${route}${PREFIX}/${resource}`;

/** GET /orgs under a route prefix. */
export const orgsUnder = (request: HttpClient, origin: string, route: string, token: string): Promise<HttpResponse> =>
  request.get(routeUrl(origin, route, 'orgs'), { headers: bearer(token) });

const districtMarks = (d: District) => [String(d.lea), String(d.school), d.leaName, d.schoolName];

/** Whether a response serves the district: a collection holding its district or school. */
export async function serves(res: HttpResponse, d: District): Promise<boolean> {
  if (res.status() !== 200) return false;
  const records = recordsIn(parseJson(await res.text()));
  return !!records?.some((r) => heldMark(r, districtMarks(d)));
}

/** Reads /orgs under a route (200 and a collection, asserted) and tells whether the district is there. */
export async function sees(request: HttpClient, origin: string, route: string, token: string, d: District): Promise<boolean> {
  const records = await recordsOf(await orgsUnder(request, origin, route, token));
  return records.some((r) => heldMark(r, districtMarks(d)));
}

/**
 * Where the rostering prefix is served: the service itself, and under each routing flow the
 * target describes, the route prefix its configuration gives (context value, tenant, both).
 */
export function routePrefixes(): { where: string; origin: string; route: string }[] {
  const flows = flowsDescription();
  const out = [{ where: 'the service', origin: rosteringOrigin(), route: '' }];
  if (flows.single && flows.single.rostering.replace(/\/$/, '') !== out[0].origin) out.push({ where: 'the single-tenant flow', origin: flows.single.rostering, route: '' });
  if (flows.context) out.push({ where: 'the context flow', origin: flows.context.rostering, route: `/${flows.context.instances.data.context}` });
  if (flows.tenant) out.push({ where: 'the multi-tenant flow', origin: flows.tenant.rostering, route: `/${flows.tenant.dataTenant}` });
  if (flows.tenantContext) out.push({ where: 'the multi-tenant flow with context', origin: flows.tenantContext.rostering, route: `/${flows.tenantContext.dataTenant}/${flows.tenantContext.instances.data.context}` });
  return out.map((p) => ({ ...p, origin: p.origin.replace(/\/$/, '') }));
}
