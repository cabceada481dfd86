import assert from 'node:assert/strict';
import { networkInterfaces } from 'node:os';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { loadSettings } from '../config/load.js';
import { hashSecret } from '../security/secrets.js';
import { startReference } from '../server.js';
import { startForTest } from './helpers.js';

/**
 * No default administrative credentials (decisions #33, issue 15 point 6): the administrative
 * endpoints exist only where a credential is configured, the shipped test configuration has
 * none (harnesses generate one per run), a hashed secret works, and by default only loopback
 * callers reach them.
 */
const basic = (key: string, secret: string) => ({ Authorization: `Basic ${Buffer.from(`${key}:${secret}`).toString('base64')}` });
const CONFORMANCE = fileURLToPath(new URL('../config/conformance.json', import.meta.url));

test('the shipped conformance configuration carries no admin credential, so its admin endpoints do not exist', async () => {
  const saved = { key: process.env.REFERENCE_ADMIN_KEY, secret: process.env.REFERENCE_ADMIN_SECRET };
  delete process.env.REFERENCE_ADMIN_KEY;
  delete process.env.REFERENCE_ADMIN_SECRET;
  try {
    assert.equal(loadSettings(CONFORMANCE).admin, undefined);
  } finally {
    if (saved.key !== undefined) process.env.REFERENCE_ADMIN_KEY = saved.key;
    if (saved.secret !== undefined) process.env.REFERENCE_ADMIN_SECRET = saved.secret;
  }
  const ref = await startForTest();
  try {
    const res = await fetch(`${ref.dataApiBaseUrl}/admin/digest`, { headers: basic('conformance-admin', 'conformance-admin-secret') });
    assert.equal(res.status, 404);
  } finally {
    await ref.close();
  }
});

test('the environment gives the admin credential (what a harness does with its per-run secret)', () => {
  const saved = { key: process.env.REFERENCE_ADMIN_KEY, secret: process.env.REFERENCE_ADMIN_SECRET };
  process.env.REFERENCE_ADMIN_KEY = 'run-admin';
  process.env.REFERENCE_ADMIN_SECRET = 'generated-for-this-run';
  try {
    const admin = loadSettings(CONFORMANCE).admin;
    assert.equal(admin?.key, 'run-admin');
    assert.match(admin?.secretHash ?? '', /^scrypt\$/);
    assert.equal(admin?.loopbackOnly, true);
  } finally {
    if (saved.key === undefined) delete process.env.REFERENCE_ADMIN_KEY; else process.env.REFERENCE_ADMIN_KEY = saved.key;
    if (saved.secret === undefined) delete process.env.REFERENCE_ADMIN_SECRET; else process.env.REFERENCE_ADMIN_SECRET = saved.secret;
  }
});

test('admin accepts a secretHash: the right secret opens the endpoints, a wrong one gets 401', async () => {
  const ref = await startForTest({ admin: { key: 'ops', secretHash: hashSecret('ops-secret') } });
  try {
    assert.equal((await fetch(`${ref.dataApiBaseUrl}/admin/digest`, { headers: basic('ops', 'ops-secret') })).status, 200);
    assert.equal((await fetch(`${ref.dataApiBaseUrl}/admin/digest`, { headers: basic('ops', 'wrong') })).status, 401);
  } finally {
    await ref.close();
  }
});

/** An address of this machine that is not loopback, to call from somewhere else than 127.0.0.1. */
const outside = Object.values(networkInterfaces()).flat().find((i) => i && !i.internal && i.family === 'IPv4')?.address;

test('admin endpoints answer only loopback callers unless loopbackOnly is false', { skip: outside ? false : 'no non-loopback IPv4 address on this machine' }, async () => {
  for (const loopbackOnly of [undefined, false]) {
    const ref = await startForTest({ host: '0.0.0.0', admin: { key: 'ops', secret: 'ops-secret', ...(loopbackOnly === false ? { loopbackOnly } : {}) } });
    try {
      const path = new URL(ref.dataApiBaseUrl).pathname;
      const port = new URL(ref.dataApiBaseUrl).port;
      const viaLoopback = await fetch(`http://127.0.0.1:${port}${path}/admin/digest`, { headers: basic('ops', 'ops-secret') });
      const viaOutside = await fetch(`http://${outside}:${port}${path}/admin/digest`, { headers: basic('ops', 'ops-secret') });
      assert.equal(viaLoopback.status, 200, `loopback caller, loopbackOnly ${loopbackOnly}`);
      assert.equal(viaOutside.status, loopbackOnly === false ? 200 : 404, `caller at ${outside}, loopbackOnly ${loopbackOnly}`);
    } finally {
      await ref.close();
    }
  }
});

test('with loopbackOnly, a request that came through a proxy (forwarding headers) is no loopback caller: 404', async () => {
  for (const loopbackOnly of [undefined, false]) {
    const ref = await startForTest({ admin: { key: 'ops', secret: 'ops-secret', ...(loopbackOnly === false ? { loopbackOnly } : {}) } });
    try {
      const digest = (headers: Record<string, string>) => fetch(`${ref.dataApiBaseUrl}/admin/digest`, { headers: { ...basic('ops', 'ops-secret'), ...headers } }).then((r) => r.status);
      assert.equal(await digest({}), 200, 'straight from loopback');
      const headers: Record<string, string>[] = [{ 'X-Forwarded-For': '203.0.113.7' }, { Forwarded: 'for=203.0.113.7' }, { 'X-Real-IP': '203.0.113.7' }, { Via: '1.1 proxy' }, { 'X-Forwarded-Host': 'api.example.test' }, { 'x-forwarded-proto': 'https' }];
      for (const header of headers) {
        assert.equal(await digest(header), loopbackOnly === false ? 200 : 404, `${JSON.stringify(header)}, loopbackOnly ${loopbackOnly}`);
      }
    } finally {
      await ref.close();
    }
  }
});

test('failed admin credential checks are throttled per address (429 before hashing); the operator\'s proven secret still passes', async () => {
  let now = 1_000_000;
  const ref = await startReference({ overrides: { port: 0, rosteringPort: 0, warmValidators: false, admin: { key: 'ops', secret: 'ops-secret' }, throttle: { adminFailuresPerAddress: { requestsPerSecond: 0.1, burst: 3 } } }, clock: () => now });
  try {
    const digest = (key: string, secret: string) => fetch(`${ref.dataApiBaseUrl}/admin/digest`, { headers: basic(key, secret) });
    assert.equal((await digest('ops', 'ops-secret')).status, 200, 'the operator proves the secret');
    const guesses = [];
    for (let i = 0; i < 6; i++) guesses.push((await digest('ops', `guess-${i}`)).status);
    assert.deepEqual(guesses, [401, 401, 401, 429, 429, 429]);
    const limited = await digest('admin', 'x');
    assert.equal(limited.status, 429);
    assert.equal(limited.headers.get('retry-after'), '10');
    assert.match(((await limited.json()) as { type: string }).type, /too-many-requests$/);
    assert.equal((await digest('ops', 'ops-secret')).status, 200, 'the proven secret passes the throttle');
    now += 10_000;
    assert.equal((await digest('ops', 'guess')).status, 401, 'a refilled address is checked again');
  } finally {
    await ref.close();
  }
});
