import type { HttpClient } from '../_harness/http.js';
import { decodeJwt } from 'jose';
import { needs } from '../_harness/capabilities.js';
import { check, rule } from '../_harness/rules.js';
import { target } from '../_harness/target.js';
import { flowSecrets, flowsDescription } from './_support/flows.js';
import { district, flow, orgsUnder, serves, sees, tokenOn, type Instances } from './_support/routes.js';
import { craftToken, expectStatus, expectStatusAndEnvelope, expectUnauthorized, foreignKeyPem, type TokenSpec } from './_support/service.js';
import { test, expect } from './_support/test.js';

/**
 * The four routing flows (seed: Routing flows). Each deployment the target file describes
 * (rostering.flows) holds a district the global setup wrote through its data API with the
 * reserved ids; tokens naming one instance (and tenant, and route context) must read the data
 * store the admin database gives that instance: the one the data API writes, or another one,
 * which holds none of it. Tokens are those the flow's token endpoint issued to declared clients
 * with those claims, else crafted (testIssuer), else the test is not applicable. Where the
 * district is read, read.ts finds it by what was written, whatever the service's mapping.
 */
const STATUS_ENVELOPE = 'roster.roster-errors.status-envelope';

/** Reads under the single flow's service with a token naming these instances. */
async function singleSees(request: HttpClient, instances: Instances): Promise<boolean> {
  const f = flow('single');
  const d = district('single');
  return sees(request, f.rostering, '', await tokenOn(request, 'single', d, instances), d);
}

/** A crafted token of a flow's issuer naming the district's LEA, with the claims given (testIssuer). */
const craftedOn = (request: HttpClient, name: 'single' | 'context' | 'tenant', spec: TokenSpec) =>
  craftToken(request, { orgs: [district(name).lea], scopes: ['core'], ...spec }, name === 'single' ? {} : { dataApi: flow(name).dataApi });

