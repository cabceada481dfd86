import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import { SignJWT, importSPKI, jwtVerify, type CryptoKey } from 'jose';
import { Issuer } from './issuer.js';
import { ConfigError } from '../config/load.js';
import { model } from '../../spec/model/index.js';
import { startReference, type RunningReference } from '../server.js';
import { issuedInFuture } from './token-time.js';

/**
 * Bearer authentication of data requests (the seed's four 401 cases, research §3), the issuer's
 * checks behind it, and the token introspection endpoint, in process. The Playwright families
 * authentication and token test the same against any target; this file is the fast test
 * command of `npm run mutation` for these modules.
 */
let ref: RunningReference;
let token: string;
const SKEW = 30;

before(async () => {
  ref = await startReference({
    overrides: {
      port: 0, rosteringPort: 0, warmValidators: false, tokenClockSkewSeconds: SKEW,
      clients: [
        { key: 'c', secret: 'c-secret', educationOrganizationIds: [255901, 7], namespacePrefixes: ['uri://a.example', 'uri://b.example'], profiles: ['P1'], permissionSet: 'relationship-based' },
        { key: 'u', secret: 'u-secret' },
      ],
    },
  });
  const res = await fetch(`${ref.dataApiBaseUrl}/oauth/token`, { method: 'POST', headers: { Authorization: `Basic ${Buffer.from('c:c-secret').toString('base64')}`, 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'grant_type=client_credentials' });
  token = ((await res.json()) as { access_token: string }).access_token;
});
after(async () => { await ref.close(); });

const read = (authorization?: string) => fetch(`${ref.dataApiBaseUrl}/data/v3/core/schools`, { headers: authorization === undefined ? {} : { Authorization: authorization } });
const errorsOf = async (res: Response) => ({ status: res.status, errors: ((await res.json()) as { errors?: string[] }).errors });
/** A token signed with the issuer's key, with the given registered claims (undefined: left out). */
async function craft(over: { iat?: number; exp?: number; iss?: string; aud?: string; alg?: string }): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const c = { iat: now, exp: now + 600, iss: ref.issuer.issuer, aud: ref.issuer.audience, alg: 'RS256', ...over };
  const jwt = new SignJWT({ client_id: 'c', scope: '' }).setProtectedHeader({ alg: c.alg }).setIssuedAt(c.iat);
  if (c.exp !== undefined) jwt.setExpirationTime(c.exp);
  jwt.setIssuer(c.iss).setAudience(c.aud);
  return jwt.sign(c.alg === 'HS256' ? new TextEncoder().encode(ref.issuer.publicKeyPem) : (ref.issuer as unknown as { privateKey: CryptoKey }).privateKey);
}
const sign = (claims: Record<string, unknown>, lifetime = 600) => ref.issuer.sign({ client_id: 'c', scope: '', ...claims }, lifetime);

test('the four 401 cases of a data request, each with its errors entry', async () => {
  assert.equal((await read(`Bearer ${token}`)).status, 200);
  assert.equal((await read(`bearer ${token}`)).status, 200, 'scheme in any case');
  assert.equal((await read(`BEARER  ${token} `)).status, 200, 'blanks around the token');
  assert.deepEqual(await errorsOf(await read()), { status: 401, errors: ['Authorization header is missing.'] });
  for (const header of [`Basic ${token}`, `Bearerx ${token}`, `xBearer ${token}`, token]) {
    assert.deepEqual(await errorsOf(await read(header)), { status: 401, errors: ['Unknown Authorization header scheme.'] }, header);
  }
  for (const header of ['Bearer', 'Bearer  ']) {
    assert.deepEqual(await errorsOf(await read(header)), { status: 401, errors: ['Missing Authorization header bearer token value.'] }, header);
  }
  for (const header of [`Bearer ${token}x`, `Bearer x${token}`, 'Bearer abc']) {
    assert.deepEqual(await errorsOf(await read(header)), { status: 401, errors: ['Invalid token'] }, header);
  }
});

