import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseContextTemplate, type RosteringConfig } from './config.js';
import { parseRoute } from './route.js';
import { RosterError } from './status.js';

/**
 * The seed's four rostering path shapes (seed: Routing flows) and their neighbours, on parseRoute
 * directly: the fast test command of `npm run mutation` for route.ts.
 */
const P = '/std/roster/rostering/v1p2';
const config = (over: Partial<RosteringConfig> = {}): RosteringConfig => ({ issuer: 'http://i', audience: 'http://a', algorithm: 'RS256', publicKeyPem: '', additionalPublicKeysPem: [], multiTenancy: false, scopeBase: '', tenants: new Map(), ...over });
const single = config();
const ctx = config({ context: parseContextTemplate('{schoolYear:range(2020,2030)}') });
const mt = config({ multiTenancy: true });
const both = config({ multiTenancy: true, context: parseContextTemplate('{y}') });
const notFound = (path: string, c: RosteringConfig) => assert.throws(() => parseRoute(path, c), (e: RosterError) => e instanceof RosterError && e.status === 404 && e.description === 'The specified resource was not found.', path);
const unknown = (path: string, c: RosteringConfig) => assert.equal(parseRoute(path, c).unknown, true, path);

test('single tenant: endpoint, sourcedId (decoded), the prefix in any case, one trailing slash', () => {
  assert.deepEqual(parseRoute(`${P}/orgs`, single), { contextMissing: false, base: P, endpoint: 'orgs' });
  assert.deepEqual(parseRoute(`${P}/orgs/`, single), { contextMissing: false, base: P, endpoint: 'orgs' });
  assert.deepEqual(parseRoute(`${P}/orgs/a%20b`, single), { contextMissing: false, base: P, endpoint: 'orgs', sourcedId: 'a b' });
  assert.deepEqual(parseRoute(`${P}/orgs/a/`, single), { contextMissing: false, base: P, endpoint: 'orgs', sourcedId: 'a' });
  assert.deepEqual(parseRoute('/STD/Roster/ROSTERING/V1P2/orgs', single), { contextMissing: false, base: '/STD/Roster/ROSTERING/V1P2', endpoint: 'orgs' }, 'base keeps the raw spelling');
  for (const path of [`/std/roster/rostering/v1p1/orgs`, `/std/roster/rostering/orgs`, `/x${P}/orgs`, `/x/y/z${P}/orgs`, '/', '']) notFound(path, single);
  // Under the prefix but naming no resource: unknown, answered 404 only after the token check.
  for (const path of [P, `${P}/`, `${P}/orgs//`, `${P}/orgs/a/b`, `${P}/orgs/a/b/c`, `${P}/orgs/%E0%A4%A`]) unknown(path, single);
});

test('context routing: the context segment before the prefix, checked by its constraint; missing is not 404', () => {
  assert.deepEqual(parseRoute(`/2026${P}/orgs/7`, ctx), { context: '2026', contextMissing: false, base: `/2026${P}`, endpoint: 'orgs', sourcedId: '7' });
  assert.deepEqual(parseRoute(`/2020${P}/orgs`, ctx).context, '2020');
  assert.deepEqual(parseRoute(`/2030${P}/orgs`, ctx).context, '2030');
  assert.deepEqual(parseRoute(`${P}/orgs`, ctx), { contextMissing: true, base: P, endpoint: 'orgs' });
  for (const path of [`/2026/2026${P}/orgs`, `//${P}/orgs`]) notFound(path, ctx);
  // A context value its constraint refuses is still a path under the prefix: unknown (404 after the token check).
  for (const path of [`/2019${P}/orgs`, `/2031${P}/orgs`, `/x${P}/orgs`, `/2026${P}/orgs/a/b`]) unknown(path, ctx);
});

test('multi-tenant: the tenant segment is required and decoded; with context, tenant then context', () => {
  assert.deepEqual(parseRoute(`/Tenant%201${P}/orgs`, mt), { tenant: 'Tenant 1', contextMissing: false, base: `/Tenant%201${P}`, endpoint: 'orgs' });
  // No prefix at all (however many segments), an empty tenant segment.
  for (const path of [`${P}/orgs`, `/a/b${P}/orgs`, `/%E0%A4%A${P}/orgs`, '/T/a/b/c/d/orgs', `/${P}/orgs`]) notFound(path, mt);
  assert.deepEqual(parseRoute(`/T/9${P}/classes/c1`, both), { tenant: 'T', context: '9', contextMissing: false, base: `/T/9${P}`, endpoint: 'classes', sourcedId: 'c1' });
  assert.deepEqual(parseRoute(`/T${P}/classes`, both), { tenant: 'T', contextMissing: true, base: `/T${P}`, endpoint: 'classes' });
  for (const path of [`${P}/orgs`, `/T/9/x${P}/orgs`]) notFound(path, both);
});
