import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { request as httpRequest } from 'node:http';
import type { ReferenceConfig } from '../config/types.js';
import { startReference, type RunningReference } from '../server.js';

/**
 * The token endpoint in process (seed: Authentication; decisions #20, #21, #30): every refusal
 * with its status and OAuth error, the claims it signs, and the failure throttle. The Playwright
 * families token and authentication test the same against any target; this file is the fast
 * test command of `npm run mutation` for this module.
 */
let ref: RunningReference;
const basic = (key: string, secret: string) => `Basic ${Buffer.from(`${key}:${secret}`).toString('base64')}`;
const FORM = 'application/x-www-form-urlencoded';

before(async () => {
  ref = await startReference({
    overrides: {
      port: 0, rosteringPort: 0, warmValidators: false, tokenLifetimeSeconds: 1234,
      throttle: { tokenFailuresPerKey: { requestsPerSecond: 1, burst: 1000 }, tokenFailuresPerAddress: { requestsPerSecond: 1, burst: 1000 } },
      clients: [
        { key: 'full', secret: 'full-secret', educationOrganizationIds: [255901, 255902], rosterScopes: ['roster-core.readonly', 'roster.readonly', 'roster-demographics.readonly', 'not-a-roster-scope'], odsInstances: [{ id: 1 }, { id: 2, context: { key: 'schoolYear', value: '2026' } }], tenant: 'Tenant1' },
        { key: 'bare', secret: 'bare-secret' },
        // Credentials whose base64 has no padding (15 bytes) and one padding character (17 bytes).
        { key: 'p0', secret: 'p0-secret-12' },
        { key: 'p1', secret: 'p1-secret-1234' },
        // A lifetime of its own instead of the global one (short-lived clients of the conformance configuration).
        { key: 'short', secret: 'short-secret', tokenLifetimeSeconds: 3 },
      ],
    },
  });
});
after(async () => { await ref.close(); });

async function token(init: { auth?: string; type?: string | null; body?: string }): Promise<{ status: number; headers: Headers; json: Record<string, unknown> }> {
  const headers: Record<string, string> = {};
  if (init.auth !== undefined) headers.Authorization = init.auth;
  if (init.type !== null) headers['Content-Type'] = init.type ?? FORM;
  const res = await fetch(`${ref.dataApiBaseUrl}/oauth/token`, { method: 'POST', headers, body: init.body ?? '' });
  const text = await res.text();
  return { status: res.status, headers: res.headers, json: text ? JSON.parse(text) as Record<string, unknown> : {} };
}
const claimsOf = (accessToken: unknown) => JSON.parse(Buffer.from(String(accessToken).split('.')[1], 'base64url').toString()) as Record<string, unknown>;

test('a granted token: exact body, no-store, and the client\'s claims', async () => {
  const res = await token({ auth: basic('full', 'full-secret'), body: 'grant_type=client_credentials' });
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('cache-control'), 'no-store');
  assert.deepEqual(Object.keys(res.json).sort(), ['access_token', 'expires_in', 'token_type']);
  assert.equal(res.json.expires_in, 1234);
  assert.equal(res.json.token_type, 'bearer');
  const claims = claimsOf(res.json.access_token);
  assert.equal(claims.client_id, 'full');
  assert.equal(claims.scope, 'roster-core.readonly roster.readonly roster-demographics.readonly', 'only known rostering scopes, in configured order');
  assert.equal(claims.educationOrganizationId, '255901,255902');
  assert.equal(claims.tenantId, 'Tenant1');
  assert.deepEqual(JSON.parse(String(claims.odsInstances)), { OdsInstances: [
    { OdsInstanceId: 1, OdsInstanceContext: null },
    { OdsInstanceId: 2, OdsInstanceContext: { ContextKey: 'schoolYear', ContextValue: '2026' } },
  ] });
  assert.equal((claims.exp as number) - (claims.iat as number), 1234);
  assert.equal(claims.iss, ref.issuer.issuer);
  assert.equal(claims.aud, ref.issuer.audience);
  assert.equal(JSON.parse(Buffer.from(String(res.json.access_token).split('.')[0], 'base64url').toString()).alg, 'RS256');
  await ref.issuer.verify(String(res.json.access_token), 0);
});

