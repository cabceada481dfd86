/**
 * The suites' HTTP client (http.ts) sends what Playwright's APIRequestContext sent, which the
 * suites used before it: each case goes through both, to a server that records what arrived,
 * and the two must agree byte for byte (but for User-Agent) and read the same answers.
 */
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { after, before, test } from 'node:test';
import { request as playwrightRequest, type APIRequestContext } from '@playwright/test';
import { httpClient, USER_AGENT, type HttpClient, type RequestOptions } from '../http.js';

interface Arrived { method: string; url: string; headers: Record<string, string>; body: string }
const arrived: Arrived[] = [];
let server: Server;
let base = '';
let other = '';
/** The connections that asked for /drop-reused once: the next request on one is cut off unanswered. */
const dropOnReuse = new Set<unknown>();

const record = (req: IncomingMessage, body: string) => {
  const headers: Record<string, string> = {};
  for (let i = 0; i < req.rawHeaders.length; i += 2) if (!/^(user-agent|connection|host)$/i.test(req.rawHeaders[i])) headers[req.rawHeaders[i].toLowerCase()] = req.rawHeaders[i + 1];
  arrived.push({ method: req.method!, url: req.url!, headers, body });
};

before(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      if (dropOnReuse.has(req.socket)) return void req.socket.destroy();
      record(req, body);
      const path = req.url!;
      if (path === '/drop-reused') { dropOnReuse.add(req.socket); return void res.end('first'); }
      if (path.startsWith('/redirect/')) {
        const [, , status, to] = path.split('/');
        return void res.writeHead(Number(status), { Location: decodeURIComponent(to) }).end();
      }
      if (path === '/gzip') return void res.writeHead(200, { 'Content-Encoding': 'gzip', 'Content-Type': 'application/json' }).end(gzipSync('{"a":"é"}'));
      if (path === '/br') return void res.writeHead(200, { 'Content-Encoding': 'br', 'Content-Type': 'application/json' }).end(brotliCompressSync('{"b":[1,2]}'));
      if (path === '/repeated') {
        res.setHeader('X-Twice', ['one', 'two']);
        res.setHeader('Set-Cookie', ['a=1', 'b=2']);
        return void res.writeHead(299, 'Odd').end('\ufeffbom');
      }
      res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8' }).end(JSON.stringify({ ok: true }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  other = `http://localhost:${(server.address() as AddressInfo).port}`;
});
after(() => server.close());

const JSON_TYPE = { 'Content-Type': 'application/json' };
const cases: [string, string, RequestOptions][] = [
  ['a GET', '/plain?x=1&y=%20', {}],
  ['headers named in any case, the last one winning', '/h', { headers: { ACCEPT: 'text/plain', 'X-One': 'a', Authorization: 'Bearer t' } }],
  ['an object as JSON', '/o', { method: 'POST', data: { a: 1, b: ['é'] } }],
  ['an object under a Content-Type of its own', '/o2', { method: 'PUT', data: { a: 1 }, headers: { 'content-type': 'application/json; charset=utf-8' } }],
  ['a JSON string under a JSON Content-Type, as it is', '/s1', { method: 'POST', data: '{"a": 1}', headers: JSON_TYPE }],
  ['a string that is not JSON under a JSON Content-Type, as a JSON string', '/s2', { method: 'POST', data: '{"a":', headers: JSON_TYPE }],
  ['a string with no Content-Type', '/s3', { method: 'POST', data: 'plain text' }],
  ['a string under another Content-Type', '/s4', { method: 'POST', data: '<x/>', headers: { 'Content-Type': 'application/xml' } }],
  ['a Buffer', '/b', { method: 'POST', data: Buffer.from([0xff, 0x00, 0x41]) }],
  ['a number', '/n', { method: 'POST', data: 5 }],
  ['a form', '/f', { method: 'POST', form: { grant_type: 'client_credentials', n: 1, yes: true } }],
  ['an empty string', '/e', { method: 'POST', data: '', headers: JSON_TYPE }],
  ['a DELETE', '/d', { method: 'delete' }],
  ['a HEAD', '/head', { method: 'HEAD' }],
  ['a 302 after a POST, as a GET without body', `/redirect/302/${encodeURIComponent('/landed')}`, { method: 'POST', data: { a: 1 } }],
  ['a 303 after a PUT, as a GET', `/redirect/303/${encodeURIComponent('/landed')}`, { method: 'PUT', data: { a: 1 } }],
  ['a 307 after a POST, as the same POST', `/redirect/307/${encodeURIComponent('/landed')}`, { method: 'POST', data: { a: 1 }, headers: { Authorization: 'Bearer t' } }],
  ['a redirect to another origin, without Authorization', '/to-other', { headers: { Authorization: 'Bearer t' } }],
  ['a redirect not followed', `/redirect/301/${encodeURIComponent('/landed')}`, { maxRedirects: 0 }],
  ['a gzip answer', '/gzip', {}],
  ['a br answer', '/br', {}],
  ['repeated headers and an odd status', '/repeated', {}],
];