test('the issuer\'s checks: signature, expiry, client, issuer, audience, iat within the clock skew', async (t) => {
  // Time stands still here: the skew's edges (5 s inside, 5 s beyond) hold however long signing takes.
  t.mock.timers.enable({ apis: ['Date'], now: Date.now() });
  const expired = await sign({}, -5);
  assert.deepEqual(await errorsOf(await read(`Bearer ${expired}`)), { status: 401, errors: ['Invalid token'] });
  assert.deepEqual(await errorsOf(await read(`Bearer ${await ref.issuer.sign({ client_id: 'nobody', scope: '' }, 600)}`)), { status: 401, errors: ['Invalid token'] });
  const now = Math.floor(Date.now() / 1000);
  assert.equal((await read(`Bearer ${await craft({ iat: now + SKEW - 5 })}`)).status, 200, 'iat within the skew');
  assert.deepEqual(await errorsOf(await read(`Bearer ${await craft({ iat: now + SKEW + 5 })}`)), { status: 401, errors: ['Invalid token'] });
  await assert.rejects(ref.issuer.verify(await craft({ iat: now + 100 }), 0));
  await ref.issuer.verify(await craft({ iat: now + 100 }), 120);
  // The claims the issuer sets itself.
  const claims = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()) as Record<string, unknown>;
  assert.equal(claims.iss, ref.issuer.issuer);
  assert.equal(claims.aud, ref.issuer.audience);
  assert.match(String(claims.jti), /^[0-9a-f]{32}$/);
  assert.equal(typeof claims.iat, 'number');
  assert.deepEqual(JSON.parse(Buffer.from(token.split('.')[0], 'base64url').toString()), { alg: 'RS256', typ: 'JWT' });
  assert.match(ref.issuer.publicKeyPem, /^-----BEGIN PUBLIC KEY-----\n/);
  assert.equal((await read(`Bearer ${await craft({ exp: undefined })}`)).status, 401, 'no exp');
  assert.equal((await read(`Bearer ${await craft({ aud: 'http://elsewhere.example' })}`)).status, 401, 'another audience');
  assert.equal((await read(`Bearer ${await craft({ iss: `${ref.issuer.issuer}/` })}`)).status, 401, 'another issuer');
  assert.equal((await read(`Bearer ${await craft({ alg: 'HS256' })}`)).status, 401, 'HS256 keyed with the public key (algorithm confusion)');
  assert.equal((await read(`Bearer ${await craft({})}`)).status, 200, 'the crafted token itself is good');
});

