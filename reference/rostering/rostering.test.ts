import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { test } from 'node:test';
import { readRosteringConfig, type RosteringEnv } from './config.js';
import { parseFilter, matches } from './query/filter.js';
import { parseRoute } from './route.js';
import { RosterError } from './status.js';
import { SignJWT, importPKCS8 } from 'jose';
import { TokenCheck, readScopes } from './token-check.js';

const pem = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ type: 'spki', format: 'pem' }).toString();
const env = (over: RosteringEnv = {}): RosteringEnv => ({
  OAUTH2_ISSUERBASEURL: 'http://issuer.test/api', OAUTH2_AUDIENCE: 'http://roster.test', OAUTH2_TOKENSIGNINGALG: 'RS256',
  OAUTH2_PUBLIC_KEY_PEM: pem.trim().replace(/\n/g, '\\n'), MULTITENANCY_ENABLED: 'false', ODS_CONTEXT_ROUTE_TEMPLATE: '',
  ODS_CONNECTION_STRING_ENCRYPTION_KEY: Buffer.alloc(32, 3).toString('base64'), CONNECTION_CONFIG: '{"adminConnection":"memory:default"}', ...over,
});

test('configuration: the one-line PEM is read; every bad value names its variable', () => {
  assert.match(readRosteringConfig(env()).publicKeyPem, /^-----BEGIN PUBLIC KEY-----\n/);
  const bad: [RosteringEnv, string][] = [
    [{ OAUTH2_ISSUERBASEURL: '' }, 'OAUTH2_ISSUERBASEURL'],
    [{ OAUTH2_AUDIENCE: undefined }, 'OAUTH2_AUDIENCE'],
    [{ OAUTH2_TOKENSIGNINGALG: 'HS256' }, 'OAUTH2_TOKENSIGNINGALG'],
    [{ OAUTH2_TOKENSIGNINGALG: 'none' }, 'OAUTH2_TOKENSIGNINGALG'],
    [{ OAUTH2_PUBLIC_KEY_PEM: 'abc' }, 'OAUTH2_PUBLIC_KEY_PEM'],
    [{ MULTITENANCY_ENABLED: 'yes' }, 'MULTITENANCY_ENABLED'],
    [{ ODS_CONTEXT_ROUTE_TEMPLATE: 'schoolYear' }, 'ODS_CONTEXT_ROUTE_TEMPLATE'],
    [{ ODS_CONTEXT_ROUTE_TEMPLATE: '{y:between(1,2)}' }, 'ODS_CONTEXT_ROUTE_TEMPLATE'],
    [{ ODS_CONNECTION_STRING_ENCRYPTION_KEY: 'c2hvcnQ=' }, 'ODS_CONNECTION_STRING_ENCRYPTION_KEY'],
    [{ CONNECTION_CONFIG: '{' }, 'CONNECTION_CONFIG'],
    [{ CONNECTION_CONFIG: '{"adminConnection":3}' }, 'CONNECTION_CONFIG'],
    [{ MULTITENANCY_ENABLED: 'true', TENANTS_CONNECTION_CONFIG: '{}' }, 'TENANTS_CONNECTION_CONFIG'],
    [{ MULTITENANCY_ENABLED: 'true', TENANTS_CONNECTION_CONFIG: '{"A":{"adminConnection":"memory:a"},"a":{"adminConnection":"memory:b"}}' }, 'TENANTS_CONNECTION_CONFIG'],
  ];
  for (const [over, variable] of bad) assert.throws(() => readRosteringConfig(env(over)), (err: Error) => err.message.startsWith(`${variable}:`), variable);
});

test('an additional public key passes with the same claim checks; other keys and wrong claims do not', async () => {
  const pair = () => generateKeyPairSync('rsa', { modulusLength: 2048 });
  const extra = pair();
  const extraPem = extra.publicKey.export({ type: 'spki', format: 'pem' }).toString().trim();
  assert.throws(() => readRosteringConfig(env({ ROSTER_ADDITIONAL_PUBLIC_KEYS_PEM: 'abc' })), (err: Error) => err.message.startsWith('ROSTER_ADDITIONAL_PUBLIC_KEYS_PEM:'));
  const check = await TokenCheck.create(readRosteringConfig(env({ ROSTER_ADDITIONAL_PUBLIC_KEYS_PEM: extraPem.replace(/\n/g, '\\n') })));
  const now = Math.floor(Date.now() / 1000);
  const sign = async (key: typeof extra, claims: Record<string, unknown> = {}) => new SignJWT({ iss: 'http://issuer.test/api', aud: 'http://roster.test', exp: now + 60, scope: 'roster-core.readonly', ...claims })
    .setProtectedHeader({ alg: 'RS256' }).sign(await importPKCS8(key.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), 'RS256'));
  const status = (token: string) => check.verify(`Bearer ${token}`).then(() => 200, (e: RosterError) => e.status);
  assert.equal(await status(await sign(extra)), 200);
  assert.equal(await status(await sign(pair())), 401);
  assert.equal(await status(await sign(extra, { iss: 'http://other.test/api' })), 401);
  assert.equal(await status(await sign(extra, { aud: 'http://other.test' })), 401);
  assert.equal(await status(await sign(extra, { exp: now - 120 })), 401);
});