test('a client without organizations, scopes or tenant: those claims are absent or empty', async () => {
  const res = await token({ auth: basic('bare', 'bare-secret'), body: 'grant_type=client_credentials' });
  assert.equal(res.status, 200);
  const claims = claimsOf(res.json.access_token);
  assert.equal(claims.scope, '');
  assert.equal('educationOrganizationId' in claims, false);
  assert.equal('tenantId' in claims, false);
  assert.deepEqual(JSON.parse(String(claims.odsInstances)), { OdsInstances: [{ OdsInstanceId: 1, OdsInstanceContext: null }] });
});

test('a client with a lifetime of its own: expires_in and exp follow it, other clients keep the global one', async () => {
  const res = await token({ auth: basic('short', 'short-secret'), body: 'grant_type=client_credentials' });
  assert.equal(res.status, 200);
  assert.equal(res.json.expires_in, 3);
  const claims = claimsOf(res.json.access_token);
  assert.equal((claims.exp as number) - (claims.iat as number), 3);
  const other = await token({ auth: basic('bare', 'bare-secret'), body: 'grant_type=client_credentials' });
  assert.equal(other.json.expires_in, 1234);
});

test('credentials in the body, in either media type; field names and grant type in any case', async () => {
  for (const body of ['grant_type=client_credentials&client_id=full&client_secret=full-secret', 'Grant_Type=CLIENT_CREDENTIALS&CLIENT_ID=full&Client_Secret=full-secret']) {
    assert.equal((await token({ body })).status, 200, body);
  }
  const json = await token({ type: 'application/json', body: JSON.stringify({ grant_type: 'client_credentials', client_id: 'full', client_secret: 'full-secret' }) });
  assert.equal(json.status, 200);
  assert.equal((await token({ type: 'application/json; charset=utf-8', auth: basic('full', 'full-secret'), body: JSON.stringify({ Grant_Type: 'client_credentials' }) })).status, 200);
  // A numeric member counts (as its string); a non-string, non-number member is no member.
  const numeric = await token({ type: 'application/json', auth: basic('full', 'full-secret'), body: JSON.stringify({ grant_type: 'client_credentials', scope: 255901 }) });
  assert.equal(numeric.status, 200);
  assert.equal(numeric.json.scope, '255901');
  const ignored = await token({ type: 'application/json', auth: basic('full', 'full-secret'), body: JSON.stringify({ grant_type: 'client_credentials', scope: { x: 1 } }) });
  assert.equal(ignored.status, 200);
  assert.equal('scope' in ignored.json, false);
  // Basic scheme name in any case, blanks around and between the parts ignored.
  assert.equal((await token({ auth: `  BASIC ${Buffer.from('full:full-secret').toString('base64')}  `, body: 'grant_type=client_credentials' })).status, 200);
  assert.equal((await token({ auth: `Basic \t ${Buffer.from('full:full-secret').toString('base64')}`, body: 'grant_type=client_credentials' })).status, 200);
  // Any base64 padding: none, one, two.
  assert.match(basic('p0', 'p0-secret-12'), /[^=]$/);
  assert.match(basic('p1', 'p1-secret-1234'), /[^=]=$/);
  assert.match(basic('full', 'full-secret'), /==$/);
  for (const [key, secret] of [['p0', 'p0-secret-12'], ['p1', 'p1-secret-1234']]) {
    assert.equal((await token({ auth: basic(key, secret), body: 'grant_type=client_credentials' })).status, 200, key);
  }
});

