import { generateKeyPairSync } from 'node:crypto';
import type { APIRequestContext } from '@playwright/test';
import { notApplicable } from '../_harness/capabilities.js';
import { rule } from '../_harness/rules.js';
import { target } from '../_harness/target.js';
import { flowSecrets, flowsDescription, type FlowsDescription } from './_support/flows.js';
import { PREFIX, bearer, craftToken, expectStatus, expectUnauthorized, tokenFor, type TokenSpec } from './_support/service.js';
import { rosteringRun } from './_support/setup.js';
import { test, expect } from './_support/test.js';

/**
 * The four routing flows (seed: Routing flows). Each deployment the target file describes
 * (rostering.flows) holds a district the global setup wrote through its data API with the
 * reserved ids; tokens naming one instance (and tenant, and route context) must read the data
 * store the admin database gives that instance: the one the data API writes, or another one,
 * which holds none of it. Tokens are those the flow's token endpoint issued to declared clients
 * with those claims, else crafted (testIssuer), else the test is not applicable.
 */
type FlowName = keyof FlowsDescription;
interface District { lea: number; school: number }
type Instances = { id: number; context?: { key: string; value: string } }[];

function flow<K extends FlowName>(name: K): NonNullable<FlowsDescription[K]> {
  const f = flowsDescription()[name];
  if (!f) notApplicable(`needs the ${name} routing flow in the target file (rostering.flows)`);
  return f!;
}

function district(name: FlowName): District {
  const d = rosteringRun().districts[name];
  if (!d) notApplicable('needs rostering.organizations in the target file (the routing district is written with those ids)');
  return d!;
}

/** A token from the flow's issuer naming the district's LEA, these instances and tenant. */
const tokenOn = (request: APIRequestContext, name: FlowName, d: District, instances: Instances, tenant: string | null = null) =>
  tokenFor(request, { flow: name, orgs: [d.lea], scopes: ['core'], instances, tenant });

/** GET /schools under a route prefix; `seen` tells whether the district's school is among them. */
async function schools(request: APIRequestContext, origin: string, route: string, token: string) {
  const res = await request.get(`${origin}${route}${PREFIX}/schools?limit=500`, { headers: bearer(token) });
  return res;
}

async function sees(request: APIRequestContext, origin: string, route: string, token: string, school: number): Promise<boolean> {
  const res = await schools(request, origin, route, token);
  const text = await res.text();
  expect(res.status(), `GET ${route || '/'}${PREFIX}/schools: ${text.slice(0, 300)}`).toBe(200);
  return (JSON.parse(text).orgs as { identifier: string }[]).some((o) => o.identifier === String(school));
}

