import assert from 'node:assert/strict';
import { request } from 'node:http';
import { test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { InterfaceDescriptions } from '../data-api/interface-description.js';
import { startForTest } from './helpers.js';

/**
 * The interface description is built once per start-up and served with an ETag and compression
 * (issue 15 point 2): an anonymous request for it costs a lookup, not a rebuild.
 */
const raw = (url: string, headers: Record<string, string>) => new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
  request(url, { headers }, (res) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
  }).on('error', reject).end();
});

test('served with a stable ETag, 304 for If-None-Match, gzip or brotli when accepted, naming its own server', async () => {
  const ref = await startForTest();
  try {
    const url = `${ref.dataApiBaseUrl}/metadata/data/v3/resources/swagger.json`;
    const first = await raw(url, {});
    assert.equal(first.status, 200);
    const etag = first.headers.etag as string;
    assert.match(etag, /^"[^"]+"$/);
    const doc = JSON.parse(first.body.toString()) as { openapi: string; servers: { url: string }[]; paths: object };
    assert.deepEqual(doc.servers, [{ url: `${ref.dataApiBaseUrl}/data/v3` }]);
    assert.ok(doc.openapi && Object.keys(doc.paths).length);
    assert.equal((await raw(url, {})).headers.etag, etag, 'the same ETag on the next request');
    const again = await raw(url, { 'If-None-Match': etag });
    assert.equal(again.status, 304);
    assert.equal(again.body.length, 0);
    const zipped = await raw(url, { 'Accept-Encoding': 'gzip' });
    assert.equal(zipped.headers['content-encoding'], 'gzip');
    assert.match(String(zipped.headers.vary), /accept-encoding/i);
    assert.ok(zipped.body.length < first.body.length / 4, `compressed ${zipped.body.length} of ${first.body.length} bytes`);
    assert.deepEqual(gunzipSync(zipped.body), first.body);
    const br = await raw(url, { 'Accept-Encoding': 'br;q=1, gzip;q=0.5' });
    assert.equal(br.headers['content-encoding'], 'br');
  } finally {
    await ref.close();
  }
});

test('304 for a matching If-None-Match whatever Cache-Control says (what fetch and browsers send on revalidation)', async () => {
  const ref = await startForTest();
  try {
    const url = `${ref.dataApiBaseUrl}/metadata/data/v3/descriptors/swagger.json`;
    const etag = (await raw(url, {})).headers.etag as string;
    for (const cacheControl of ['no-cache', 'max-age=0', 'no-store', 'no-cache, no-store']) {
      for (const ifNoneMatch of [etag, etag.slice(1, -1), `W/${etag}`, `"x", ${etag}`, '*']) {
        const res = await raw(url, { 'If-None-Match': ifNoneMatch, 'Cache-Control': cacheControl, Pragma: 'no-cache' });
        assert.equal(res.status, 304, `If-None-Match ${ifNoneMatch}, Cache-Control ${cacheControl}`);
        assert.equal(res.body.length, 0);
        assert.equal(res.headers.etag, etag);
      }
    }
    const other = await raw(url, { 'If-None-Match': '"another"', 'Cache-Control': 'no-cache' });
    assert.equal(other.status, 200);
  } finally {
    await ref.close();
  }
});

test('a varying Host costs no compression: foreign names are refused, an accepted name at another port is served uncompressed', async () => {
  const ref = await startForTest({ allowedHosts: ['api.example.test'] });
  try {
    const { pathname, port } = new URL(ref.dataApiBaseUrl);
    const url = `${ref.dataApiBaseUrl}/metadata/data/v3/resources/swagger.json`;
    const encodings: string[] = [];
    for (let i = 0; i < 20; i++) {
      const foreign = await raw(url, { Host: `h${i}.example`, 'Accept-Encoding': 'br' });
      assert.equal(foreign.status, 400, `Host h${i}.example`);
      const elsewhere = await raw(url, { Host: `127.0.0.1:${10_000 + i}`, 'Accept-Encoding': 'br, gzip' });
      assert.equal(elsewhere.status, 200);
      assert.equal((JSON.parse(elsewhere.body.toString()) as { servers: { url: string }[] }).servers[0].url, `http://127.0.0.1:${10_000 + i}${pathname}/data/v3`);
      encodings.push(String(elsewhere.headers['content-encoding'] ?? 'identity'));
    }
    assert.deepEqual([...new Set(encodings)], ['identity'], 'twenty ports, no compression');
    // The origins the deployment serves at its own port are compressed (once each, kept).
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `api.example.test:${port}`, 'api.example.test']) {
      const res = await raw(url, { Host: host, 'Accept-Encoding': 'br' });
      assert.equal(res.headers['content-encoding'], 'br', host);
    }
  } finally {
    await ref.close();
  }
});

test('the document is serialised once per start-up; each origin only spliced in; only kept origins are kept, within a bound', () => {
  const descriptions = new InterfaceDescriptions({ openapi: '3.0.1', servers: [{ url: 'x' }], paths: { '/a': {} } }, '/v7.3/api', 2);
  const a = descriptions.get('http://a.test');
  assert.equal(descriptions.get('http://a.test'), a, 'the same entry again');
  assert.deepEqual(JSON.parse(a.identity.toString()), { servers: [{ url: 'http://a.test/v7.3/api' }], openapi: '3.0.1', paths: { '/a': {} } });
  const passing = descriptions.get('http://a.test:1', false);
  assert.notEqual(descriptions.get('http://a.test:1', false), passing, 'not kept when not asked to');
  const b = descriptions.get('http://b.test');
  assert.notEqual(b.etag, a.etag, 'another origin is another document');
  for (const o of ['c', 'd', 'e']) descriptions.get(`http://${o}.test`);
  assert.equal(descriptions.serialisations, 1);
  assert.equal(descriptions.get('http://a.test'), a, 'the first kept stay kept');
  assert.notEqual(descriptions.get('http://c.test'), descriptions.get('http://c.test'), 'beyond the bound nothing more is kept');
});
