import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { model } from '../../spec/model/index.js';
import { AdminDatabases, encryptConnectionString, parseEncryptionKey } from '../admin-db/index.js';
import { StoreRegistry } from '../store/registry.js';
import { parseContextTemplate, type RosteringConfig } from './config.js';
import type { RosterRoute } from './route.js';
import { StoreResolver } from './routing.js';
import { RosterError } from './status.js';
import type { Caller } from './token-check.js';

/**
 * Data-store resolution by the seed's four routing flows (seed: Routing flows; research §8), on
 * StoreResolver directly with admin databases written here. The Playwright rostering family
 * tests the same over HTTP; this file is the fast test command of `npm run mutation`.
 */
const KEY = parseEncryptionKey(Buffer.alloc(32, 5).toString('base64'));
const dir = mkdtempSync(join(tmpdir(), 'routing-test-'));
const adminFile = (name: string, instances: [number, string][], contexts: [number, string, string][] = []) => {
  const file = join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify({
    OdsInstances: instances.map(([id, cs]) => ({ OdsInstanceId: id, Name: `i${id}`, ConnectionString: cs })),
    OdsInstanceContexts: contexts.map(([id, k, v], i) => ({ OdsInstanceContextId: i + 1, OdsInstance_OdsInstanceId: id, ContextKey: k, ContextValue: v })),
  }));
  return `file:${file}`;
};
const base = (over: Partial<RosteringConfig>): RosteringConfig => ({ issuer: 'http://i', audience: 'http://a', algorithm: 'RS256', publicKeyPem: '', additionalPublicKeysPem: [], multiTenancy: false, scopeBase: '', tenants: new Map(), ...over });
const caller = (over: Partial<Caller> = {}): Caller => ({ clientId: 'c', scopes: new Set(['roster-core.readonly']), educationOrganizationIds: [], odsInstances: [], exp: 0, ...over });
const route = (over: Partial<RosterRoute> = {}): RosterRoute => ({ contextMissing: false, base: '/std', endpoint: 'orgs', ...over });
const fails = (f: () => unknown, status: number, description: string, codeMinor?: string) =>
  assert.throws(f, (e: RosterError) => e instanceof RosterError && e.status === status && e.description === description && e.codeMinor === codeMinor, `${status} ${description}`);

test('single tenant, no context: the odsInstanceId claim, else the first odsInstances entry; 404 without either or without a row', async () => {
  const stores = new StoreRegistry(model);
  const admin = adminFile('single', [[1, 'memory:one'], [2, encryptConnectionString('memory:two', KEY)], [3, '']]);
  const r = await StoreResolver.create(base({ adminConnection: admin, encryptionKey: KEY }), stores, new AdminDatabases());
  assert.equal(r.resolve(route(), caller({ odsInstanceId: 1 })), stores.open('memory:one'));
  assert.equal(r.resolve(route(), caller({ odsInstanceId: 2, odsInstances: [{ id: 1, context: null }] })), stores.open('memory:two'), 'the claim first, decrypted');
  assert.equal(r.resolve(route(), caller({ odsInstanceId: 2 })), stores.open('memory:two'), 'again, from the decrypted cache');
  assert.equal(r.resolve(route(), caller({ odsInstances: [{ id: 2, context: null }, { id: 1, context: null }] })), stores.open('memory:two'), 'the first entry');
  fails(() => r.resolve(route(), caller()), 404, 'The specified data could not be found.');
  fails(() => r.resolve(route(), caller({ odsInstanceId: 9 })), 404, 'The specified data could not be found.');
  fails(() => r.resolve(route(), caller({ odsInstanceId: 3 })), 404, 'The specified data could not be found.');
  // The route's tenant is ignored without multi-tenancy.
  assert.equal(r.resolve(route({ tenant: 'X' }), caller({ odsInstanceId: 1, tenantId: 'Y' })), stores.open('memory:one'));
});

