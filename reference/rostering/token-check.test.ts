import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { test } from 'node:test';
import { SignJWT, importPKCS8, type JWTPayload } from 'jose';
import type { RosteringConfig } from './config.js';
import { RosterError } from './status.js';
import { TokenCheck } from './token-check.js';

/**
 * The rostering service's checks on every request (seed: Checks on every request; decisions #30)
 * and the claims it reads, on TokenCheck directly. The Playwright rostering family tests the same
 * over HTTP against any target; this file is the fast test command of `npm run mutation`.
 */
const pair = () => generateKeyPairSync('rsa', { modulusLength: 2048 });
const { privateKey, publicKey } = pair();
const other = pair().privateKey;
const pem = (k: typeof privateKey) => k.export({ type: 'pkcs8', format: 'pem' }).toString();
const ISS = 'http://issuer.test/api';
const AUD = 'http://roster.test';
const config = (over: Partial<RosteringConfig> = {}): RosteringConfig => ({
  issuer: ISS, audience: AUD, algorithm: 'RS256', publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  additionalPublicKeysPem: [], multiTenancy: false, scopeBase: '', tenants: new Map(), ...over,
});

type Registered = { iss?: string; aud?: string | string[]; exp?: number; iat?: number; nbf?: number; alg?: string; key?: typeof privateKey };
async function craft(claims: JWTPayload, over: Registered = {}): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const c = { iss: ISS, aud: AUD, exp: now + 600, iat: now, alg: 'RS256', key: privateKey, ...over };
  const jwt = new SignJWT({ scope: 'roster-core.readonly', ...claims }).setProtectedHeader({ alg: c.alg });
  if (c.iss !== undefined) jwt.setIssuer(c.iss);
  if (c.aud !== undefined) jwt.setAudience(c.aud);
  if (c.exp !== undefined) jwt.setExpirationTime(c.exp);
  if (c.iat !== undefined) jwt.setIssuedAt(c.iat);
  if (c.nbf !== undefined) jwt.setNotBefore(c.nbf);
  return jwt.sign(await importPKCS8(pem(c.key), c.alg));
}
const refused = async (check: TokenCheck, authorization: string, why: string) =>
  assert.rejects(check.verify(authorization), (e: RosterError) => e instanceof RosterError && e.status === 401, why);

test('the Authorization header: Bearer (any case), one token, blanks around it', async () => {
  const check = await TokenCheck.create(config());
  const t = await craft({});
  for (const header of [`Bearer ${t}`, `bearer ${t}`, `BEARER   ${t}`, `Bearer ${t}  `]) assert.equal((await check.verify(header)).scopes.size, 1, header);
  for (const header of ['', 'Bearer', 'Bearer ', `Bearer ${t} x`, `Basic ${t}`, `xBearer ${t}`, `Bearerx ${t}`, ` Bearer ${t}`, t, `Bearer\t${t}`]) await refused(check, header, header);
});