test('routes: the four path shapes, 404 for a path off the prefix, and unknown (404 after the token check) under it', () => {
  const single = readRosteringConfig(env());
  const ctx = readRosteringConfig(env({ ODS_CONTEXT_ROUTE_TEMPLATE: '{schoolYearFromRoute:range(2020,2030)}' }));
  const mt = readRosteringConfig(env({ MULTITENANCY_ENABLED: 'true', TENANTS_CONNECTION_CONFIG: '{"T":{"adminConnection":"memory:t"}}' }));
  const both = readRosteringConfig(env({ MULTITENANCY_ENABLED: 'true', TENANTS_CONNECTION_CONFIG: '{"T":{"adminConnection":"memory:t"}}', ODS_CONTEXT_ROUTE_TEMPLATE: '{y}' }));
  assert.deepEqual(parseRoute('/std/roster/rostering/v1p2/orgs/abc', single), { contextMissing: false, base: '/std/roster/rostering/v1p2', endpoint: 'orgs', sourcedId: 'abc' });
  assert.equal(parseRoute('/2026/std/roster/rostering/v1p2/orgs', ctx).context, '2026');
  assert.equal(parseRoute('/std/roster/rostering/v1p2/orgs', ctx).contextMissing, true);
  assert.equal(parseRoute('/T/std/roster/rostering/v1p2/orgs', mt).tenant, 'T');
  assert.deepEqual([parseRoute('/T/9/std/roster/rostering/v1p2/orgs', both).tenant, parseRoute('/T/9/std/roster/rostering/v1p2/orgs', both).context], ['T', '9']);
  const notFound = (path: string, config: typeof single) => assert.throws(() => parseRoute(path, config), (e: RosterError) => e.status === 404, path);
  notFound('/x/std/roster/rostering/v1p2/orgs', single);
  notFound('/std/roster/rostering/v1p2/orgs', mt);
  notFound('/%E0%A4%A/std/roster/rostering/v1p2/orgs', mt);
  // Under the prefix, naming no resource: every request there needs a valid token first (seed 001).
  for (const [path, config] of [['/1999/std/roster/rostering/v1p2/orgs', ctx], ['/std/roster/rostering/v1p2/classes/1/students', single], ['/std/roster/rostering/v1p2', single]] as const) {
    assert.equal(parseRoute(path, config).unknown, true, path);
  }
});

test('scopes: exactly {scope_base}/<name>, bare names only without a base, in any claim form', () => {
  assert.deepEqual([...readScopes('roster-core.readonly')], ['roster-core.readonly']);
  assert.deepEqual([...readScopes('a,roster-demographics.readonly b')], ['roster-demographics.readonly']);
  for (const lookAlike of ['roster-core.readonly.x', 'xroster-core.readonly', 'roster-core', 'ROSTER-CORE.READONLY', 'https://purl.example/scope/roster.readonly', '/roster.readonly']) {
    assert.equal(readScopes(lookAlike).size, 0, lookAlike);
  }
  const base = 'https://purl.imsglobal.org/spec/or/v1p2/scope';
  assert.deepEqual([...readScopes([`${base}/roster.readonly`, 'x'], base)], ['roster.readonly']);
  assert.deepEqual([...readScopes(`${base}/roster-core.readonly,${base}/roster-demographics.readonly`, base)].sort(), ['roster-core.readonly', 'roster-demographics.readonly']);
  for (const lookAlike of [
    'roster-core.readonly', // bare under a base
    'https://anything.example/other/roster-core.readonly', // another base, same suffix
    `${base}x/roster-core.readonly`, `${base}//roster-core.readonly`, `${base}/roster-core.readonly/`, // neighbours of the base
    `${base.toUpperCase()}/roster-core.readonly`, `${base}/ROSTER-CORE.READONLY`, // case
    `${base.replace('https://', 'http://')}/roster-core.readonly`, `${base}/roster-core.readonly.x`,
  ]) assert.equal(readScopes(lookAlike, base).size, 0, lookAlike);
});

test('filters: grammar, precedence, operators and errors', () => {
  const fields = new Set(['name', 'type', 'identifier', 'roles', 'startDate']);
  const rec = { name: 'Grand Bend High School', type: 'school', identifier: '7', roles: [{ role: 'student' }], startDate: '2025-08-20' };
  const yes = (f: string) => matches(parseFilter(f, fields), rec);
  assert.equal(yes("name='Grand Bend High School' AND type='school'"), true);
  assert.equal(yes("type='district' AND name='x' OR identifier='7'"), true);
  assert.equal(yes("type='district' AND identifier='7'"), false);
  assert.equal(yes("name~'bend high'"), true);
  assert.equal(yes("roles='student'"), true);
  assert.equal(yes("startDate>'2025-08-19' and startDate<='2025-08-20'"), true);
  assert.equal(yes("name!='Grand Bend High School'"), false);
  assert.equal(yes("name='O''Brien'"), false);
  assert.equal(parseFilter("name='O''Brien'", fields)[0][0].value, "O'Brien");
  for (const bad of ["nosuch='x'", "name=='x'", "name<>'x'", "name='x", "name='x' AND", "name='x' NOT type='y'", Array.from({ length: 21 }, () => "type='a'").join(' OR '), "name='\u0000'", `name='${'x'.repeat(251)}'`]) {
    assert.throws(() => parseFilter(bad, fields), (e: RosterError) => e.status === 400 && e.codeMinor === 'invalid_data', bad);
  }
});
