import assert from 'node:assert/strict';
import { request } from 'node:http';
import { test } from 'node:test';
import { ConfigError, loadSettings } from '../config/load.js';
import { OriginPolicy, parseHost } from '../http/origin.js';
import { startForTest } from './helpers.js';

/**
 * A configured public base URL, not the Host header, makes the absolute URLs both services hand
 * out: Location, discovery, interface description, rostering links (issue 15 point 9, issue 23
 * point 9). Without one, the Host names the origin only when it names this service: the
 * listening address or an allowed host; any other is refused, never reflected.
 */
const call = (url: string, method: string, headers: Record<string, string>, body?: string) => new Promise<{ status: number; location?: string; json: () => Record<string, unknown> }>((resolve, reject) => {
  const req = request(url, { method, headers, setHost: !('Host' in headers) }, (res) => {
    let text = '';
    res.setEncoding('utf8').on('data', (c: string) => { text += c; });
    res.on('end', () => resolve({ status: res.statusCode!, ...(res.headers.location ? { location: res.headers.location } : {}), json: () => JSON.parse(text) as Record<string, unknown> }));
  });
  req.on('error', reject);
  req.end(body);
});

const descriptor = JSON.stringify({ codeValue: 'Public', namespace: 'uri://public.test/GradeLevelDescriptor', shortDescription: 'Public' });

const configs: [string, { publicBaseUrl: string } | { allowedHosts: string[] }][] = [['with a public base URL', { publicBaseUrl: 'https://api.example.test/v7.3/api' }], ['with evil.example an allowed host', { allowedHosts: ['Evil.Example'] }]];
for (const [name, config] of configs) {
  test(`Location, discovery, interface description and rostering links with Host: evil.example ${name}`, async () => {
    const ref = await startForTest({ ...config, clients: [{ key: 'test', secret: 'test-secret', educationOrganizationIds: [255950], rosterScopes: ['roster-core.readonly'] }] });
    try {
      const expected = 'publicBaseUrl' in config ? config.publicBaseUrl : `http://evil.example${new URL(ref.dataApiBaseUrl).pathname}`;
      const host = { Host: 'evil.example' };
      const created = await call(`${ref.dataApiBaseUrl}/data/v3/core/gradeLevelDescriptors`, 'POST', { ...host, Authorization: `Bearer ${ref.token}`, 'Content-Type': 'application/json' }, descriptor);
      assert.equal(created.status, 201);
      assert.ok(created.location?.startsWith(`${expected}/data/v3/core/gradeLevelDescriptors/`), created.location);
      const urls = (await call(`${ref.dataApiBaseUrl}/`, 'GET', host)).json().urls as Record<string, string>;
      for (const [name, url] of Object.entries(urls)) assert.ok(url.startsWith(`${expected}/`), `${name}: ${url}`);
      const servers = (await call(`${ref.dataApiBaseUrl}/metadata/data/v3/resources/swagger.json`, 'GET', host)).json().servers;
      assert.deepEqual(servers, [{ url: `${expected}/data/v3` }]);
      // The rostering service's links: its discovery document and the hrefs of a read.
      const rosteringOrigin = 'publicBaseUrl' in config ? new URL(expected).origin : 'http://evil.example';
      const roster = (await call(`${ref.rosteringBaseUrl}/`, 'GET', host)).json().urls as Record<string, string>;
      for (const [name, url] of Object.entries(roster)) assert.ok(url.startsWith(`${rosteringOrigin}/`), `rostering ${name}: ${url}`);
      const resource = (name: string) => ref.stores.model.resources.find((r) => r.name === name)!;
      ref.store.create(resource('localEducationAgency'), { localEducationAgencyId: 255950, nameOfInstitution: 'Linked District' });
      ref.store.create(resource('school'), { schoolId: 255901, nameOfInstitution: 'Linked School', localEducationAgencyReference: { localEducationAgencyId: 255950 } });
      const orgs = await call(`${ref.rosteringBaseUrl}/std/roster/rostering/v1p2/orgs`, 'GET', { ...host, Authorization: `Bearer ${ref.token}` });
      assert.equal(orgs.status, 200);
      const hrefs = JSON.stringify(orgs.json()).match(/"href":"[^"]*"/g) ?? [];
      assert.ok(hrefs.length && hrefs.every((h) => h.startsWith(`"href":"${rosteringOrigin}/`)), hrefs.join(' '));
    } finally {
      await ref.close();
    }
  });
}