test.describe('single-tenant routing', () => {
  test('serves resources under {base_url}/std/roster/rostering/v1p2 and under no other prefix', rule('roster.roster-routing.base-path-v1p2', 'roster.roster-routing.single-tenant-path', 'roster.roster-routing.multitenancy-switch', 'roster.roster-routing.context-template-switch'), async ({ request }) => {
    const f = flow('single');
    const d = district('single');
    const token = await tokenOn(request, 'single', d, [{ id: f.instances.plain }]);
    expect(await sees(request, f.rostering, '', token, d.school)).toBe(true);
    await expectStatus(await request.get(`${f.rostering}/std/roster/rostering/v1p1/schools`, { headers: bearer(token) }), 404);
    // With multi-tenancy and context routing off, a leading tenant or context segment is no route.
    await expectStatus(await request.get(`${f.rostering}/Tenant-A${PREFIX}/schools`, { headers: bearer(token) }), 404);
    await expectStatus(await request.get(`${f.rostering}/2026${PREFIX}/schools`, { headers: bearer(token) }), 404);
  });

  test('the instance the token names decides the data store read', rule('roster.roster-routing.store-from-claims-and-route', 'roster.roster-routing.flow-single-tenant', 'roster.roster-routing.ods-instances-claim', 'roster.roster-routing.single-tenant-admin-database', 'roster.roster-routing.connection-string-from-instance-table'), async ({ request }) => {
    const f = flow('single');
    const d = district('single');
    const as = (id: number) => tokenOn(request, 'single', d, [{ id }]);
    expect(await sees(request, f.rostering, '', await as(f.instances.plain), d.school), 'the instance whose connection string names the data API store').toBe(true);
    expect(await sees(request, f.rostering, '', await as(f.instances.otherStore), d.school), 'an instance naming another store').toBe(false);
  });

  test('reads a data store whose connection string the admin table holds encrypted with the shared key', rule('roster.roster-routing.shared-encryption-key', 'roster.roster-routing.encrypted-connection-string-format', 'roster.roster-routing.connection-string-from-instance-table'), async ({ request }) => {
    const f = flow('single');
    const d = district('single');
    const token = await tokenOn(request, 'single', d, [{ id: f.instances.encrypted }]);
    expect(await sees(request, f.rostering, '', token, d.school)).toBe(true);
  });

  test('reads a data store whose connection string the admin table holds in plain text', rule('roster.roster-routing.plain-connection-string'), async ({ request }) => {
    const f = flow('single');
    const d = district('single');
    const token = await tokenOn(request, 'single', d, [{ id: f.instances.plain }]);
    expect(await sees(request, f.rostering, '', token, d.school)).toBe(true);
  });

  test('uses the first odsInstances entry', rule('roster.roster-routing.instance-from-first-entry', 'roster.roster-routing.ods-instances-claim'), async ({ request }) => {
    const f = flow('single');
    const d = district('single');
    const first = (ids: number[]) => tokenOn(request, 'single', d, ids.map((id) => ({ id })));
    expect(await sees(request, f.rostering, '', await first([f.instances.plain, f.instances.otherStore]), d.school)).toBe(true);
    expect(await sees(request, f.rostering, '', await first([f.instances.otherStore, f.instances.plain]), d.school)).toBe(false);
  });

  test('answers 404 when the token names no instance', rule('roster.roster-routing.no-instance-404', 'roster.roster-errors.status-envelope'), async ({ request }) => {
    const f = flow('single');
    const d = district('single');
    await expectStatus(await schools(request, f.rostering, '', await tokenOn(request, 'single', d, [])), 404);
  });

  test('answers 404 when the token has no odsInstances claim or one that is not JSON', rule('roster.roster-routing.no-instance-404', 'roster.roster-errors.status-envelope'), async ({ request }) => {
    const f = flow('single');
    const d = district('single');
    for (const spec of [{ instances: null }, { instances: null, claims: { odsInstances: 'not json' } }] as TokenSpec[]) {
      const token = await craftToken(request, { orgs: [d.lea], scopes: ['core'], ...spec });
      await expectStatus(await schools(request, f.rostering, '', token), 404);
    }
  });

  test('a connection string that cannot be used gives 500 and reveals neither it nor the key', rule('roster.roster-errors.server-error-500', 'roster.roster-errors.status-envelope'), async ({ request }) => {
    const f = flow('single');
    const d = district('single');
    const broken = [f.instances.tampered, f.instances.foreignKey, f.instances.badConnection].filter((i): i is number => i !== undefined);
    if (!broken.length) notApplicable('the single flow names no unusable connection string');
    for (const id of broken) {
      const res = await schools(request, f.rostering, '', await tokenOn(request, 'single', d, [{ id }]));
      const text = await res.text();
      const body = await expectStatus(res, 500);
      expect(body.stdx_description).toBe('An internal server error occurred');
      for (const secret of flowSecrets(f)) expect(text.includes(secret), `instance ${id}: the response must not contain a secret`).toBe(false);
      expect(text).not.toMatch(/\bat [\w.<>]+ \(|\.ts:\d+|node_modules/);
    }
  });
});

test.describe('single-tenant routing with context', () => {
  test('serves {base_url}/<contextValue>/std/roster/rostering/v1p2 from the instance whose context matches the route', rule('roster.roster-routing.flow-single-tenant-context', 'roster.roster-routing.context-path', 'roster.roster-routing.context-template-switch', 'roster.roster-routing.store-from-claims-and-route'), async ({ request }) => {
    const f = flow('context');
    const d = district('context');
    const { data, other } = f.instances;
    const token = await tokenOn(request, 'context', d, [{ id: other.id, context: { key: f.contextKey, value: other.context } }, { id: data.id, context: { key: f.contextKey, value: data.context } }]);
    expect(await sees(request, f.rostering, `/${data.context}`, token, d.school), 'the route context of the data API store').toBe(true);
    expect(await sees(request, f.rostering, `/${other.context}`, token, d.school), 'the route context of another store').toBe(false);
  });

  test('answers 401 when no odsInstances entry matches the route context', rule('roster.roster-routing.context-no-match-401'), async ({ request }) => {
    const f = flow('context');
    const d = district('context');
    const token = await tokenOn(request, 'context', d, [{ id: f.instances.data.id, context: { key: f.contextKey, value: f.instances.data.context } }]);
    await expectStatus(await schools(request, f.rostering, `/${f.instances.other.context}`, token), 401);
    await expectStatus(await schools(request, f.rostering, '/1999', token), 401);
    const wrongKey = await tokenOn(request, 'context', d, [{ id: f.instances.data.id, context: { key: `${f.contextKey}X`, value: f.instances.data.context } }]);
    await expectStatus(await schools(request, f.rostering, `/${f.instances.data.context}`, wrongKey), 401);
  });

  test('answers 400 when the route carries no context value', rule('roster.roster-routing.context-missing-400', 'roster.roster-routing.context-template-switch'), async ({ request }) => {
    const f = flow('context');
    const d = district('context');
    const token = await tokenOn(request, 'context', d, [{ id: f.instances.data.id, context: { key: f.contextKey, value: f.instances.data.context } }]);
    await expectStatus(await schools(request, f.rostering, '', token), 400);
  });

  test('verifies tokens with a public key configured on one line', rule('roster.roster-auth.public-key-pem-one-line'), async ({ request }) => {
    const f = flow('context');
    if (!f.publicKeyPemOneLine) notApplicable('the flows description does not say the key was configured on one line');
    const d = district('context');
    const instances = [{ id: f.instances.data.id, context: { key: f.contextKey, value: f.instances.data.context } }];
    expect(await sees(request, f.rostering, `/${f.instances.data.context}`, await tokenOn(request, 'context', d, instances), d.school)).toBe(true);
    const foreign = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    await expectUnauthorized(await schools(request, f.rostering, `/${f.instances.data.context}`, await craftToken(request, { orgs: [d.lea], scopes: ['core'], instances }, { dataApi: f.dataApi, key: foreign })));
  });
});

test.describe('multi-tenant routing', () => {
  test('serves {base_url}/<tenantId>/std/roster/rostering/v1p2 from the tenant\'s admin database, the route tenant matched ignoring case', rule('roster.roster-routing.flow-multi-tenant', 'roster.roster-routing.multi-tenant-path', 'roster.roster-routing.tenant-claim-case-insensitive', 'roster.roster-routing.multitenancy-switch'), async ({ request }) => {
    const f = flow('tenant');
    const d = district('tenant');
    const token = await tokenOn(request, 'tenant', d, [{ id: f.instance }], f.dataTenant);
    for (const route of [f.dataTenant, f.dataTenant.toLowerCase(), f.dataTenant.toUpperCase()]) {
      expect(await sees(request, f.rostering, `/${route}`, token, d.school), `route tenant ${route}`).toBe(true);
    }
  });

  test('accepts a tenantId claim that differs from the route tenant only in letter case', rule('roster.roster-routing.tenant-claim-case-insensitive'), async ({ request }) => {
    const f = flow('tenant');
    const d = district('tenant');
    for (const tenantId of [f.dataTenant.toLowerCase(), f.dataTenant.toUpperCase()]) {
      const token = await tokenOn(request, 'tenant', d, [{ id: f.instance }], tenantId);
      expect(await sees(request, f.rostering, `/${f.dataTenant}`, token, d.school), `tenantId ${tenantId}`).toBe(true);
    }
  });

  test('the same instance id in another tenant reads that tenant\'s data store', rule('roster.roster-routing.tenant-admin-database', 'roster.roster-routing.store-from-claims-and-route'), async ({ request }) => {
    const f = flow('tenant');
    const d = district('tenant');
    const token = await tokenOn(request, 'tenant', d, [{ id: f.instance }], f.otherTenant);
    expect(await sees(request, f.rostering, `/${f.otherTenant}`, token, d.school)).toBe(false);
  });

  test('answers 401 without a tenantId claim or with another tenant\'s', rule('roster.roster-routing.tenant-claim-required', 'roster.roster-routing.tenant-mismatch-401', 'roster.roster-errors.unauthorized-is-401', 'roster.roster-routing.multitenancy-switch'), async ({ request }) => {
    const f = flow('tenant');
    const d = district('tenant');
    await expectStatus(await schools(request, f.rostering, `/${f.dataTenant}`, await tokenOn(request, 'tenant', d, [{ id: f.instance }], null)), 401);
    await expectStatus(await schools(request, f.rostering, `/${f.dataTenant}`, await tokenOn(request, 'tenant', d, [{ id: f.instance }], f.otherTenant)), 401);
    // The control: the data tenant's token passes.
    expect(await sees(request, f.rostering, `/${f.dataTenant}`, await tokenOn(request, 'tenant', d, [{ id: f.instance }], f.dataTenant), d.school)).toBe(true);
  });

  test('answers 401 for a tenantId that only begins like the route\'s', rule('roster.roster-routing.tenant-mismatch-401'), async ({ request }) => {
    const f = flow('tenant');
    const d = district('tenant');
    const token = await craftToken(request, { orgs: [d.lea], scopes: ['core'], instances: [{ id: f.instance }], tenantId: `${f.dataTenant}x` }, { dataApi: f.dataApi });
    await expectStatus(await schools(request, f.rostering, `/${f.dataTenant}`, token), 401);
  });

  test('answers 404 for an unknown tenant', rule('roster.roster-errors.unknown-tenant-404'), async ({ request }) => {
    const f = flow('tenant');
    const d = district('tenant');
    // A declared client of a tenant the deployment does not have, else a crafted token naming one.
    const known = [f.dataTenant, f.otherTenant].map((t) => t.toLowerCase());
    const unknown = Object.values(target.rostering?.clients ?? {}).find((c) => c.flow === 'tenant' && c.tenant && !known.includes(c.tenant.toLowerCase()))?.tenant ?? 'No-Such-Tenant';
    const token = await tokenOn(request, 'tenant', d, [{ id: f.instance }], unknown);
    await expectStatus(await schools(request, f.rostering, `/${unknown}`, token), 404);
  });

  test('answers 404 for a path without the tenant segment', rule('roster.roster-routing.missing-tenant-segment-404', 'roster.roster-routing.multitenancy-switch'), async ({ request }) => {
    const f = flow('tenant');
    const d = district('tenant');
    const token = await tokenOn(request, 'tenant', d, [{ id: f.instance }], f.dataTenant);
    await expectStatus(await schools(request, f.rostering, '', token), 404);
  });
});

test.describe('multi-tenant routing with context', () => {
  test('serves {base_url}/<tenantId>/<contextValue>/std/roster/rostering/v1p2 from the matching instance of the tenant\'s admin database', rule('roster.roster-routing.flow-multi-tenant-context', 'roster.roster-routing.multi-tenant-context-path', 'roster.roster-routing.store-from-claims-and-route'), async ({ request }) => {
    const f = flow('tenantContext');
    const d = district('tenantContext');
    const { data, other } = f.instances;
    const instances = [{ id: data.id, context: { key: f.contextKey, value: data.context } }, { id: other.id, context: { key: f.contextKey, value: other.context } }];
    const a = await tokenOn(request, 'tenantContext', d, instances, f.dataTenant);
    expect(await sees(request, f.rostering, `/${f.dataTenant}/${data.context}`, a, d.school)).toBe(true);
    expect(await sees(request, f.rostering, `/${f.dataTenant}/${other.context}`, a, d.school)).toBe(false);
    const b = await tokenOn(request, 'tenantContext', d, instances, f.otherTenant);
    expect(await sees(request, f.rostering, `/${f.otherTenant}/${data.context}`, b, d.school), 'the same instance and context in the other tenant').toBe(false);
    await expectStatus(await schools(request, f.rostering, `/${f.dataTenant}`, a), 400);
    await expectStatus(await schools(request, f.rostering, `/${f.otherTenant}/${data.context}`, a), 401);
  });
});
