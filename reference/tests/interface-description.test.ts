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

test('the document is serialised once per start-up; each origin only spliced in, and the origins kept are bounded', () => {
  const descriptions = new InterfaceDescriptions({ openapi: '3.0.1', servers: [{ url: 'x' }], paths: { '/a': {} } }, '/v7.3/api', 2);
  const a = descriptions.get('http://a.test');
  assert.equal(descriptions.get('http://a.test'), a, 'the same entry again');
  assert.deepEqual(JSON.parse(a.identity.toString()), { servers: [{ url: 'http://a.test/v7.3/api' }], openapi: '3.0.1', paths: { '/a': {} } });
  const b = descriptions.get('http://b.test');
  assert.notEqual(b.etag, a.etag, 'another origin is another document');
  for (const o of ['c', 'd', 'e']) descriptions.get(`http://${o}.test`);
  assert.equal(descriptions.serialisations, 1);
  assert.notEqual(descriptions.get('http://a.test'), a, 'evicted beyond the bound, rebuilt on demand');
});
