import { createServer, connect, type AddressInfo, type Server, type Socket } from 'node:net';
import { PortFront } from './front.js';

/**
 * A deployment `roundTripMs` away, as a network makes it (issue #24 point 5): a TCP proxy that
 * delivers every chunk half a round trip after it arrived, in each direction, in order, and
 * changes nothing else. Opening a connection costs one round trip, as a TCP handshake does: the
 * client's first bytes go out a whole round trip after it connected, and arrive half a round
 * trip later.
 *
 * The HTTP proxy it replaces for this measurement (latency.ts through DeviatingProxy) parsed and
 * re-sent every exchange: 17 CPU-seconds of a 91-second certification at 40 ms on two cores,
 * where the suites' workers and the deployment are CPU-bound. Bytes and timers cost far less,
 * and a distant deployment costs this machine no proxy at all.
 *
 * Requests are counted by method where a chunk from the client starts with a request line: the
 * suites' clients keep connections alive and send one request at a time, so each request's
 * first chunk starts with its method (a client that pipelined requests would be counted less).
 */
export class DelayProxy extends PortFront {
  /** Upstream connections that failed, and connections that ended in an error: a run with any measures the proxy. */
  readonly errors: string[] = [];
  /** Requests by method (see above). */
  readonly exchanges = new Map<string, number>();
  private readonly sockets = new Set<Socket>();

  private constructor(private readonly servers: Server[], ports: Map<number, number>, readonly roundTripMs: number) {
    super(ports, 'delay proxy');
  }

  /** One listener per upstream port, on a free loopback port. */
  static async start(upstreamPorts: readonly number[], roundTripMs: number): Promise<DelayProxy> {
    const ports = new Map<number, number>();
    const servers: Server[] = [];
    const proxy = new DelayProxy(servers, ports, roundTripMs);
    for (const upstreamPort of new Set(upstreamPorts)) {
      // Half-open connections, so that each side's end travels with the same delay as its data.
      const server = createServer({ allowHalfOpen: true }, (client) => proxy.pair(client, upstreamPort));
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(0, '127.0.0.1', () => resolve());
      });
      servers.push(server);
      ports.set(upstreamPort, (server.address() as AddressInfo).port);
    }
    return proxy;
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await Promise.all(this.servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
  }

  /** Joins a client connection to a new upstream connection, each direction delayed. */
  private pair(client: Socket, upstreamPort: number): void {
    const upstream = connect({ port: upstreamPort, host: '127.0.0.1', allowHalfOpen: true });
    const half = this.roundTripMs / 2;
    // The handshake's round trip: the first bytes leave the client a round trip after it connected.
    const opened = Date.now() + this.roundTripMs;
    const toUpstream = new DelayedPipe(upstream, () => Math.max(Date.now(), opened) + half);
    const toClient = new DelayedPipe(client, () => Date.now() + half);
    for (const s of [client, upstream]) {
      this.sockets.add(s);
      s.setNoDelay(true);
      s.on('close', () => this.sockets.delete(s));
    }
    client.on('data', (chunk: Buffer) => { this.count(chunk); toUpstream.send(chunk); });
    upstream.on('data', (chunk: Buffer) => toClient.send(chunk));
    // A side that ends ends the other once what it sent has arrived; an error drops both at once.
    client.on('end', () => toUpstream.end());
    upstream.on('end', () => toClient.end());
    const fail = (side: string) => (err: NodeJS.ErrnoException) => {
      // A peer that closed its end of a kept-alive connection (reset) is no failure of the proxy.
      if (err.code !== 'ECONNRESET' && err.code !== 'EPIPE') this.errors.push(`${side} of upstream port ${upstreamPort}: ${err.message}`);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', fail('client side'));
    upstream.on('error', fail('upstream side'));
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => toClient.end());
  }

  private count(chunk: Buffer): void {
    const method = /^(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS) /.exec(chunk.subarray(0, 8).toString('latin1'))?.[1];
    if (method) this.exchanges.set(method, (this.exchanges.get(method) ?? 0) + 1);
  }
}

/**
 * Chunks written to a socket each at its due time, in the order they came: one timer for the
 * head of the queue, never one per chunk.
 */
class DelayedPipe {
  private readonly queue: { due: number; chunk: Buffer | 'end' }[] = [];
  private timer: NodeJS.Timeout | undefined;
  private ended = false;

  constructor(private readonly to: Socket, private readonly dueTime: () => number) {}

  send(chunk: Buffer): void {
    if (!this.ended) this.push(chunk);
  }

  /** The sending side ended (or closed): once what it sent has arrived, so does the end. */
  end(): void {
    if (!this.ended) this.push('end');
    this.ended = true;
  }

  private push(chunk: Buffer | 'end'): void {
    const due = this.dueTime();
    // Due now with nothing before it (a round trip of 0): written at once, since a timer waits
    // a millisecond at least, two per exchange.
    if (!this.queue.length && due <= Date.now()) this.write(chunk);
    else this.queue.push({ due, chunk });
    this.schedule();
  }

  private write(chunk: Buffer | 'end'): void {
    if (this.to.destroyed || this.to.writableEnded) return;
    if (chunk === 'end') this.to.end();
    else this.to.write(chunk);
  }

  private schedule(): void {
    if (this.timer || !this.queue.length) return;
    this.timer = setTimeout(() => this.flush(), Math.max(0, this.queue[0].due - Date.now()));
  }

  private flush(): void {
    this.timer = undefined;
    const now = Date.now();
    while (this.queue.length && this.queue[0].due <= now) this.write(this.queue.shift()!.chunk);
    this.schedule();
  }
}