test('refusals: status, OAuth error, no-store, no description where none is due', async () => {
  const cases: [string, Parameters<typeof token>[0], number, string][] = [
    ['no grant type', { auth: basic('full', 'full-secret'), body: '' }, 400, 'unsupported_grant_type'],
    ['another grant type', { auth: basic('full', 'full-secret'), body: 'grant_type=password' }, 400, 'unsupported_grant_type'],
    ['a grant type with a suffix', { auth: basic('full', 'full-secret'), body: 'grant_type=client_credentialsx' }, 400, 'unsupported_grant_type'],
    ['wrong secret', { auth: basic('full', 'wrong'), body: 'grant_type=client_credentials' }, 401, 'invalid_client'],
    ['unknown key', { auth: basic('nobody', 'full-secret'), body: 'grant_type=client_credentials' }, 401, 'invalid_client'],
    ['wrong secret and another grant type', { auth: basic('full', 'wrong'), body: 'grant_type=password' }, 400, 'unsupported_grant_type'],
    ['three header parts', { auth: `Basic ${Buffer.from('full:full-secret').toString('base64')} x`, body: 'grant_type=client_credentials' }, 400, 'invalid_request'],
    ['scheme alone', { auth: 'Basic', body: 'grant_type=client_credentials' }, 400, 'invalid_request'],
    ['another scheme', { auth: `Bearer ${Buffer.from('full:full-secret').toString('base64')}`, body: 'grant_type=client_credentials' }, 401, 'invalid_client'],
    ['a scheme with a prefix', { auth: `xBasic ${Buffer.from('full:full-secret').toString('base64')}`, body: 'grant_type=client_credentials' }, 401, 'invalid_client'],
    ['not base64', { auth: 'Basic ***', body: 'grant_type=client_credentials' }, 400, 'invalid_request'],
    ['base64 with a bad character after valid ones', { auth: `Basic ${Buffer.from('full:full-secret').toString('base64')}*`, body: 'grant_type=client_credentials' }, 400, 'invalid_request'],
    ['base64 with a bad character before valid ones', { auth: `Basic *${Buffer.from('full:full-secret').toString('base64')}`, body: 'grant_type=client_credentials' }, 400, 'invalid_request'],
    ['three padding characters', { auth: `Basic ${Buffer.from('full:full-secre').toString('base64')}===`, body: 'grant_type=client_credentials' }, 400, 'invalid_request'],
    ['no colon', { auth: `Basic ${Buffer.from('full').toString('base64')}`, body: 'grant_type=client_credentials' }, 400, 'invalid_client'],
    ['two colons', { auth: `Basic ${Buffer.from('full:full:secret').toString('base64')}`, body: 'grant_type=client_credentials' }, 400, 'invalid_client'],
    ['header and body id', { auth: basic('full', 'full-secret'), body: 'grant_type=client_credentials&client_id=full' }, 400, 'invalid_client'],
    ['header and body secret', { auth: basic('full', 'full-secret'), body: 'grant_type=client_credentials&client_secret=full-secret' }, 400, 'invalid_client'],
    ['no credentials', { body: 'grant_type=client_credentials' }, 401, 'invalid_request'],
    ['no secret', { body: 'grant_type=client_credentials&client_id=full' }, 401, 'invalid_request'],
    ['no id', { body: 'grant_type=client_credentials&client_secret=full-secret' }, 401, 'invalid_request'],
    ['blank id', { auth: basic(' ', 'full-secret'), body: 'grant_type=client_credentials' }, 401, 'invalid_request'],
    ['blank secret', { auth: basic('full', ' '), body: 'grant_type=client_credentials' }, 401, 'invalid_request'],
    ['JSON array body', { type: 'application/json', auth: basic('full', 'full-secret'), body: '[]' }, 400, 'invalid_request'],
    ['JSON null body', { type: 'application/json', auth: basic('full', 'full-secret'), body: 'null' }, 400, 'invalid_request'],
    ['JSON string body', { type: 'application/json', auth: basic('full', 'full-secret'), body: '"grant_type"' }, 400, 'invalid_request'],
  ];
  for (const [name, init, status, error] of cases) {
    const res = await token(init);
    assert.equal(res.status, status, name);
    assert.deepEqual(res.json, { error }, name);
    assert.equal(res.headers.get('cache-control'), 'no-store', name);
    assert.equal(res.headers.get('retry-after'), null, name);
  }
  // Unparsable JSON is the body reader's 400 problem, not an OAuth error.
  const broken = await token({ type: 'application/json', auth: basic('full', 'full-secret'), body: '{' });
  assert.equal(broken.status, 400);
  assert.match(String(broken.json.type), /:bad-request:data-validation-failed$/);
  // A blank JSON body is no body: the grant type is missing, the credentials come from the header.
  const blank = await token({ type: 'application/json', auth: basic('full', 'full-secret'), body: ' ' });
  assert.deepEqual([blank.status, blank.json], [400, { error: 'unsupported_grant_type' }]);
});

