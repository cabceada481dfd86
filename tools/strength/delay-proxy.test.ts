import assert from 'node:assert/strict';
import { Agent, createServer, request, type Server } from 'node:http';
import { connect, createServer as createTcpServer, type AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { DelayProxy } from './delay-proxy.js';

/**
 * The delay proxy is what --remote-latency measures certification through: it must hold each
 * direction at least half the round trip (and a new connection a round trip more), change no
 * byte, keep the order of what it carries, and pass ends and failures on. Only lower bounds on
 * time are asserted: a loaded machine makes everything slower, never faster.
 */
const RTT = 60;
let upstream: Server;
let upstreamPort: number;

before(async () => {
  upstream = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'x-method': req.method, 'x-host': req.headers.host ?? '' });
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', () => resolve()));
  upstreamPort = (upstream.address() as AddressInfo).port;
});

after(() => new Promise<void>((resolve) => { upstream.closeAllConnections(); upstream.close(() => resolve()); }));

function exchange(port: number, agent: Agent, method: string, body?: Buffer): Promise<{ status: number; headers: Record<string, unknown>; body: Buffer; ms: number }> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path: '/x', agent, headers: body ? { 'content-length': String(body.length) } : {} }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks), ms: performance.now() - t0 }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function withProxy(run: (proxy: DelayProxy, port: number) => Promise<void>, rtt = RTT): Promise<void> {
  const proxy = await DelayProxy.start([upstreamPort], rtt);
  try {
    await run(proxy, proxy.portFor(upstreamPort));
  } finally {
    await proxy.close();
  }
}

test('an exchange on a new connection costs two round trips (handshake and exchange), on a kept-alive one one, and its bytes arrive unchanged', async () => {
  await withProxy(async (proxy, port) => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const body = Buffer.from(Array.from({ length: 300_000 }, (_, i) => i % 251));
      const first = await exchange(port, agent, 'POST', body);
      assert.equal(first.status, 200);
      assert.ok(first.body.equals(body), 'the body comes back byte for byte');
      assert.equal(first.headers['x-host'], `127.0.0.1:${port}`, 'the Host header names the proxy, as the client sent it');
      assert.ok(first.ms >= 2 * RTT - 2, `first exchange took ${first.ms.toFixed(1)} ms, at least two round trips of ${RTT} ms expected`);
      const second = await exchange(port, agent, 'GET');
      assert.equal(second.headers['x-method'], 'GET');
      assert.ok(second.ms >= RTT - 2, `second exchange took ${second.ms.toFixed(1)} ms, at least one round trip expected`);
      assert.deepEqual(Object.fromEntries(proxy.exchanges), { POST: 1, GET: 1 });
      assert.deepEqual(proxy.errors, []);
    } finally {
      agent.destroy();
    }
  });
});

test('a round trip of 0 delays nothing and still carries every byte', async () => {
  await withProxy(async (proxy, port) => {
    const agent = new Agent({ keepAlive: true });
    try {
      const results = await Promise.all(Array.from({ length: 20 }, (_, i) => exchange(port, agent, 'PUT', Buffer.from(`body ${i}`))));
      assert.deepEqual(results.map((r) => r.body.toString()), Array.from({ length: 20 }, (_, i) => `body ${i}`));
      assert.equal(proxy.exchanges.get('PUT'), 20);
    } finally {
      agent.destroy();
    }
  }, 0);
});

test('chunks keep their order, and a half-closed side ends the other after its data', async () => {
  // A raw TCP upstream that echoes, then ends when the client ends.
  const echo = createTcpServer({ allowHalfOpen: true }, (s) => { s.on('data', (c) => s.write(c)); s.on('end', () => s.end()); });
  await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', () => resolve()));
  const echoPort = (echo.address() as AddressInfo).port;
  const proxy = await DelayProxy.start([echoPort], 20);
  try {
    const socket = connect({ port: proxy.portFor(echoPort), host: '127.0.0.1', allowHalfOpen: true });
    const received: Buffer[] = [];
    socket.on('data', (c: Buffer) => received.push(c));
    const ended = new Promise<void>((resolve) => socket.on('end', () => resolve()));
    const sent = Array.from({ length: 50 }, (_, i) => `<${i}>`);
    for (const part of sent) socket.write(part);
    socket.end();
    await ended;
    assert.equal(Buffer.concat(received).toString(), sent.join(''));
    socket.destroy();
  } finally {
    await proxy.close();
    await new Promise<void>((resolve) => echo.close(() => resolve()));
  }
});

test('an upstream that refuses the connection is an error of the proxy, and the client is dropped', async () => {
  const closed = createTcpServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', () => resolve()));
  const deadPort = (closed.address() as AddressInfo).port;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  const proxy = await DelayProxy.start([deadPort], 10);
  try {
    const agent = new Agent({ keepAlive: false });
    await assert.rejects(exchange(proxy.portFor(deadPort), agent, 'GET'));
    assert.equal(proxy.errors.length, 1);
    assert.match(proxy.errors[0], /upstream side of upstream port \d+: .*ECONNREFUSED/);
  } finally {
    await proxy.close();
  }
});

test('urlFor names the proxy in front of the URL\'s port; an unknown port is refused', async () => {
  await withProxy(async (proxy, port) => {
    assert.equal(proxy.urlFor(`http://127.0.0.1:${upstreamPort}/data/v3?x=1`), `http://127.0.0.1:${port}/data/v3?x=1`);
    assert.throws(() => proxy.urlFor('http://127.0.0.1:1/'), /no listener for upstream port 1/);
  });
});