test('signature, algorithm, issuer (exactly), audience (string or array), exp, nbf, iat, scope', async (t) => {
  // Time stands still here: the skew's edges (iat 55 s ahead passes, 65 s fails) hold however long signing takes.
  t.mock.timers.enable({ apis: ['Date'], now: Date.now() });
  const check = await TokenCheck.create(config());
  const now = Math.floor(Date.now() / 1000);
  const ok = async (claims: JWTPayload, over: Registered = {}) => check.verify(`Bearer ${await craft(claims, over)}`);
  await ok({}, { aud: ['http://else.test', AUD] });
  await ok({}, { iat: undefined });
  await ok({}, { iat: now + 55 });
  await ok({}, { nbf: now - 5 });
  const cases: [string, JWTPayload, Registered][] = [
    ['another key', {}, { key: other }],
    ['another algorithm, same key', {}, { alg: 'RS384' }],
    ['PS256 with the same key', {}, { alg: 'PS256' }],
    ['no iss', {}, { iss: undefined }],
    ['iss with a trailing slash', {}, { iss: `${ISS}/` }],
    ['iss without its path', {}, { iss: 'http://issuer.test' }],
    ['iss in another case', {}, { iss: ISS.toUpperCase() }],
    ['no aud', {}, { aud: undefined }],
    ['another aud', {}, { aud: 'http://roster.test/' }],
    ['an aud array without ours', {}, { aud: ['http://else.test'] }],
    ['no exp', {}, { exp: undefined }],
    ['expired', {}, { exp: now - 5 }],
    ['not yet valid', {}, { nbf: now + 120 }],
    ['iat beyond the skew', {}, { iat: now + 65 }],
    ['no scope', { scope: undefined }, {}],
    ['no rostering scope', { scope: 'other.readonly' }, {}],
  ];
  for (const [why, claims, over] of cases) await refused(check, `Bearer ${await craft(claims, over)}`, why);
  // The clock skew is the one given.
  const strict = await TokenCheck.create(config(), 0);
  await refused(strict, `Bearer ${await craft({}, { iat: now + 5 })}`, 'iat 5 s ahead, no skew allowed');
  const lenient = await TokenCheck.create(config(), 300);
  await lenient.verify(`Bearer ${await craft({}, { iat: now + 200 })}`);
  // The configured algorithm is the one accepted.
  const rs384 = await TokenCheck.create(config({ algorithm: 'RS384' }));
  await rs384.verify(`Bearer ${await craft({}, { alg: 'RS384' })}`);
  await refused(rs384, `Bearer ${await craft({})}`, 'RS256 where RS384 is configured');
  // Scopes under the configured base only.
  const based = await TokenCheck.create(config({ scopeBase: 'https://purl.example/scope' }));
  await based.verify(`Bearer ${await craft({ scope: 'https://purl.example/scope/roster.readonly' })}`);
  await refused(based, `Bearer ${await craft({})}`, 'a bare name under a base');
});