test('media types: only JSON and form bodies; 415 problem details otherwise', async () => {
  for (const type of [null, 'text/plain', 'application/xml', 'application/jsonx']) {
    const res = await token({ type, auth: basic('full', 'full-secret'), body: 'grant_type=client_credentials' });
    assert.equal(res.status, 415, String(type));
    assert.match(String(res.json.type), /unsupported-media-type$/);
  }
  // The form body is read as a form, a JSON body as JSON: the other reading finds no grant type.
  assert.equal((await token({ type: 'application/json', auth: basic('full', 'full-secret'), body: '{"grant_type":"client_credentials"}' })).status, 200);
  assert.equal((await token({ type: FORM, auth: basic('full', 'full-secret'), body: '{"grant_type":"client_credentials"}' })).status, 400);
});

test('an oversized body is a 413 problem', async () => {
  const big = `grant_type=client_credentials&pad=${'x'.repeat(4_194_304)}`;
  const res = await token({ auth: basic('full', 'full-secret'), body: big });
  assert.equal(res.status, 413);
});

test('scopes: the client\'s own rostering scopes, an organization id, or a refusal that says why', async () => {
  const ask = (scope: string) => token({ auth: basic('full', 'full-secret'), body: `grant_type=client_credentials&scope=${encodeURIComponent(scope)}` });
  for (const [scope, granted] of [
    ['roster-core.readonly', 'roster-core.readonly'],
    [' roster.readonly ', 'roster.readonly'],
    ['roster-core.readonly roster.readonly', 'roster-core.readonly roster.readonly'],
    ['roster-core.readonly,roster.readonly', 'roster-core.readonly roster.readonly'],
    ['roster-core.readonly , \troster.readonly', 'roster-core.readonly roster.readonly'],
    ['roster-demographics.readonly', 'roster-demographics.readonly'],
    ['255902', '255902'],
  ]) {
    const res = await ask(scope);
    assert.equal(res.status, 200, scope);
    assert.equal(res.json.scope, granted, scope);
    assert.equal(claimsOf(res.json.access_token).scope, granted, scope);
  }
  assert.equal('scope' in (await ask('  ')).json, false, 'a blank scope is no scope');
  assert.equal(claimsOf((await ask('  ')).json.access_token).scope, 'roster-core.readonly roster.readonly roster-demographics.readonly');
  for (const scope of ['255903', '25590', '2559011']) {
    const res = await ask(scope);
    assert.equal(res.status, 400, scope);
    assert.deepEqual(res.json, { error: 'invalid_scope', error_description: "The client is not explicitly associated with the EducationOrganizationId specified in the requested 'scope'." }, scope);
    assert.equal(res.headers.get('cache-control'), 'no-store');
  }
  for (const scope of ['not-a-roster-scope', 'roster-core.readonly x', 'x roster-core.readonly', 'ROSTER-CORE.READONLY', 'roster-core.readonlyx', 'a255901', '-255901', '255901 roster.readonly']) {
    const res = await ask(scope);
    assert.equal(res.status, 400, scope);
    assert.deepEqual(res.json, { error: 'invalid_scope', error_description: "The supplied 'scope' is not a valid scope for this client." }, scope);
  }
});

