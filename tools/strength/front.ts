/**
 * What the strength tool's proxies share: one loopback listener per upstream port, and the
 * upstream URLs the target file names rewritten to the listener in front of them.
 */
export abstract class PortFront {
  protected constructor(private readonly ports: Map<number, number>, private readonly what: string) {}

  /** The proxy's port in front of an upstream port. */
  portFor(upstreamPort: number): number {
    const port = this.ports.get(upstreamPort);
    if (port === undefined) throw new Error(`${this.what}: no listener for upstream port ${upstreamPort}`);
    return port;
  }

  /** Rewrites `http://127.0.0.1:<upstream>...` to the proxy's port. */
  urlFor(url: string): string {
    return url.replace(/^(https?:\/\/[^/:]+):(\d+)/, (_, origin: string, port: string) => `${origin}:${this.portFor(Number(port))}`);
  }
}