test('a key that is not one of the algorithm names the variable', async () => {
  await assert.rejects(TokenCheck.create(config({ publicKeyPem: 'not a key' })), /^Error: OAUTH2_PUBLIC_KEY_PEM: cannot be read as a RS256 public key \(/);
  await assert.rejects(TokenCheck.create(config({ additionalPublicKeysPem: ['not a key'] })), /^Error: ROSTER_ADDITIONAL_PUBLIC_KEYS_PEM: cannot be read as a RS256 public key \(/);
});

test('a verified token is cached until the second it expires, not in it', async (t) => {
  const check = await TokenCheck.create(config());
  const now = Math.floor(Date.now() / 1000);
  const token = await craft({}, { exp: now + 100 });
  t.mock.timers.enable({ apis: ['Date'], now: (now + 50) * 1000 });
  const first = await check.verify(`Bearer ${token}`);
  t.mock.timers.setTime((now + 99) * 1000);
  assert.equal(await check.verify(`Bearer ${token}`), first, 'the cached caller, a second before exp');
  t.mock.timers.setTime((now + 100) * 1000);
  await refused(check, `Bearer ${token}`, 'at exp, though cached');
  t.mock.timers.setTime((now + 50) * 1000);
  assert.notEqual(await check.verify(`Bearer ${token}`), first, 'verified afresh: the expired entry was dropped');
});

test('claims read: client id, organizations, instance id, instances, tenant, exp', async () => {
  const check = await TokenCheck.create(config());
  const exp = Math.floor(Date.now() / 1000) + 600;
  const read = async (claims: JWTPayload) => check.verify(`Bearer ${await craft(claims, { exp })}`);
  const full = await read({
    client_id: 'c1', sub: 's1', educationOrganizationId: '255901, 7,x,,8a', odsInstanceId: 3, tenantId: 'T',
    odsInstances: JSON.stringify({ OdsInstances: [
      { OdsInstanceId: 1, OdsInstanceContext: null },
      { OdsInstanceId: 2, OdsInstanceContext: { ContextKey: 'schoolYear', ContextValue: '2026' } },
      { OdsInstanceId: 4, OdsInstanceContext: { ContextKey: 'schoolYear', ContextValue: 2026 } },
      { OdsInstanceId: 5, OdsInstanceContext: { ContextKey: 7, ContextValue: '2026' } },
      { OdsInstanceId: '6' }, { OdsInstanceId: 6.5 }, null, { OdsInstanceId: 9, OdsInstanceContext: {} },
    ] }),
  });
  assert.deepEqual({ ...full, scopes: [...full.scopes] }, {
    clientId: 'c1', scopes: ['roster-core.readonly'], educationOrganizationIds: ['255901', '7'], odsInstanceId: 3, tenantId: 'T', exp,
    odsInstances: [{ id: 1, context: null }, { id: 2, context: { key: 'schoolYear', value: '2026' } }, { id: 4, context: null }, { id: 5, context: null }, { id: 9, context: null }],
  });
  const bare = await read({});
  assert.deepEqual({ ...bare, scopes: [...bare.scopes] }, { clientId: '', scopes: ['roster-core.readonly'], educationOrganizationIds: [], odsInstances: [], exp });
  assert.equal((await read({ sub: 's1' })).clientId, 's1');
  assert.equal((await read({ client_id: 5, sub: 's1' })).clientId, 's1');
  assert.equal((await read({ sub: 5 as unknown as string })).clientId, '');
  assert.deepEqual((await read({ educationOrganizationId: [255901, '7', ' 9 ', true, null] })).educationOrganizationIds, ['255901', '7', '9']);
  assert.deepEqual((await read({ educationOrganizationId: 42 })).educationOrganizationIds, ['42']);
  assert.deepEqual((await read({ educationOrganizationId: null })).educationOrganizationIds, []);
  assert.deepEqual((await read({ educationOrganizationId: '1 2' })).educationOrganizationIds, [], 'a space is no separator of organizations');
  assert.deepEqual((await read({ educationOrganizationId: [[7, 8]] })).educationOrganizationIds, [], 'a nested array is no entry');
  await refused(check, `Bearer ${await craft({ scope: [['roster-core.readonly']] })}`, 'a scope in a nested array grants nothing');
  assert.deepEqual([...(await read({ scope: ['roster.readonly', 'roster-core.readonly'] })).scopes], ['roster.readonly', 'roster-core.readonly'], 'an array of scopes, in its order');
  for (const [claims, id] of [
    [{ odsInstanceId: '12' }, 12], [{ ods_instance_id: 13 }, 13], [{ OdsInstanceId: '14' }, 14],
    [{ odsInstanceId: 'x', ods_instance_id: 15 }, 15], [{ odsInstanceId: 16, OdsInstanceId: 17 }, 16], [{ odsInstanceId: '1a' }, undefined],
    [{ odsInstanceId: '-1' }, undefined], [{ odsInstanceId: true }, undefined], [{ odsInstanceId: 'a1' }, undefined], [{ odsInstanceId: [5] }, undefined],
  ] as [JWTPayload, number | undefined][]) {
    const caller = await read(claims);
    assert.equal(caller.odsInstanceId, id, JSON.stringify(claims));
    assert.equal('odsInstanceId' in caller, id !== undefined, JSON.stringify(claims));
  }
  assert.deepEqual((await read({ odsInstances: { OdsInstances: [{ OdsInstanceId: 3 }] } })).odsInstances, [{ id: 3, context: null }], 'the object form');
  for (const bad of ['{', '"x"', JSON.stringify({ OdsInstances: 'x' }), JSON.stringify({}), JSON.stringify(null), 7]) {
    assert.deepEqual((await read({ odsInstances: bad })).odsInstances, [], String(bad));
  }
  assert.equal('tenantId' in (await read({ tenantId: '' })), false);
  assert.equal('tenantId' in (await read({ tenantId: 5 })), false);
});
