import assert from 'node:assert/strict';
import { createPrivateKey, generateKeyPairSync } from 'node:crypto';
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { SignJWT, decodeJwt, decodeProtectedHeader } from 'jose';
import { DeviatingProxy, Tokens, type ProxiedRequest, type Route, type Transformer } from './proxy.js';

/**
 * The proxy without a fault is transparent (what the strength run's clean pass relies on), and a
 * fault changes exactly what it says.
 */
interface Seen { method: string; url: string; headers: IncomingHttpHeaders; body: string }

let upstream: Server;
let upstreamPort: number;
let seen: Seen[] = [];
const pem = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const tokens = new Tokens(pem);

before(async () => {
  upstream = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks).toString() });
      res.writeHead(201, { 'content-type': 'application/json; charset=utf-8', location: `http://${req.headers.host}/items/1`, etag: '"e1"' });
      res.end(JSON.stringify({ ok: true }));
    });
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', () => resolve()));
  upstreamPort = (upstream.address() as AddressInfo).port;
});

after(() => new Promise<void>((resolve) => upstream.close(() => resolve())));

const route = (): Route => ({ service: 'data', flow: 'single', upstreamPort });

/** Sends exactly these bytes through the proxy (no header added by a client library). */
function send(port: number, method: string, path: string, headers: Record<string, string>, body?: string): Promise<{ status: number; headers: IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers: { ...headers, ...(body !== undefined ? { 'content-length': String(Buffer.byteLength(body)) } : {}) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString() }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function withProxy(transformer: Transformer, run: (port: number, proxy: DeviatingProxy) => Promise<void>): Promise<void> {
  const proxy = await DeviatingProxy.start([route()], transformer, { tokens, clients: {} });
  try {
    await run(proxy.portFor(upstreamPort), proxy);
  } finally {
    await proxy.close();
  }
}

test('without a fault the proxy passes the exchange through unchanged, Host included', async () => {
  seen = [];
  await withProxy({}, async (port, proxy) => {
    const res = await send(port, 'POST', '/v7.3/api/data/v3/core/a%2Fb?x=1&X=2&x=%00', { accept: 'application/json' }, 'not json');
    assert.deepEqual(seen.map((s) => [s.method, s.url, s.body, s.headers['content-type']]), [['POST', '/v7.3/api/data/v3/core/a%2Fb?x=1&X=2&x=%00', 'not json', undefined]]);
    assert.equal(seen[0].headers.host, `127.0.0.1:${port}`);
    assert.equal(res.status, 201);
    assert.equal(res.headers.location, `http://127.0.0.1:${port}/items/1`);
    assert.equal(res.headers.etag, '"e1"');
    assert.equal(res.body, '{"ok":true}');
    assert.deepEqual(proxy.errors, []);
    assert.equal(proxy.urlFor(`http://127.0.0.1:${upstreamPort}/v7.3/api`), `http://127.0.0.1:${port}/v7.3/api`);
  });
});

test('a fault rewrites the request and the response as it says, and can answer by itself', async () => {
  seen = [];
  const fault: Transformer = {
    request: (req) => {
      if (req.url.startsWith('/answer')) return { status: 405, headers: { allow: 'GET' }, body: Buffer.from('no') };
      delete req.headers['if-match'];
    },
    response: (res) => { res.status = 200; delete res.headers.etag; },
  };
  await withProxy(fault, async (port) => {
    const res = await send(port, 'PUT', '/x', { 'if-match': '"e0"', 'content-type': 'application/json' }, '{}');
    assert.equal(seen[0].headers['if-match'], undefined);
    assert.equal(res.status, 200);
    assert.equal(res.headers.etag, undefined);
    const own = await send(port, 'GET', '/answer', {});
    assert.deepEqual([own.status, own.headers.allow, own.body, seen.length], [405, 'GET', 'no', 1]);
  });
});

test('a transformer that throws is a proxy error (502), never a silent pass', async () => {
  await withProxy({ request: () => { throw new Error('broken fault'); } }, async (port, proxy) => {
    assert.equal((await send(port, 'GET', '/x', {})).status, 502);
    assert.equal(proxy.errors.length, 1);
    assert.match(proxy.errors[0], /broken fault/);
  });
});

test('tokens are re-signed only when they verify with the issuer key', async () => {
  const own = await tokens.sign({ client_id: 'a', exp: Math.floor(Date.now() / 1000) - 60 });
  const foreignPem = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const foreign = await new Tokens(foreignPem).sign({ client_id: 'a', exp: 1 });
  const req = (token: string): ProxiedRequest => ({ route: route(), method: 'GET', url: '/', headers: { authorization: `Bearer ${token}` }, body: Buffer.alloc(0) });
  const expire = (c: { exp?: number }) => Boolean((c.exp = 4102444800));

  const signed = req(own);
  assert.equal(await tokens.rewrite(signed, expire), true, 'an expired token of the issuer verifies (expiry is not looked at)');
  assert.equal(decodeJwt(Tokens.bearer(signed)!).exp, 4102444800);
  const other = req(foreign);
  assert.equal(await tokens.rewrite(other, expire), false);
  assert.equal(Tokens.bearer(other), foreign);
  const unsigned = req(`${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from('{"client_id":"a"}').toString('base64url')}.`);
  assert.equal(await tokens.rewrite(unsigned, () => true), false);
  assert.equal(await tokens.rewrite(unsigned, () => true, { unsigned: true }), true);
  assert.equal(tokens.decode(Tokens.bearer(unsigned)!)?.alg, 'RS256');
});

test('a token of another trusted key (the test issuer) is rewritten and re-signed with that key, not the issuer\'s', async () => {
  const testIssuerPem = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const trusting = new Tokens(pem, testIssuerPem);
  const crafted = await new Tokens(testIssuerPem).sign({ client_id: 'a', odsInstanceId: 7 });
  const req: ProxiedRequest = { route: route(), method: 'GET', url: '/', headers: { authorization: `Bearer ${crafted}` }, body: Buffer.alloc(0) };
  assert.equal(await tokens.rewrite({ ...req, headers: { ...req.headers } }, () => true), false, 'the issuer alone does not trust it');
  assert.equal(await trusting.rewrite(req, (c) => delete c.odsInstanceId), true);
  const rewritten = Tokens.bearer(req)!;
  assert.equal(decodeJwt(rewritten).odsInstanceId, undefined);
  assert.ok(await new Tokens(testIssuerPem).signed(rewritten), 'verifies with the test issuer\'s key');
  assert.equal(await trusting.signed(rewritten), undefined, 'signed() still answers for the issuer\'s key alone');
});

test('a token under another RSA algorithm is re-signed RS256 with the trusted key that signed it', async () => {
  const testIssuerPem = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const trusting = new Tokens(pem, testIssuerPem);
  const ps256 = await new SignJWT({ client_id: 'a' }).setProtectedHeader({ alg: 'PS256' }).sign(createPrivateKey(testIssuerPem));
  assert.equal(await trusting.resignedFrom(ps256, ['RS256']), undefined, 'only under the algorithms given');
  const resigned = await trusting.resignedFrom(ps256, ['PS256']);
  assert.equal(resigned && decodeProtectedHeader(resigned).alg, 'RS256');
  assert.ok(resigned && await new Tokens(testIssuerPem).signed(resigned), 'with the test issuer\'s key');
});