test.describe('single-tenant routing', () => {
  test('in the single-tenant flow the data store read is that of the instance the token names', rule('roster.roster-routing.flow-single-tenant'), async ({ request }) => {
    const { instances } = flow('single');
    expect(await singleSees(request, [{ id: instances.plain }]), 'the instance whose connection string names the data API\'s store').toBe(true);
    expect(await singleSees(request, [{ id: instances.otherStore }]), 'an instance naming another store').toBe(false);
  });

  test('in the single-tenant flow the data store read is that of the instance a direct odsInstanceId claim names (seed: "odsInstanceId from the token")', rule('roster.roster-routing.flow-single-tenant'), async ({ request }) => {
    // The seed's own words for the flow; the data API issues no such claim, so the token is crafted
    // (testIssuer), without an odsInstances claim: only the direct claim names the instance.
    const f = flow('single');
    const d = district('single');
    for (const [id, expected] of [[f.instances.plain, true], [f.instances.encrypted, true], [f.instances.otherStore, false]] as const) {
      const token = await craftedOn(request, 'single', { claims: { odsInstanceId: id }, instances: null });
      expect(await sees(request, f.rostering, '', token, d), `odsInstanceId ${id}, no odsInstances claim`).toBe(expected);
    }
  });

  test('tokens naming different instances, or routes naming different contexts, read different data stores', rule('roster.roster-routing.store-from-claims-and-route'), async ({ request }) => {
    const { instances } = flow('single');
    expect(await singleSees(request, [{ id: instances.encrypted }])).toBe(true);
    expect(await singleSees(request, [{ id: instances.otherStore }])).toBe(false);
    if (!flowsDescription().context) return;
    const f = flow('context');
    const d = district('context');
    const entries = (['other', 'data'] as const).map((w) => ({ id: f.instances[w].id, context: { key: f.contextKey, value: f.instances[w].context } }));
    const token = await tokenOn(request, 'context', d, entries);
    expect(await sees(request, f.rostering, `/${f.instances.data.context}`, token, d), 'the same token, the data context').toBe(true);
    expect(await sees(request, f.rostering, `/${f.instances.other.context}`, token, d), 'the same token, the other context').toBe(false);
  });

  test('an odsInstances claim, a JSON string of OdsInstances entries, chooses the data store', rule('roster.roster-routing.ods-instances-claim'), async ({ request }) => {
    const f = flow('single');
    const d = district('single');
    for (const [id, expected] of [[f.instances.plain, true], [f.instances.otherStore, false]] as const) {
      const token = await tokenOn(request, 'single', d, [{ id }]);
      const claim = decodeJwt(token).odsInstances;
      expect(typeof claim, 'odsInstances is a JSON string').toBe('string');
      expect(JSON.parse(String(claim)), 'its entries').toMatchObject({ OdsInstances: [{ OdsInstanceId: id }] });
      expect(await sees(request, f.rostering, '', token, d), `instance ${id}`).toBe(expected);
    }
  });

  test('in single-tenant mode each instance id reads the store its row in the CONNECTION_CONFIG admin database names', rule('roster.roster-routing.single-tenant-admin-database'), async ({ request }) => {
    const { instances } = flow('single');
    for (const [id, expected] of [[instances.plain, true], [instances.encrypted, true], [instances.otherStore, false]] as const) {
      expect(await singleSees(request, [{ id }]), `instance ${id}`).toBe(expected);
    }
  });

  test('in every flow the connection string is read by instance id from the admin database\'s instance table', rule('roster.roster-routing.connection-string-from-instance-table'), async ({ request }) => {
    const { instances } = flow('single');
    expect(await singleSees(request, [{ id: instances.plain }])).toBe(true);
    expect(await singleSees(request, [{ id: instances.otherStore }])).toBe(false);
    const flows = flowsDescription();
    if (flows.context) {
      const f = flow('context');
      const d = district('context');
      const token = await tokenOn(request, 'context', d, (['other', 'data'] as const).map((w) => ({ id: f.instances[w].id, context: { key: f.contextKey, value: f.instances[w].context } })));
      for (const [w, expected] of [['data', true], ['other', false]] as const) {
        expect(await sees(request, f.rostering, `/${f.instances[w].context}`, token, d), `context flow, instance ${f.instances[w].id}`).toBe(expected);
      }
    }
    if (flows.tenant) {
      const f = flow('tenant');
      const d = district('tenant');
      for (const [tenant, expected] of [[f.dataTenant, true], [f.otherTenant, false]] as const) {
        expect(await sees(request, f.rostering, `/${tenant}`, await tokenOn(request, 'tenant', d, [{ id: f.instance }], tenant), d), `tenant ${tenant}, instance ${f.instance}`).toBe(expected);
      }
    }
  });

  test('reads a data store whose connection string the admin table holds encrypted with the shared key', rule('roster.roster-routing.shared-encryption-key'), async ({ request }) => {
    expect(await singleSees(request, [{ id: flow('single').instances.encrypted }])).toBe(true);
  });

  test('decrypts a connection string stored as base64(iv)|base64(ciphertext)|base64(hmac), and reads none whose HMAC or key is wrong', rule('roster.roster-routing.encrypted-connection-string-format'), async ({ request }) => {
    const f = flow('single');
    const d = district('single');
    expect(await singleSees(request, [{ id: f.instances.encrypted }])).toBe(true);
    for (const id of [f.instances.tampered, f.instances.foreignKey].filter((i): i is number => i !== undefined)) {
      expect(await serves(await orgsUnder(request, f.rostering, '', await tokenOn(request, 'single', d, [{ id }])), d), `instance ${id}`).toBe(false);
    }
  });

  test('reads a data store whose connection string the admin table holds in plain text', rule('roster.roster-routing.plain-connection-string'), async ({ request }) => {
    expect(await singleSees(request, [{ id: flow('single').instances.plain }])).toBe(true);
  });

  test('without an odsInstanceId claim, uses the first odsInstances entry', rule('roster.roster-routing.instance-from-first-entry'), async ({ request }) => {
    const { instances } = flow('single');
    expect(await singleSees(request, [{ id: instances.plain }, { id: instances.otherStore }])).toBe(true);
    expect(await singleSees(request, [{ id: instances.otherStore }, { id: instances.plain }])).toBe(false);
  });

  test('in the single-tenant flow a token\'s odsInstanceId claim selects the instance, whatever its odsInstances claim holds', rule('roster.roster-routing.instance-id-claim'), async ({ request }) => {
    const f = flow('single');
    const d = district('single');
    const { plain, otherStore } = f.instances;
    const cases: [TokenSpec, boolean][] = [
      [{ claims: { odsInstanceId: plain }, instances: [{ id: otherStore }] }, true],
      [{ claims: { odsInstanceId: otherStore }, instances: [{ id: plain }] }, false],
      [{ claims: { odsInstanceId: plain }, instances: null }, true],
    ];
    for (const [spec, expected] of cases) {
      expect(await sees(request, f.rostering, '', await craftedOn(request, 'single', spec), d), JSON.stringify(spec)).toBe(expected);
    }
  });

  test('in the multi-tenant flow a token\'s odsInstanceId claim selects the instance in the tenant\'s admin database', rule('roster.roster-routing.instance-id-claim'), async ({ request }) => {
    const f = flow('tenant');
    const d = district('tenant');
    // The odsInstances entry names an instance no admin database has: only the direct claim can reach the data.
    const token = await craftedOn(request, 'tenant', { claims: { odsInstanceId: f.instance }, instances: [{ id: 987654 }], tenantId: f.dataTenant });
    expect(await sees(request, f.rostering, `/${f.dataTenant}`, token, d)).toBe(true);
  });

  test('answers 404 when the token names no instance', rule('roster.roster-routing.no-instance-404', STATUS_ENVELOPE), async ({ request }) => {
    const f = flow('single');
    await expectStatus(await orgsUnder(request, f.rostering, '', await tokenOn(request, 'single', district('single'), [])), 404);
  });

  test('answers 404 when the token has no odsInstances claim, one that is not JSON, or one without an OdsInstances list', rule('roster.roster-routing.no-instance-404', STATUS_ENVELOPE), async ({ request }) => {
    const f = flow('single');
    for (const spec of [{ instances: null }, { instances: null, claims: { odsInstances: 'not json' } }, { instances: null, claims: { odsInstances: '{}' } }] as TokenSpec[]) {
      await expectStatus(await orgsUnder(request, f.rostering, '', await craftedOn(request, 'single', spec)), 404);
    }
  });

  test('a connection string that cannot be used gives 500 and reveals neither it nor the key', rule('roster.roster-errors.server-error-500', STATUS_ENVELOPE), async ({ request }) => {
    const f = flow('single');
    const d = district('single');
    const broken = [f.instances.tampered, f.instances.foreignKey, f.instances.badConnection].filter((i): i is number => i !== undefined);
    needs(['tampered', 'foreignKey', 'badConnection'].map((k) => `rostering.flows.single.instances.${k}`), broken.length, 'an instance whose connection string cannot be used');
    for (const id of broken) {
      const res = await orgsUnder(request, f.rostering, '', await tokenOn(request, 'single', d, [{ id }]));
      const text = await res.text();
      const body = await expectStatus(res, 500);
      expect(body.stdx_description).toBe('An internal server error occurred');
      for (const secret of flowSecrets(f)) expect(text.includes(secret), `instance ${id}: the response must not contain a secret`).toBe(false);
      expect(text).not.toMatch(/\bat [\w.<>]+ \(|\.ts:\d+|node_modules/);
    }
  });
});

test.describe('single-tenant routing with context', () => {
  test('serves {base_url}/<contextValue>/std/roster/rostering/v1p2 from the instance whose context matches the route', rule('roster.roster-routing.flow-single-tenant-context'), async ({ request }) => {
    const f = flow('context');
    const d = district('context');
    const { data, other } = f.instances;
    const token = await tokenOn(request, 'context', d, [{ id: other.id, context: { key: f.contextKey, value: other.context } }, { id: data.id, context: { key: f.contextKey, value: data.context } }]);
    expect(await sees(request, f.rostering, `/${data.context}`, token, d), 'the route context of the data API store').toBe(true);
    expect(await sees(request, f.rostering, `/${other.context}`, token, d), 'the route context of another store').toBe(false);
  });

  test('answers 401 when no odsInstances entry matches the route context', rule('roster.roster-routing.context-no-match-401', STATUS_ENVELOPE), async ({ request }) => {
    const f = flow('context');
    const d = district('context');
    const token = await tokenOn(request, 'context', d, [{ id: f.instances.data.id, context: { key: f.contextKey, value: f.instances.data.context } }]);
    await expectStatus(await orgsUnder(request, f.rostering, `/${f.instances.other.context}`, token), 401);
    await expectStatus(await orgsUnder(request, f.rostering, '/1999', token), 401);
    const wrongKey = await tokenOn(request, 'context', d, [{ id: f.instances.data.id, context: { key: `${f.contextKey}X`, value: f.instances.data.context } }]);
    await expectStatus(await orgsUnder(request, f.rostering, `/${f.instances.data.context}`, wrongKey), 401);
  });

  test('an odsInstances entry whose OdsInstanceContext is null matches no route context, and the matching entry beside it is served', rule('roster.roster-routing.flow-single-tenant-context', 'roster.roster-routing.context-no-match-401'), async ({ request }) => {
    // The seed's claim shape allows a null context (upstream issues one for an instance without
    // contexts); the data store is the entry whose key and value match the route, and no other.
    // Crafted (testIssuer): the claim must hold exactly these entries, which a declared client's
    // token, issued with the admin database's contexts, need not.
    const f = flow('context');
    const d = district('context');
    const { data, other } = f.instances;
    const beside = await craftedOn(request, 'context', { instances: [{ id: other.id }, { id: data.id, context: { key: f.contextKey, value: data.context } }] });
    expect(await sees(request, f.rostering, `/${data.context}`, beside, d), 'a null-context entry before the matching one').toBe(true);
    const alone = await craftedOn(request, 'context', { instances: [{ id: data.id }] });
    const res = await orgsUnder(request, f.rostering, `/${data.context}`, alone);
    expect(await serves(res, d), 'the data instance under a null context serves the route context').toBe(false);
    await check('roster.roster-routing.context-no-match-401', 'a null context matches no route context: 401', () => expectStatus(res, 401));
  });

  test('answers 404 when the token has neither an odsInstances claim (or one that is not JSON or lists nothing) nor an odsInstanceId claim', rule('roster.roster-routing.no-instance-404', STATUS_ENVELOPE), async ({ request }) => {
    // With context routing on too (upstream: no entries, so the direct claim; none, so 404).
    const f = flow('context');
    for (const spec of [{ instances: null }, { instances: null, claims: { odsInstances: 'not json' } }, { instances: null, claims: { odsInstances: '{}' } }] as TokenSpec[]) {
      await expectStatus(await orgsUnder(request, f.rostering, `/${f.instances.data.context}`, await craftedOn(request, 'context', spec)), 404);
    }
  });

  test('answers 400 when the route carries no context value', rule('roster.roster-routing.context-missing-400', STATUS_ENVELOPE), async ({ request }) => {
    const f = flow('context');
    const token = await tokenOn(request, 'context', district('context'), [{ id: f.instances.data.id, context: { key: f.contextKey, value: f.instances.data.context } }]);
    await expectStatus(await orgsUnder(request, f.rostering, '', token), 400);
  });

  test('verifies tokens with a public key configured on one line', rule('roster.roster-auth.public-key-pem-one-line', 'roster.roster-errors.token-failure-body'), async ({ request }) => {
    const f = flow('context');
    needs('rostering.flows.context.publicKeyPemOneLine', f.publicKeyPemOneLine, 'the context flow\'s service configured with its public key on one line');
    const d = district('context');
    const instances = [{ id: f.instances.data.id, context: { key: f.contextKey, value: f.instances.data.context } }];
    expect(await sees(request, f.rostering, `/${f.instances.data.context}`, await tokenOn(request, 'context', d, instances), d)).toBe(true);
    const foreign = foreignKeyPem();
    await expectUnauthorized(await orgsUnder(request, f.rostering, `/${f.instances.data.context}`, await craftToken(request, { orgs: [d.lea], scopes: ['core'], instances }, { dataApi: f.dataApi, key: foreign })));
  });
});

test.describe('multi-tenant routing', () => {
  test('serves {base_url}/<tenantId>/std/roster/rostering/v1p2 from the instance the token names, in the tenant\'s admin database', rule('roster.roster-routing.flow-multi-tenant'), async ({ request }) => {
    const f = flow('tenant');
    const d = district('tenant');
    expect(await sees(request, f.rostering, `/${f.dataTenant}`, await tokenOn(request, 'tenant', d, [{ id: f.instance }], f.dataTenant), d)).toBe(true);
  });

  test('serves the instance a direct odsInstanceId claim names, from the tenant\'s admin database (seed: "odsInstanceId from the token, against the tenant\'s admin database")', rule('roster.roster-routing.flow-multi-tenant'), async ({ request }) => {
    // Crafted (testIssuer): the data API issues no direct claim. No odsInstances claim, so only
    // the direct claim names the instance; the same id in the other tenant reads that tenant's store.
    const f = flow('tenant');
    const d = district('tenant');
    for (const [tenant, expected] of [[f.dataTenant, true], [f.otherTenant, false]] as const) {
      const token = await craftedOn(request, 'tenant', { claims: { odsInstanceId: f.instance }, instances: null, tenantId: tenant });
      expect(await sees(request, f.rostering, `/${tenant}`, token, d), `tenant ${tenant}, odsInstanceId ${f.instance}, no odsInstances claim`).toBe(expected);
    }
  });

  test('accepts a tenantId claim that differs from the route tenant only in letter case, either way round', rule('roster.roster-routing.tenant-claim-case-insensitive'), async ({ request }) => {
    const f = flow('tenant');
    const d = district('tenant');
    for (const tenantId of [f.dataTenant.toLowerCase(), f.dataTenant.toUpperCase()]) {
      const token = await tokenOn(request, 'tenant', d, [{ id: f.instance }], tenantId);
      expect(await sees(request, f.rostering, `/${f.dataTenant}`, token, d), `tenantId ${tenantId}`).toBe(true);
    }
    // The route tenant in another case: the claim matches it, so no 401. Whether the tenant's
    // configuration is found under it too the seed does not say (upstream: yes), so no more.
    const token = await tokenOn(request, 'tenant', d, [{ id: f.instance }], f.dataTenant);
    for (const route of [f.dataTenant.toLowerCase(), f.dataTenant.toUpperCase()]) {
      const res = await orgsUnder(request, f.rostering, `/${route}`, token);
      expect(res.status(), `route tenant ${route}: ${await res.text()}`).not.toBe(401);
    }
  });

  test('the same instance id in another tenant reads that tenant\'s data store', rule('roster.roster-routing.tenant-admin-database'), async ({ request }) => {
    const f = flow('tenant');
    const d = district('tenant');
    expect(await sees(request, f.rostering, `/${f.dataTenant}`, await tokenOn(request, 'tenant', d, [{ id: f.instance }], f.dataTenant), d)).toBe(true);
    expect(await sees(request, f.rostering, `/${f.otherTenant}`, await tokenOn(request, 'tenant', d, [{ id: f.instance }], f.otherTenant), d)).toBe(false);
  });

  test('answers 401 without a tenantId claim', rule('roster.roster-routing.tenant-claim-required', STATUS_ENVELOPE), async ({ request }) => {
    const f = flow('tenant');
    await expectStatusAndEnvelope(await orgsUnder(request, f.rostering, `/${f.dataTenant}`, await tokenOn(request, 'tenant', district('tenant'), [{ id: f.instance }], null)), 401);
  });

  test('answers 401 for another tenant\'s tenantId claim, and serves the route tenant\'s', rule('roster.roster-routing.tenant-mismatch-401', STATUS_ENVELOPE), async ({ request }) => {
    const f = flow('tenant');
    const d = district('tenant');
    await expectStatusAndEnvelope(await orgsUnder(request, f.rostering, `/${f.dataTenant}`, await tokenOn(request, 'tenant', d, [{ id: f.instance }], f.otherTenant)), 401);
    // The control: the data tenant's token passes.
    expect(await sees(request, f.rostering, `/${f.dataTenant}`, await tokenOn(request, 'tenant', d, [{ id: f.instance }], f.dataTenant), d)).toBe(true);
  });

  test('answers 401 for a tenantId that only begins like the route\'s', rule('roster.roster-routing.tenant-mismatch-401', STATUS_ENVELOPE), async ({ request }) => {
    const f = flow('tenant');
    const token = await craftedOn(request, 'tenant', { instances: [{ id: f.instance }], tenantId: `${f.dataTenant}x` });
    await expectStatusAndEnvelope(await orgsUnder(request, f.rostering, `/${f.dataTenant}`, token), 401);
  });

  test('answers 404 for an unknown tenant', rule('roster.roster-errors.unknown-tenant-404', STATUS_ENVELOPE), async ({ request }) => {
    const f = flow('tenant');
    // A declared client of a tenant the deployment does not have, else a crafted token naming one.
    const known = [f.dataTenant, f.otherTenant].map((t) => t.toLowerCase());
    const unknown = Object.values(target.rostering?.clients ?? {}).find((c) => c.flow === 'tenant' && c.tenant && !known.includes(c.tenant.toLowerCase()))?.tenant ?? 'No-Such-Tenant';
    const token = await tokenOn(request, 'tenant', district('tenant'), [{ id: f.instance }], unknown);
    await expectStatusAndEnvelope(await orgsUnder(request, f.rostering, `/${unknown}`, token), 404);
  });

  test('answers 404 for a path without the tenant segment', rule('roster.roster-routing.missing-tenant-segment-404', STATUS_ENVELOPE), async ({ request }) => {
    const f = flow('tenant');
    const token = await tokenOn(request, 'tenant', district('tenant'), [{ id: f.instance }], f.dataTenant);
    await expectStatus(await orgsUnder(request, f.rostering, '', token), 404);
    // An empty segment where the tenant goes (//std/roster/...) names no tenant either.
    await expectStatus(await orgsUnder(request, f.rostering, '/', token), 404);
  });
});

test.describe('multi-tenant routing with context', () => {
  test('serves {base_url}/<tenantId>/<contextValue>/std/roster/rostering/v1p2 from the matching instance of the tenant\'s admin database', rule('roster.roster-routing.flow-multi-tenant-context', 'roster.roster-routing.context-missing-400', 'roster.roster-routing.tenant-mismatch-401'), async ({ request }) => {
    const f = flow('tenantContext');
    const d = district('tenantContext');
    const { data, other } = f.instances;
    const instances = [{ id: data.id, context: { key: f.contextKey, value: data.context } }, { id: other.id, context: { key: f.contextKey, value: other.context } }];
    const a = await tokenOn(request, 'tenantContext', d, instances, f.dataTenant);
    expect(await sees(request, f.rostering, `/${f.dataTenant}/${data.context}`, a, d)).toBe(true);
    expect(await sees(request, f.rostering, `/${f.dataTenant}/${other.context}`, a, d)).toBe(false);
    const b = await tokenOn(request, 'tenantContext', d, instances, f.otherTenant);
    expect(await sees(request, f.rostering, `/${f.otherTenant}/${data.context}`, b, d), 'the same instance and context in the other tenant').toBe(false);
    const noContext = await orgsUnder(request, f.rostering, `/${f.dataTenant}`, a);
    expect(await serves(noContext, d), 'the route without its context value').toBe(false);
    await check('roster.roster-routing.context-missing-400', 'the route without its context value is 400', () => expectStatus(noContext, 400));
    await check('roster.roster-routing.tenant-mismatch-401', 'another tenant\'s route is 401', async () => { expect((await orgsUnder(request, f.rostering, `/${f.otherTenant}/${data.context}`, a)).status()).toBe(401); });
  });
});
