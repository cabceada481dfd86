import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import http from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { encryptConnectionString, newEncryptionKey, parseEncryptionKey } from '../../admin-db/index.js';
import { REPO_ROOT, startChildReference } from '../../../tools/child-reference.js';
import { judge, leaks, send, type Exchange, type HttpRequest } from '../../../tools/fuzz/requests.js';
import { startForTest } from '../helpers.js';

/**
 * Security properties of both services: secrets never leave the process (no answer and no log
 * line carries a client or admin secret, a signing or encryption key, an issued token or a
 * connection string); error answers carry no stack trace or file path; bodies over the
 * configured size get 413; each client's request rate is bounded (429 with a problem body).
 */
const basic = (key: string, secret: string) => `Basic ${Buffer.from(`${key}:${secret}`).toString('base64')}`;
const system = { detail: 'An unexpected problem has occurred.', type: 'urn:core:api:system', title: 'System Error', status: 500 };

test('no answer and no log line carries a secret, a key, a token or a connection string; errors carry no stack or path', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'security-'));
  const secrets = { primary: 'primary-S3cr3t-7d41', wrongKey: 'wrongkey-S3cr3t-8e52', bogus: 'bogus-S3cr3t-9f63', admin: 'admin-S3cr3t-0a74' };
  const privateKeyPem = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const encryptionKey = newEncryptionKey();
  const storeConnection = `file:${join(dir, 'store.json')}`;
  const instances = [
    { OdsInstanceId: 1, Name: 'one', ConnectionString: encryptConnectionString(storeConnection, parseEncryptionKey(encryptionKey)) },
    // Encrypted with another key: decryption fails (a server fault that must reveal nothing).
    { OdsInstanceId: 2, Name: 'two', ConnectionString: encryptConnectionString('memory:two;password=hunter2-two', parseEncryptionKey(newEncryptionKey())) },
    // A scheme no store has, with a password in it.
    { OdsInstanceId: 3, Name: 'three', ConnectionString: 'bogus:db=x;password=hunter2-three' },
  ];
  writeFileSync(join(dir, 'admin.json'), JSON.stringify({ OdsInstances: instances, OdsInstanceContexts: [] }));
  const child = await startChildReference({
    dir,
    config: {
      dataStore: storeConnection,
      adminDatabase: `file:${join(dir, 'admin.json')}`,
      connectionStringEncryptionKey: encryptionKey,
      issuer: { privateKeyPem },
      admin: { key: 'sec-admin', secret: secrets.admin },
      clients: [
        { key: 'sec-primary', secret: secrets.primary, rosterScopes: ['roster-core.readonly', 'roster-demographics.readonly'], odsInstances: [{ id: 1 }] },
        { key: 'sec-wrongkey', secret: secrets.wrongKey, odsInstances: [{ id: 2 }] },
        { key: 'sec-bogus', secret: secrets.bogus, odsInstances: [{ id: 3 }] },
      ],
    },
  });
  const exchanges: { req: HttpRequest; ex: Exchange }[] = [];
  const base = child.dataApiBaseUrl;
  const go = async (method: string, url: string, headers: Record<string, string> = {}, body?: string) => {
    const req: HttpRequest = { service: url.startsWith(child.rosteringBaseUrl) ? 'rostering' : 'data', method, url, headers, ...(body === undefined ? {} : { body: Buffer.from(body) }), kind: 'security' };
    const ex = await send(req, { timeoutMs: 60_000 });
    exchanges.push({ req, ex });
    return ex;
  };
  const form = { 'Content-Type': 'application/x-www-form-urlencoded' };
  try {
    const tokens: Record<string, string> = {};
    for (const [key, secret] of [['sec-primary', secrets.primary], ['sec-wrongkey', secrets.wrongKey], ['sec-bogus', secrets.bogus]]) {
      const ex = await go('POST', `${base}/oauth/token`, { ...form, Authorization: basic(key, secret) }, 'grant_type=client_credentials');
      assert.equal(ex.status, 200, `token for ${key}`);
      tokens[key] = (JSON.parse(ex.body.toString()) as { access_token: string }).access_token;
    }
    // Credentials every way, right and wrong.
    await go('POST', `${base}/oauth/token`, form, `grant_type=client_credentials&client_id=sec-primary&client_secret=${secrets.primary}`);
    await go('POST', `${base}/oauth/token`, { 'Content-Type': 'application/json' }, JSON.stringify({ grant_type: 'client_credentials', client_id: 'sec-primary', client_secret: secrets.primary }));
    await go('POST', `${base}/oauth/token`, { ...form, Authorization: basic('sec-primary', `${secrets.primary}x`) }, 'grant_type=client_credentials');
    await go('POST', `${base}/oauth/token`, { ...form, Authorization: basic('sec-primary', secrets.primary) }, `grant_type=client_credentials&client_secret=${secrets.primary}`);
    await go('POST', `${base}/oauth/token`, { ...form, Authorization: basic('sec-primary', secrets.primary) }, `grant_type=client_credentials&scope=${secrets.primary}`);
    await go('POST', `${base}/oauth/token`, { ...form, Authorization: basic('sec-admin', secrets.admin) }, 'grant_type=client_credentials');
    await go('POST', `${base}/oauth/token`, { 'Content-Type': 'application/json' }, `{"client_secret":"${secrets.primary}",`);
    const bearer = (key: string) => ({ Authorization: `Bearer ${tokens[key]}` });
    const data = `${base}/data/v3/core`;
    // Ordinary traffic and every kind of failure.
    await go('POST', `${data}/gradeLevelDescriptors`, { ...bearer('sec-primary'), 'Content-Type': 'application/json' }, JSON.stringify({ codeValue: 'Sec', namespace: 'uri://sec.test/GradeLevelDescriptor', shortDescription: 'sec' }));
    await go('GET', `${data}/gradeLevelDescriptors`, bearer('sec-primary'));
    await go('POST', `${data}/gradeLevelDescriptors`, { ...bearer('sec-primary'), 'Content-Type': 'application/json' }, '{"codeValue": ');
    await go('POST', `${data}/gradeLevelDescriptors`, { ...bearer('sec-primary'), 'Content-Type': 'application/json' }, JSON.stringify({ codeValue: 1, namespace: [], extra: { __proto__: 1 } }));
    await go('GET', `${data}/gradeLevelDescriptors/not-an-id`, bearer('sec-primary'));
    await go('GET', `${data}/nothing`, bearer('sec-primary'));
    await go('PATCH', `${data}/gradeLevelDescriptors`, bearer('sec-primary'));
    await go('POST', `${data}/gradeLevelDescriptors`, { ...bearer('sec-primary'), 'Content-Type': 'text/xml' }, '<x/>');
    await go('GET', `${data}/gradeLevelDescriptors`, { Authorization: `Bearer ${tokens['sec-primary'].slice(0, -3)}abc` });
    await go('GET', `${data}/gradeLevelDescriptors`, { Authorization: basic('sec-primary', secrets.primary) });
    await go('POST', `${base}/oauth/token_info`, { ...bearer('sec-primary'), ...form }, `token=${tokens['sec-primary']}`);
    // Server faults: an undecryptable connection string, an unknown store scheme, an injected fault.
    const wrongKey = await go('GET', `${data}/gradeLevelDescriptors`, bearer('sec-wrongkey'));
    const bogus = await go('GET', `${data}/gradeLevelDescriptors`, bearer('sec-bogus'));
    const fault = await go('POST', `${base}/admin/fault`, { Authorization: basic('sec-admin', secrets.admin) });
    await go('GET', `${base}/admin/digest`, { Authorization: basic('sec-admin', `${secrets.admin}x`) });
    for (const [what, ex] of [['undecryptable connection string', wrongKey], ['unknown store scheme', bogus], ['injected fault', fault]] as const) {
      assert.equal(ex.status, 500, what);
      const { correlationId, ...rest } = JSON.parse(ex.body.toString()) as Record<string, unknown>;
      assert.deepEqual(rest, system, `${what}: the 500 body says nothing more than the registry's system problem`);
      assert.equal(typeof correlationId, 'string');
    }
    // The rostering service.
    const roster = `${child.rosteringBaseUrl}/std/roster/rostering/v1p2`;
    await go('GET', `${roster}/orgs`, bearer('sec-primary'));
    await go('GET', `${roster}/orgs?filter=name%3D'x`, bearer('sec-primary'));
    await go('GET', `${roster}/orgs`, bearer('sec-wrongkey'));
    await go('GET', `${roster}/orgs`, { Authorization: basic('sec-primary', secrets.primary) });
    await go('GET', `${roster}/users/%E0%A4%A`, bearer('sec-primary'));

    const privateKeyLines = privateKeyPem.split('\n').filter((l) => l && !l.startsWith('-----'));
    const forbidden = [
      ...Object.entries(secrets).map(([k, v]) => ({ label: `${k} secret`, value: v })),
      ...privateKeyLines.map((line, i) => ({ label: `private key line ${i + 1}`, value: line })),
      { label: 'encryption key', value: encryptionKey },
      { label: 'connection string password', value: 'hunter2' },
      { label: 'connection string', value: storeConnection },
      { label: 'store directory', value: dir },
      ...instances.map((i) => ({ label: `instance ${i.OdsInstanceId} connection string`, value: i.ConnectionString })),
    ];
    const problems: string[] = [];
    for (const { req, ex } of exchanges) {
      assert.ok(ex.status !== undefined, `${req.method} ${req.url}: ${ex.error ?? 'timeout'}`);
      const text = `${JSON.stringify(ex.headers)}\n${ex.body.toString('utf8')}`;
      const found = leaks(text, forbidden, [REPO_ROOT.replace(/\/$/, '')]);
      if (found.length) problems.push(`${req.method} ${req.url.replace(/\?.*/, '')} → ${ex.status}: ${found.join(', ')}`);
      // Every error answer is well-formed (a problem, an OAuth error or a rostering status body).
      if (ex.status! >= 400 && ex.status! < 500) for (const p of judge(req, ex, { maxBodyBytes: Infinity, forbidden })) problems.push(`${req.method} ${req.url} → ${ex.status}: ${p}`);
    }
    assert.deepEqual(problems, [], 'answers');
    const log = child.output();
    const issued = exchanges.flatMap(({ ex }) => [...ex.body.toString('utf8').matchAll(/"access_token":"([^"]+)"/g)].map((m) => m[1]));
    assert.ok(issued.length >= 5);
    const inLog = [
      ...forbidden.filter((f) => !/^(store directory|connection string)$/.test(f.label)).filter((f) => log.includes(f.value)).map((f) => f.label),
      ...issued.filter((t) => log.includes(t) || log.includes(t.split('.')[2])).map(() => 'an issued access token'),
    ];
    assert.deepEqual([...new Set(inLog)], [], `log lines carry secrets:\n${log}`);
    assert.match(log, /fault injected/, 'the log was captured (the injected fault is logged)');
  } finally {
    await child.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('bodies over maxBodyBytes get 413 on every endpoint that reads a body, with or without Content-Length', async () => {
  const limit = 2048;
  const ref = await startForTest({ maxBodyBytes: limit });
  try {
    const doc = (pad: number) => JSON.stringify({ codeValue: 'Big', namespace: 'uri://big.test/GradeLevelDescriptor', shortDescription: 'x', extra: 'p'.repeat(pad) });
    const created = await ref.data('gradeLevelDescriptors', { method: 'POST', body: doc(10) });
    assert.equal(created.status, 201);
    const item = created.headers.get('location')!;
    const bearer = { Authorization: `Bearer ${ref.token}` };
    const json = { 'Content-Type': 'application/json' };
    const form = { 'Content-Type': 'application/x-www-form-urlencoded' };
    const over = limit + 1000;
    const targets: [string, string, Record<string, string>, string][] = [
      ['POST', `${ref.dataApiBaseUrl}/data/v3/core/gradeLevelDescriptors`, { ...bearer, ...json }, doc(over)],
      ['PUT', item, { ...bearer, ...json }, doc(over)],
      ['POST', `${ref.dataApiBaseUrl}/oauth/token`, { Authorization: basic('test', 'test-secret'), ...form }, `grant_type=client_credentials&pad=${'p'.repeat(over)}`],
      ['POST', `${ref.dataApiBaseUrl}/oauth/token_info`, { ...bearer, ...form }, `token=${ref.token}&pad=${'p'.repeat(over)}`],
    ];
    const problems: string[] = [];
    for (const [method, url, headers, body] of targets) {
      for (const chunked of [false, true]) {
        const ex = await send({ service: 'data', method, url, headers, body: Buffer.from(body), chunked, kind: '413' }, { timeoutMs: 60_000 });
        const what = `${method} ${new URL(url).pathname} (${body.length} bytes, ${chunked ? 'chunked' : 'Content-Length'})`;
        if (ex.status !== 413) { problems.push(`${what}: ${ex.status ?? ex.error} ${ex.body.toString().slice(0, 200)}`); continue; }
        const problem = JSON.parse(ex.body.toString()) as { type: string; status: number };
        if (problem.type !== 'urn:core:api:request-entity-too-large' || problem.status !== 413) problems.push(`${what}: 413 body ${ex.body.toString()}`);
      }
    }
    assert.deepEqual(problems, [], 'every oversized body is refused with 413');
    // At the limit, a body is read.
    const atLimit = doc(10).length;
    const fits = doc(10 + limit - atLimit);
    assert.equal(Buffer.byteLength(fits), limit);
    const ok = await ref.data('gradeLevelDescriptors', { method: 'POST', body: fits.replace('"Big"', '"Fit"') });
    assert.ok(ok.status === 201 || ok.status === 400, `a body of exactly ${limit} bytes is read (got ${ok.status})`);
    assert.notEqual(ok.status, 413);
  } finally {
    await ref.close();
  }
});

test('each client\'s request rate is bounded by configuration: 429 with a problem body and Retry-After', async () => {
  // The limits run on a clock the test steps: what passes depends on requests, not on how fast
  // the machine sends them.
  let now = 1_000_000;
  const ref = await startForTest({
    rateLimit: { requestsPerSecond: 0.2, burst: 4 },
    clients: [{ key: 'test', secret: 'test-secret' }, { key: 'other', secret: 'other-secret' }],
  }, { clock: () => now });
  try {
    const agent = new http.Agent({ keepAlive: true });
    const get = (token: string) => send({ service: 'data', method: 'GET', url: `${ref.dataApiBaseUrl}/data/v3/core/gradeLevelDescriptors`, headers: { Authorization: `Bearer ${token}` }, kind: '429' }, { timeoutMs: 60_000, agent });
    const burst = await Promise.all(Array.from({ length: 12 }, () => get(ref.token)));
    const ok = burst.filter((e) => e.status === 200).length;
    const limited = burst.filter((e) => e.status === 429);
    assert.equal(ok, 4, 'the burst of 4 passes');
    assert.equal(limited.length, 8, `the rest are 429: ${burst.map((e) => e.status).join(',')}`);
    for (const e of limited) {
      const problem = JSON.parse(e.body.toString()) as { type: string; status: number; title: string; correlationId: string };
      assert.equal(problem.type, 'urn:core:api:too-many-requests');
      assert.equal(problem.status, 429);
      assert.equal(e.headers['retry-after'], '5', 'one token in five seconds');
      assert.deepEqual(judge({ service: 'data', method: 'GET', url: `${ref.dataApiBaseUrl}/data/v3/core/gradeLevelDescriptors`, headers: {}, kind: '' }, e, { maxBodyBytes: Infinity, forbidden: [] }), []);
    }
    // Per client: another client is not slowed by the first one's burst.
    const tokenRes = await fetch(`${ref.dataApiBaseUrl}/oauth/token`, { method: 'POST', headers: { Authorization: basic('other', 'other-secret'), 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'grant_type=client_credentials' });
    const other = ((await tokenRes.json()) as { access_token: string }).access_token;
    assert.equal((await get(other)).status, 200, 'another client still gets through');
    // Writes count too, and the bucket refills with time.
    const write = await send({ service: 'data', method: 'POST', url: `${ref.dataApiBaseUrl}/data/v3/core/gradeLevelDescriptors`, headers: { Authorization: `Bearer ${ref.token}`, 'Content-Type': 'application/json' }, body: Buffer.from('{}'), kind: '429' }, { timeoutMs: 60_000, agent });
    assert.equal(write.status, 429);
    now += 4_900;
    assert.equal((await get(ref.token)).status, 429, 'not before five seconds');
    now += 100;
    assert.equal((await get(ref.token)).status, 200, 'after five seconds the client gets through again');
    assert.equal((await get(ref.token)).status, 429, 'one token only');
    agent.destroy();
  } finally {
    await ref.close();
  }
});

test('the rostering service is bounded too: failed token checks per address and each caller\'s rate (429, status body, Retry-After)', async () => {
  let now = 1_000_000;
  const ref = await startForTest({
    rateLimit: { requestsPerSecond: 0.01, burst: 3 },
    throttle: { rosteringFailuresPerAddress: { requestsPerSecond: 0.01, burst: 5 } },
    clients: [{ key: 'test', secret: 'test-secret', rosterScopes: ['roster-core.readonly'] }],
  }, { clock: () => now });
  try {
    const roster = (authorization: string) => send({ service: 'rostering', method: 'GET', url: `${ref.rosteringBaseUrl}/std/roster/rostering/v1p2/orgs`, headers: { Authorization: authorization }, kind: '429' }, { timeoutMs: 60_000 });
    const limitedOk = (e: Exchange) => {
      assert.equal(e.status, 429);
      assert.match(String(e.headers['retry-after']), /^[1-9]\d*$/);
      assert.deepEqual(judge({ service: 'rostering', method: 'GET', url: `${ref.rosteringBaseUrl}/std/roster/rostering/v1p2/orgs`, headers: {}, kind: '' }, e, { maxBodyBytes: Infinity, forbidden: [] }), []);
    };
    // The caller's own rate: three reads pass, the fourth is refused, a hundred seconds later one more passes.
    const reads = [];
    for (let i = 0; i < 4; i++) reads.push(await roster(`Bearer ${ref.token}`));
    assert.deepEqual(reads.slice(0, 3).map((e) => e.status), [200, 200, 200]);
    limitedOk(reads[3]);
    assert.equal(reads[3].headers['retry-after'], '100');
    // Bad tokens from one address: five get 401, then 429.
    const bad = [];
    for (let i = 0; i < 7; i++) bad.push(await roster(`Bearer not-a-token-${i}`));
    assert.deepEqual(bad.slice(0, 5).map((e) => e.status), [401, 401, 401, 401, 401]);
    for (const e of bad.slice(5)) limitedOk(e);
    now += 100_000;
    assert.equal((await roster(`Bearer ${ref.token}`)).status, 200, 'the caller\'s bucket refilled by one');
  } finally {
    await ref.close();
  }
});