/**
 * A reference whose throttles run on a clock the test steps (no test here depends on how fast the
 * machine is), and a token request sent from a given loopback address (127.0.0.x: the server
 * listens on 127.0.0.1, which Linux answers from any of them).
 */
async function throttled(throttle: ReferenceConfig['throttle'], clients = [{ key: 'a', secret: 'a-secret' }, { key: 'b', secret: 'b-secret' }, { key: 'c', secret: 'c-secret' }]) {
  let now = 1_000_000;
  const t = await startReference({ overrides: { port: 0, rosteringPort: 0, warmValidators: false, throttle, clients }, clock: () => now });
  const url = new URL(`${t.dataApiBaseUrl}/oauth/token`);
  // authorization: the header sent (null: none), by default the key's and secret's Basic header.
  const ask = (key: string, secret: string, from = '127.0.0.1', body = 'grant_type=client_credentials', type = FORM, authorization: string | null = basic(key, secret)) => new Promise<{ status: number; retryAfter: string | null; cacheControl: string | null; json: Record<string, unknown> }>((resolve, reject) => {
    const req = httpRequest({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', localAddress: from, headers: { ...(authorization === null ? {} : { Authorization: authorization }), 'Content-Type': type, 'Content-Length': String(Buffer.byteLength(body)) } }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (c: string) => { text += c; }).on('end', () => resolve({
        status: res.statusCode!, retryAfter: (res.headers['retry-after'] as string | undefined) ?? null, cacheControl: (res.headers['cache-control'] as string | undefined) ?? null, json: text ? JSON.parse(text) as Record<string, unknown> : {},
      }));
    });
    req.on('error', reject);
    req.end(body);
  });
  return { ref: t, ask, advance: (seconds: number) => { now += seconds * 1000; } };
}

test('failed secret checks are throttled per key and per address; a proven secret still passes', async () => {
  const { ref: t, ask, advance } = await throttled({ tokenFailuresPerKey: { requestsPerSecond: 0.01, burst: 2 }, tokenFailuresPerAddress: { requestsPerSecond: 0.01, burst: 5 } });
  try {
    assert.equal((await ask('a', 'a-secret')).status, 200, 'a proves its secret');
    // Right secrets are never counted.
    for (let i = 0; i < 4; i++) assert.equal((await ask('b', 'b-secret')).status, 200);
    assert.equal((await ask('a', 'wrong')).status, 401);
    assert.equal((await ask('a', 'wrong')).status, 401);
    const throttled = await ask('a', 'wrong');
    assert.equal(throttled.status, 429, 'the key\'s third failure');
    assert.equal(throttled.retryAfter, '100');
    assert.equal(throttled.cacheControl, 'no-store');
    assert.deepEqual(throttled.json, { error: 'temporarily_unavailable', error_description: 'Too many failed attempts; retry after 100 s.' });
    assert.equal((await ask('a', 'a-secret')).status, 200, 'the proven secret passes the throttle');
    assert.equal((await ask('b', 'b-secret')).status, 200, 'another key is not throttled by a\'s failures');
    // Two more failures under other keys (one unknown) reach the address's limit of five (the
    // key's 429 counts too: it was refused before a client was authenticated).
    assert.equal((await ask('c', 'wrong')).status, 401);
    assert.equal((await ask('nobody', 'wrong')).status, 401);
    assert.equal((await ask('b', 'b-secret')).status, 200, 'a proven secret passes the address throttle too');
    const byAddress = await ask('c', 'c-secret');
    assert.equal(byAddress.status, 429, 'an unproven secret waits once the address is over its limit');
    assert.equal(byAddress.retryAfter, '100');
    // Only a proven secret in the Basic header passes the address's limit: in the body, or in a
    // header that does not parse, it waits too.
    assert.equal((await ask('', '', '127.0.0.1', 'grant_type=client_credentials&client_id=b&client_secret=b-secret', FORM, null)).status, 429, 'a proven secret in the body');
    assert.equal((await ask('', '', '127.0.0.1', 'grant_type=client_credentials', FORM, 'Basic !!!')).status, 429, 'a header that does not parse');
    advance(40);
    assert.equal((await ask('c', 'c-secret')).retryAfter, '60', 'the wait shrinks as the clock moves');
    advance(60);
    assert.equal((await ask('c', 'c-secret')).status, 200, 'a refilled address is heard again');
  } finally {
    await t.close();
  }
});