/** What the server received for one request, and what the client read of the answer. */
async function exchange(client: HttpClient | APIRequestContext, path: string, options: RequestOptions) {
  arrived.length = 0;
  const url = path === '/to-other' ? `${base}/redirect/302/${encodeURIComponent(`${other}/landed`)}` : `${base}${path}`;
  const res = await (client as HttpClient).fetch(url, options);
  const headers = res.headers();
  delete headers.date;
  delete headers['keep-alive'];
  delete headers.connection;
  return { sent: [...arrived], status: res.status(), statusText: res.statusText(), ok: res.ok(), url: res.url(), headers, text: await res.text() };
}

test('every request goes out as Playwright sent it, and every answer reads as Playwright read it', async () => {
  const ours = httpClient({ Accept: 'application/json' });
  const theirs = await playwrightRequest.newContext({ extraHTTPHeaders: { Accept: 'application/json' } });
  try {
    for (const [what, path, options] of cases) {
      const expected = await exchange(theirs, path, options);
      assert.deepEqual(await exchange(ours, path, options), expected, what);
    }
  } finally {
    await theirs.dispose();
    await ours.dispose();
  }
});

test('names itself, and sends Accept */* when the client adds no header', async () => {
  const ours = httpClient();
  let agent: string | undefined;
  let accept: string | undefined;
  const probe = createServer((req, res) => { agent = req.headers['user-agent']; accept = req.headers.accept; res.end(); });
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  try {
    await ours.get(`http://127.0.0.1:${(probe.address() as AddressInfo).port}/`);
    assert.equal(agent, USER_AGENT);
    assert.equal(accept, '*/*');
  } finally {
    probe.close();
    await ours.dispose();
  }
});

test('a redirect chain longer than maxRedirects fails, naming why', async () => {
  const ours = httpClient();
  try {
    await assert.rejects(ours.get(`${base}/redirect/302/${encodeURIComponent('/redirect/302/%2Flanded')}`, { maxRedirects: 1 }), /Max redirect count exceeded/);
  } finally {
    await ours.dispose();
  }
});

test('a request on a kept-alive connection the server cut off unanswered is sent again on a new one; a new connection cut off is an error', async () => {
  const ours = httpClient();
  try {
    assert.equal(await (await ours.get(`${base}/drop-reused`)).text(), 'first');
    const again = await ours.get(`${base}/after-drop`);
    assert.equal(again.status(), 200);
    assert.deepEqual(arrived.map((a) => a.url).slice(-1), ['/after-drop']);
  } finally {
    await ours.dispose();
  }
  const fresh = httpClient();
  const cutting = createServer((req) => req.socket.destroy());
  await new Promise<void>((r) => cutting.listen(0, '127.0.0.1', r));
  try {
    await assert.rejects(fresh.get(`http://127.0.0.1:${(cutting.address() as AddressInfo).port}/`), /socket hang up|ECONNRESET/);
  } finally {
    cutting.close();
    await fresh.dispose();
  }
});

test("an idle connection is closed before the server's announced keep-alive timeout, so it is never reused as the server closes it", async () => {
  const ours = httpClient();
  let connections = 0;
  const hinting = createServer((req, res) => res.end('x'));
  hinting.keepAliveTimeout = 2_000; // announced as Keep-Alive: timeout=2; the client closes after 1 s idle
  hinting.on('connection', () => { connections++; });
  await new Promise<void>((r) => hinting.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(hinting.address() as AddressInfo).port}/`;
  try {
    await ours.get(url);
    await ours.get(url);
    assert.equal(connections, 1, 'a connection in use within the hint is kept');
    await new Promise((r) => setTimeout(r, 1_500));
    assert.equal((await ours.get(url)).status(), 200);
    assert.equal(connections, 2, 'after a second idle, a new connection');
  } finally {
    hinting.close();
    await ours.dispose();
  }
});
