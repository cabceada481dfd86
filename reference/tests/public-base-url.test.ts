import assert from 'node:assert/strict';
import { request } from 'node:http';
import { test } from 'node:test';
import { ConfigError, loadSettings } from '../config/load.js';
import { startForTest } from './helpers.js';

/**
 * A configured public base URL, not the Host header, makes the absolute URLs the data API
 * hands out: Location, discovery, interface description (issue 15 point 9).
 */
const call = (url: string, method: string, headers: Record<string, string>, body?: string) => new Promise<{ status: number; location?: string; json: () => Record<string, unknown> }>((resolve, reject) => {
  const req = request(url, { method, headers }, (res) => {
    let text = '';
    res.setEncoding('utf8').on('data', (c: string) => { text += c; });
    res.on('end', () => resolve({ status: res.statusCode!, ...(res.headers.location ? { location: res.headers.location } : {}), json: () => JSON.parse(text) as Record<string, unknown> }));
  });
  req.on('error', reject);
  req.end(body);
});

const descriptor = JSON.stringify({ codeValue: 'Public', namespace: 'uri://public.test/GradeLevelDescriptor', shortDescription: 'Public' });

for (const publicBaseUrl of [undefined, 'https://api.example.test/v7.3/api']) {
  test(`Location, discovery and interface description with Host: evil.example ${publicBaseUrl ? 'use the configured public base URL' : 'follow the Host header when none is configured'}`, async () => {
    const ref = await startForTest(publicBaseUrl ? { publicBaseUrl } : {});
    try {
      const expected = publicBaseUrl ?? `http://evil.example${new URL(ref.dataApiBaseUrl).pathname}`;
      const host = { Host: 'evil.example' };
      const created = await call(`${ref.dataApiBaseUrl}/data/v3/core/gradeLevelDescriptors`, 'POST', { ...host, Authorization: `Bearer ${ref.token}`, 'Content-Type': 'application/json' }, descriptor);
      assert.equal(created.status, 201);
      assert.ok(created.location?.startsWith(`${expected}/data/v3/core/gradeLevelDescriptors/`), created.location);
      const urls = (await call(`${ref.dataApiBaseUrl}/`, 'GET', host)).json().urls as Record<string, string>;
      for (const [name, url] of Object.entries(urls)) assert.ok(url.startsWith(`${expected}/`), `${name}: ${url}`);
      const servers = (await call(`${ref.dataApiBaseUrl}/metadata/data/v3/resources/swagger.json`, 'GET', host)).json().servers;
      assert.deepEqual(servers, [{ url: `${expected}/data/v3` }]);
    } finally {
      await ref.close();
    }
  });
}

test('a public base URL whose path is not the base path is refused at start', () => {
  assert.throws(() => loadSettings(undefined, { publicBaseUrl: 'https://api.example.test/other' }), ConfigError);
  assert.throws(() => loadSettings(undefined, { publicBaseUrl: 'ftp://api.example.test/v7.3/api' }), ConfigError);
  assert.equal(loadSettings(undefined, { publicBaseUrl: 'https://api.example.test/v7.3/api/' }).publicOrigin, 'https://api.example.test');
});