test('strangers\' wrong secrets do not lock out the client that holds the key, even before it proved its secret', async () => {
  const { ref: t, ask } = await throttled({ tokenFailuresPerKey: { requestsPerSecond: 0.01, burst: 3 }, tokenFailuresPerAddress: { requestsPerSecond: 0.01, burst: 100 } });
  try {
    // 30 wrong secrets for key a from two other addresses (the issue's lock-out took 30).
    const strangers = [];
    for (let i = 0; i < 30; i++) strangers.push((await ask('a', `guess-${i}`, i % 2 ? '127.0.0.2' : '127.0.0.3')).status);
    assert.deepEqual(strangers.slice(0, 3), [401, 401, 401]);
    assert.ok(strangers.slice(4).every((s) => s === 429), `the key is locked for the addresses that failed against it: ${strangers.join(',')}`);
    assert.equal((await ask('a', 'a-secret', '127.0.0.4')).status, 200, 'the key\'s client, never failed, from its own address');
    assert.equal((await ask('a', 'a-secret', '127.0.0.2')).status, 200, 'and, its secret now proven, from anywhere');
    // A stranger moving to a fresh address gets one check of the locked key there, then waits too.
    assert.deepEqual([(await ask('a', 'guess', '127.0.0.5')).status, (await ask('a', 'guess', '127.0.0.5')).status], [401, 429]);
  } finally {
    await t.close();
  }
});

test('token request bodies over 64 KiB are refused before they are parsed, and counted against their address', async () => {
  const { ref: t, ask } = await throttled({ tokenFailuresPerKey: { requestsPerSecond: 0.01, burst: 100 }, tokenFailuresPerAddress: { requestsPerSecond: 0.01, burst: 3 } });
  try {
    // The issue's stall: a JSON body of many keys (300,000 took 776 ms to parse); 6,000 are enough to pass 64 KiB.
    const many = JSON.stringify(Object.fromEntries([['grant_type', 'client_credentials'], ...Array.from({ length: 6000 }, (_, i) => [`k${i}`, i])]));
    assert.ok(Buffer.byteLength(many) > 64 * 1024);
    const big = await ask('a', 'a-secret', '127.0.0.2', many, 'application/json');
    assert.equal(big.status, 413);
    assert.match(String(big.json.type), /request-entity-too-large$/);
    const atLimit = `grant_type=client_credentials&pad=${'p'.repeat(64 * 1024 - 'grant_type=client_credentials&pad='.length)}`;
    assert.equal(Buffer.byteLength(atLimit), 64 * 1024);
    assert.equal((await ask('a', 'a-secret', '127.0.0.3', atLimit)).status, 200, 'a body of exactly 64 KiB is read');
    // Unparsable and malformed bodies count too: the third refusal reaches the limit of three.
    assert.equal((await ask('a', 'a-secret', '127.0.0.2', '{', 'application/json')).status, 400);
    assert.equal((await ask('a', 'a-secret', '127.0.0.2', '[]', 'application/json')).status, 400);
    const refused = await ask('b', 'b-secret', '127.0.0.2', many, 'application/json');
    assert.equal(refused.status, 413, 'oversized is still oversized');
    const after = await ask('b', 'b-secret', '127.0.0.2');
    assert.equal(after.status, 429, 'the address is over its limit: refused before its body is parsed');
    assert.equal((await ask('b', 'b-secret', '127.0.0.3')).status, 200, 'another address is not');
  } finally {
    await t.close();
  }
});