test('an issuer with a configured key signs with it; the public key is exported', async () => {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const issuer = await Issuer.create({ issuer: 'http://issuer.test', audience: 'http://aud.test', privateKeyPem: pem });
  const publicPem = createPublicKey(privateKey).export({ type: 'spki', format: 'pem' }).toString();
  assert.equal(issuer.publicKeyPem.trim(), publicPem.trim());
  const signed = await issuer.sign({ client_id: 'c', scope: 's' }, 60);
  const { payload } = await jwtVerify(signed, await importSPKI(publicPem, 'RS256'), { issuer: 'http://issuer.test', audience: 'http://aud.test' });
  assert.equal(payload.client_id, 'c');
  assert.equal((await issuer.verify(signed, 0)).scope, 's');
  // Another issuer's key, issuer or audience is refused.
  const other = await Issuer.create({ issuer: 'http://issuer.test', audience: 'http://aud.test' });
  await assert.rejects(other.verify(signed, 0));
  await assert.rejects((await Issuer.create({ issuer: 'http://other.test', audience: 'http://aud.test', privateKeyPem: pem })).verify(signed, 0));
  await assert.rejects((await Issuer.create({ issuer: 'http://issuer.test', audience: 'http://other.test', privateKeyPem: pem })).verify(signed, 0));
  // A key that is not one is the operator's to fix: one line naming the setting.
  await assert.rejects(Issuer.keys('-----BEGIN PRIVATE KEY-----\nnot a key\n-----END PRIVATE KEY-----\n'), (err: Error) => err instanceof ConfigError && /^issuer\.privateKeyPem \(or REFERENCE_ISSUER_PRIVATE_KEY_PEM\) is not an RSA private key in PKCS#8 PEM: ./.test(err.message));
});

test('issuedInFuture: only an iat later than now plus the skew', () => {
  assert.equal(issuedInFuture({ iat: 161 }, 100, 60), true);
  assert.equal(issuedInFuture({ iat: 160 }, 100, 60), false);
  assert.equal(issuedInFuture({ iat: 159 }, 100, 60), false);
  assert.equal(issuedInFuture({}, 100, 60), false);
  assert.equal(issuedInFuture({ iat: '999' as unknown as number }, 100, 60), false);
});

test('a verified token is cached until the second it expires, not in it', async (t) => {
  const now = Math.floor(Date.now() / 1000);
  const token = await craft({ exp: now + 100 });
  t.mock.timers.enable({ apis: ['Date'], now: (now + 50) * 1000 });
  assert.equal((await read(`Bearer ${token}`)).status, 200);
  t.mock.timers.setTime((now + 100) * 1000 - 1);
  assert.equal((await read(`Bearer ${token}`)).status, 200, 'from the cache, just before exp');
  t.mock.timers.setTime((now + 100) * 1000);
  assert.deepEqual(await errorsOf(await read(`Bearer ${token}`)), { status: 401, errors: ['Invalid token'] }, 'at exp, though cached');
});

test('token_info: what the caller\'s own token grants', async () => {
  const school = model.resources.find((r) => r.name === 'school')!;
  ref.store.create(school, { schoolId: 255901, nameOfInstitution: 'Grand Bend High School' });
  // Records of other resources are no organizations, whatever their members.
  ref.store.create(model.resources.find((r) => r.name === 'student')!, { studentUniqueId: '7', firstName: 'A', lastSurname: 'B', birthDate: '2010-01-01' });
  const info = (body: string, init: { type?: string | null; auth?: string } = {}) => fetch(`${ref.dataApiBaseUrl}/oauth/token_info`, {
    method: 'POST',
    headers: { ...(init.auth === undefined ? { Authorization: `Bearer ${token}` } : init.auth ? { Authorization: init.auth } : {}), ...(init.type === null ? {} : { 'Content-Type': init.type ?? 'application/json' }) },
    body,
  });
  const res = await info(JSON.stringify({ token }));
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('cache-control'), 'no-cache');
  const exp = (JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()) as { exp: number }).exp;
  assert.deepEqual(await res.json(), {
    active: true,
    client_id: 'c',
    namespace_prefixes: ['uri://a.example', 'uri://b.example'],
    education_organizations: [{ education_organization_id: 255901, name_of_institution: 'Grand Bend High School', type: 'core.School' }, { education_organization_id: 7 }],
    assigned_profiles: ['P1'],
    claim_set: { name: 'relationship-based' },
    exp,
  });
  assert.equal((await info(`token=${token}`, { type: 'application/x-www-form-urlencoded' })).status, 200, 'a form body');
  assert.equal((await info(JSON.stringify({ TOKEN: token }))).status, 200, 'the member name in any case');
  assert.equal((await info(JSON.stringify({ token }), { auth: `bearer   ${token}` })).status, 200, 'the bearer scheme in any case');
  // 401 with no body without a valid bearer token, before anything else is looked at.
  for (const auth of ['', 'Bearer abc', `Basic ${token}`]) {
    const r = await info('not json', { auth, type: null });
    assert.equal(r.status, 401, auth);
    assert.equal(await r.text(), '', auth);
  }
  assert.equal((await info(JSON.stringify({ token }), { type: null })).status, 415);
  assert.equal((await info(JSON.stringify({ token, pad: 'x'.repeat(4_194_304) }))).status, 413, 'an oversized body');
  assert.equal((await info(JSON.stringify({ token }), { type: 'text/plain' })).status, 415);
  for (const body of ['{}', 'null', '[]', JSON.stringify({ token: '' }), JSON.stringify({ token: 5 }), JSON.stringify({ tokens: token }), ' ']) {
    const r = await info(body);
    assert.equal(r.status, 400, body);
    const json = (await r.json()) as { detail: string; errors: string[] };
    assert.deepEqual([json.detail, json.errors], ['An invalid token was provided', ['The token was not present, or was not processable.']], body);
  }
  const other = await sign({});
  for (const body of [JSON.stringify({ token: other }), JSON.stringify({ token: `${token} ` })]) {
    const r = await info(body);
    assert.equal(r.status, 400, body);
    const json = (await r.json()) as { detail: string; errors: string[] };
    assert.equal(json.detail, 'The authentication token and the token to inspect must match.');
    assert.deepEqual(json.errors, ['The authentication token (header) and the token to inspect in the body must match.']);
  }
  // A client without organizations, prefixes or profiles.
  const ures = await fetch(`${ref.dataApiBaseUrl}/oauth/token`, { method: 'POST', headers: { Authorization: `Basic ${Buffer.from('u:u-secret').toString('base64')}`, 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'grant_type=client_credentials' });
  const utoken = ((await ures.json()) as { access_token: string }).access_token;
  const u = (await (await info(JSON.stringify({ token: utoken }), { auth: `Bearer ${utoken}` })).json()) as Record<string, unknown>;
  assert.deepEqual([u.client_id, u.namespace_prefixes, u.education_organizations, u.assigned_profiles, u.claim_set], ['u', [], [], [], { name: 'unrestricted' }]);
});