test('multi-tenant: the tenantId claim must equal the route tenant (any case); an unconfigured tenant is 404', async () => {
  const stores = new StoreRegistry(model);
  const tenants = new Map([['alpha', { tenantId: 'Alpha', adminConnection: adminFile('alpha', [[1, 'memory:alpha']]) }], ['beta', { tenantId: 'beta', adminConnection: adminFile('beta', [[1, 'memory:beta']]) }]]);
  const r = await StoreResolver.create(base({ multiTenancy: true, tenants }), stores, new AdminDatabases());
  assert.equal(r.resolve(route({ tenant: 'Alpha' }), caller({ tenantId: 'alpha', odsInstanceId: 1 })), stores.open('memory:alpha'));
  assert.equal(r.resolve(route({ tenant: 'BETA' }), caller({ tenantId: 'Beta', odsInstanceId: 1 })), stores.open('memory:beta'));
  fails(() => r.resolve(route({ tenant: 'alpha' }), caller({ tenantId: 'beta', odsInstanceId: 1 })), 401, 'Authentication failed: the token is invalid or missing.');
  fails(() => r.resolve(route({ tenant: 'alpha' }), caller({ odsInstanceId: 1 })), 401, 'Authentication failed: the token is invalid or missing.');
  fails(() => r.resolve(route({ tenant: 'alph' }), caller({ tenantId: 'alpha', odsInstanceId: 1 })), 401, 'Authentication failed: the token is invalid or missing.');
  fails(() => r.resolve(route({ tenant: 'gamma' }), caller({ tenantId: 'gamma', odsInstanceId: 1 })), 404, 'The requested resource was not found.');
});

test('context routing: the odsInstances entry whose context matches, else an odsInstanceId whose admin context matches', async () => {
  const stores = new StoreRegistry(model);
  const admin = adminFile('context', [[1, 'memory:y2025'], [2, 'memory:y2026'], [3, 'memory:other']], [[1, 'schoolYear', '2025'], [2, 'district', '9'], [2, 'schoolYear', '2026'], [3, 'district', '2026']]);
  const r = await StoreResolver.create(base({ adminConnection: admin, context: parseContextTemplate('{schoolYear}') }), stores, new AdminDatabases());
  const claims = [{ id: 3, context: { key: 'district', value: '2026' } }, { id: 1, context: { key: 'schoolYear', value: '2025' } }, { id: 2, context: { key: 'schoolYear', value: '2026' } }];
  assert.equal(r.resolve(route({ context: '2026' }), caller({ odsInstances: claims, odsInstanceId: 1 })), stores.open('memory:y2026'), 'the matching entry, not the id claim');
  assert.equal(r.resolve(route({ context: '2025' }), caller({ odsInstances: claims })), stores.open('memory:y2025'));
  fails(() => r.resolve(route({ context: '2027' }), caller({ odsInstances: claims })), 401, 'Not authorized to access the requested resource', 'unauthorized');
  fails(() => r.resolve(route({ context: '2026' }), caller({ odsInstances: [{ id: 2, context: null }] })), 401, 'Not authorized to access the requested resource', 'unauthorized');
  fails(() => r.resolve(route({ context: '2026' }), caller({ odsInstances: [{ id: 3, context: { key: 'district', value: '2026' } }] })), 401, 'Not authorized to access the requested resource', 'unauthorized');
  fails(() => r.resolve(route({ contextMissing: true }), caller({ odsInstances: claims })), 400, 'Required context parameter is missing from the request');
  // No odsInstances claim: the id claim, only when the admin table gives it the route's context.
  assert.equal(r.resolve(route({ context: '2026' }), caller({ odsInstanceId: 2 })), stores.open('memory:y2026'), 'one of its two contexts matches');
  fails(() => r.resolve(route({ context: '2025' }), caller({ odsInstanceId: 2 })), 401, 'Not authorized to access the requested resource', 'unauthorized');
  fails(() => r.resolve(route({ context: '2026' }), caller({ odsInstanceId: 3 })), 401, 'Not authorized to access the requested resource', 'unauthorized');
  fails(() => r.resolve(route({ context: '2026' }), caller()), 404, 'The specified data could not be found.');
});

test('an admin database that cannot be opened names its variable at start', async () => {
  const stores = new StoreRegistry(model);
  await assert.rejects(StoreResolver.create(base({ adminConnection: 'file:/nonexistent/admin.json' }), stores, new AdminDatabases()), /^Error: CONNECTION_CONFIG: admin database file/);
  await assert.rejects(StoreResolver.create(base({ multiTenancy: true, tenants: new Map([['t', { tenantId: 't', adminConnection: 'nosuch:x' }]]) }), stores, new AdminDatabases()), /^Error: TENANTS_CONNECTION_CONFIG: unsupported admin connection/);
  // Without an admin connection there is no single admin database to open.
  await StoreResolver.create(base({ multiTenancy: true, tenants: new Map() }), stores, new AdminDatabases());
});