test('without a public base URL, a Host that names neither the listening address nor an allowed host is refused (400), never reflected', async () => {
  const ref = await startForTest();
  try {
    const { port } = new URL(ref.dataApiBaseUrl);
    const rosteringPort = new URL(ref.rosteringBaseUrl).port;
    for (const value of ['evil.example', `evil.example:${port}`, '', 'a:b:c', '127.0.0.1.evil.example', '[::1]', 'localhost.', `127.0.0.1:${port}0`]) {
      const created = await call(`${ref.dataApiBaseUrl}/data/v3/core/gradeLevelDescriptors`, 'POST', { Host: value, Authorization: `Bearer ${ref.token}`, 'Content-Type': 'application/json' }, descriptor.replace('Public', `Refused${value.length}`));
      assert.equal(created.status, 400, `Host ${JSON.stringify(value)}`);
      assert.equal(created.location, undefined);
      const body = created.json();
      assert.match(String(body.type), /:bad-request$/);
      assert.deepEqual(body.errors, ['The Host header does not name this service.']);
      const discovery = await call(`${ref.dataApiBaseUrl}/`, 'GET', { Host: value });
      assert.equal(discovery.status, 400, `discovery, Host ${JSON.stringify(value)}`);
      const roster = await call(`${ref.rosteringBaseUrl}/`, 'GET', { Host: value });
      assert.equal(roster.status, 400, `rostering, Host ${JSON.stringify(value)}`);
      assert.equal(roster.json().stdx_codeMajor, 'failure');
    }
    // The listening address and localhost on it, in any case and at any port (a local proxy's).
    for (const [value, origin] of [[`127.0.0.1:${port}`, `http://127.0.0.1:${port}`], [`LOCALHOST:${port}`, `http://localhost:${port}`], ['127.0.0.1', 'http://127.0.0.1'], ['localhost:8443', 'http://localhost:8443']]) {
      const urls = (await call(`${ref.dataApiBaseUrl}/`, 'GET', { Host: value })).json().urls as Record<string, string>;
      assert.ok(urls.oauth.startsWith(`${origin}/`), `${value}: ${urls.oauth}`);
    }
    const roster = (await call(`${ref.rosteringBaseUrl}/`, 'GET', { Host: `localhost:${rosteringPort}` })).json().urls as Record<string, string>;
    assert.equal(roster.healthCheck, `http://localhost:${rosteringPort}/health-check`);
  } finally {
    await ref.close();
  }
});

test('parseHost reads a Host value by position: name (lower case), port; anything else is no host', () => {
  assert.deepEqual(parseHost('Api.Example:8080'), { name: 'api.example', port: '8080' });
  assert.deepEqual(parseHost('api.example'), { name: 'api.example' });
  assert.deepEqual(parseHost('api.example:'), { name: 'api.example' });
  assert.deepEqual(parseHost('[::1]:80'), { name: '::1', port: '80' });
  assert.deepEqual(parseHost('127.0.0.1:08080'), { name: '127.0.0.1', port: '8080' });
  for (const bad of ['', ':80', 'a:b', 'a:1:2', '[::1', '[x]:80', 'a:65536', 'a:0', 'a:123456', 'x'.repeat(301)]) assert.equal(parseHost(bad), undefined, bad);
  // Linear in the length: a long value is refused at once, never scanned by a pattern.
  assert.equal(parseHost(`${'9'.repeat(4_000_000)}x`), undefined);
});

test('a connection that changes its Host is judged afresh on each change (the per-connection answer is only reused for the same Host)', () => {
  const policy = new OriginPolicy({});
  const socket = { localAddress: '127.0.0.1', localPort: 8080 };
  const ctx = (host: string) => ({ get: () => host, req: { socket }, protocol: 'http' }) as unknown as Parameters<OriginPolicy['resolve']>[0];
  assert.equal(policy.resolve(ctx('127.0.0.1:8080'))?.origin, 'http://127.0.0.1:8080');
  assert.equal(policy.resolve(ctx('evil.example')), undefined);
  assert.equal(policy.resolve(ctx('evil.example')), undefined);
  assert.deepEqual(policy.resolve(ctx('localhost:9000')), { origin: 'http://localhost:9000', atListeningPort: false });
  assert.equal(policy.resolve(ctx('127.0.0.1:8080'))?.origin, 'http://127.0.0.1:8080');
});

test('allowedHosts: names or addresses without a port', () => {
  assert.deepEqual(loadSettings(undefined, { allowedHosts: ['API.example.test', '[::1]', '10.0.0.5'] }).allowedHosts, ['api.example.test', '::1', '10.0.0.5']);
  for (const bad of ['api.example.test:8080', 'http://api.example.test', '-x.test', 'a..b', '']) assert.throws(() => loadSettings(undefined, { allowedHosts: [bad] }), ConfigError, bad);
});

test('a public base URL whose path is not the base path is refused at start', () => {
  assert.throws(() => loadSettings(undefined, { publicBaseUrl: 'https://api.example.test/other' }), ConfigError);
  assert.throws(() => loadSettings(undefined, { publicBaseUrl: 'ftp://api.example.test/v7.3/api' }), ConfigError);
  assert.equal(loadSettings(undefined, { publicBaseUrl: 'https://api.example.test/v7.3/api/' }).publicOrigin, 'https://api.example.test');
});
