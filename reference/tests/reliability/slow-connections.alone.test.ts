import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { test } from 'node:test';
import { startChildReference } from '../../../tools/child-reference.js';

/**
 * Slow and stalled clients cannot hold sockets (issue 15 point 3): with the header and request
 * deadlines configured short, sockets that trickle headers (slowloris), send nothing, or send an
 * endless chunked body are closed by the server, while normal requests keep being served
 * meanwhile. What is asserted is who closed them and that it was the configured deadlines (the
 * defaults are 20 s and 60 s; this client gives up at ten seconds), not how close to the deadline:
 * that depends on how loaded the machine is (issue 23 point 11).
 */
const HEADERS_MS = 1000;
const REQUEST_MS = 2000;
const SLOW = 160;
const SILENT = 30;
const ENDLESS = 10;
const BATCH = 20;
/** Far beyond the configured deadlines (what a loaded machine adds), well below the 20 s and 60 s defaults. */
const GIVE_UP_MS = 10_000;

test(`${SLOW + SILENT + ENDLESS} slow sockets are closed within the configured deadlines while normal requests are served`, async (t) => {
  // No background validator warm-up: with the whole data standard it keeps the loop busy for
  // seconds after start-up, which is not what these timings are about.
  const child = await startChildReference({ config: { warmValidators: false, clients: [{ key: 'k', secret: 's' }], connections: { headersTimeoutMs: HEADERS_MS, requestTimeoutMs: REQUEST_MS, keepAliveTimeoutMs: 1000 } } });
  const { hostname, port, pathname } = new URL(child.dataApiBaseUrl);
  const timers: NodeJS.Timeout[] = [];
  try {
    // Past the validators the reference compiles right after start-up, which would delay it.
    for (const until = Date.now() + 3000; Date.now() < until;) await (await fetch(`${child.dataApiBaseUrl}/`)).arrayBuffer();
    const open = (kind: string, start: (s: Socket) => void) => new Promise<{ kind: string; socket: Socket; closed: Promise<number>; byServer: () => boolean }>((resolve, reject) => {
      let byServer = false;
      const socket = connect(Number(port), hostname, () => {
        const opened = Date.now();
        const closed = new Promise<number>((done) => socket.once('close', () => done(Date.now() - opened)));
        start(socket);
        resolve({ kind, socket, closed, byServer: () => byServer });
      });
      // The server's end of the connection: its FIN, or a reset (a close too). Whatever it sends
      // first (a 408) is read and dropped, so that its FIN is seen ('end' waits for the data).
      socket.resume();
      socket.on('end', () => { byServer = true; });
      socket.on('error', () => { byServer = true; });
      socket.once('error', reject);
    });
    const trickle = (s: Socket, text: (i: number) => string) => {
      let i = 0;
      const t = setInterval(() => { if (!s.destroyed) s.write(text(i++)); }, 400);
      timers.push(t);
      s.once('close', () => clearInterval(t));
    };
    // A new connection (never one kept alive), so that its answer comes after its own accept.
    const answeredOnNewConnection = () => new Promise<void>((resolve, reject) => {
      const s = connect(Number(port), hostname, () => s.write(`GET ${pathname}/ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`));
      s.once('data', () => { s.destroy(); resolve(); });
      s.once('error', reject);
    });
    const kinds: [string, (s: Socket) => void][] = [
      ...Array.from({ length: SILENT }, (): [string, (s: Socket) => void] => ['silent', () => undefined]),
      ...Array.from({ length: SLOW }, (): [string, (s: Socket) => void] => ['slowloris', (s) => { s.write(`GET ${pathname}/ HTTP/1.1\r\nHost: x\r\n`); trickle(s, (i) => `X-Slow-${i}: 1\r\n`); }]),
      ...Array.from({ length: ENDLESS }, (): [string, (s: Socket) => void] => ['endless body', (s) => {
        s.write(`POST ${pathname}/oauth/token HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\n\r\n`);
        trickle(s, () => '1\r\na\r\n');
      }]),
    ];
    // Opened in batches smaller than any listen backlog, each followed by a served request: the
    // accept queue is first in, first out, so that answer means the batch has been accepted. All
    // at once, a busy server's full accept queue drops handshakes, and a silent client whose
    // handshake the kernel dropped is connected only on its side until the SYN-ACK is resent
    // (1, 3, 7, 15 s later): time the server never held the socket (measured: 200 at once with
    // somaxconn 16 under load, sockets closed 10 s after their client's connect).
    const sockets: Awaited<ReturnType<typeof open>>[] = [];
    for (let i = 0; i < kinds.length; i += BATCH) {
      sockets.push(...await Promise.all(kinds.slice(i, i + BATCH).map(([kind, start]) => open(kind, start))));
      await answeredOnNewConnection();
    }
    // Normal requests meanwhile, each on a fresh connection, until every slow socket is gone.
    let served = 0;
    let allClosed = false;
    const closings = Promise.all(sockets.map((s) => s.closed)).then((ms) => { allClosed = true; return ms; });
    // This client's own limit: far beyond the configured deadlines, well below the defaults.
    const limit = setTimeout(() => { for (const s of sockets) s.socket.destroy(); }, GIVE_UP_MS);
    while (!allClosed) {
      const res = await fetch(`${child.dataApiBaseUrl}/`, { headers: { Connection: 'close' } });
      assert.equal(res.status, 200);
      await res.arrayBuffer();
      served++;
      // Paced, so that this process notices the slow sockets' closing when it happens.
      await new Promise((r) => setTimeout(r, 25));
    }
    clearTimeout(limit);
    const lifetimes = await closings;
    const longest = (kind: string) => Math.max(...lifetimes.filter((_, i) => sockets[i].kind === kind));
    t.diagnostic(`longest lifetimes: slowloris ${longest('slowloris')} ms, silent ${longest('silent')} ms (headers deadline ${HEADERS_MS} ms); endless body ${longest('endless body')} ms (request deadline ${REQUEST_MS} ms)`);
    for (const kind of ['slowloris', 'silent', 'endless body']) {
      const keptOpen = sockets.filter((s) => s.kind === kind && !s.byServer()).length;
      assert.equal(keptOpen, 0, `${kind}: ${keptOpen} sockets were still open when this client gave up after ${GIVE_UP_MS} ms`);
    }
    assert.ok(served >= 5, `normal requests were served meanwhile (${served})`);
  } finally {
    for (const t of timers) clearInterval(t);
    await child.stop();
  }
});
