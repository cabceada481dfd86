import { isIP } from 'node:net';
import type { Context } from 'koa';

/** The origin a request's absolute URLs name, and whether it is one the deployment serves at its own port. */
export interface ServedOrigin {
  origin: string;
  /** The public origin, or a Host at the listening port (or none): worth keeping documents built for it. */
  atListeningPort: boolean;
}

/**
 * Which origin a service's absolute URLs (Location, discovery, interface descriptions, rostering
 * links) name. With a configured public base URL, its origin, whatever the request says. Without
 * one, the request's Host, but only when it names this service: the address the connection came
 * in on (`localhost` too on a loopback one), the configured listening host, or a name the
 * configuration allows. Any other Host, or none, gets undefined (the services answer 400): no
 * answer reflects a name the client chose, and what is kept per origin stays bounded. Names are
 * matched without their port (a proxy in front may listen on another one).
 */
export class OriginPolicy {
  private readonly names: Set<string>;
  /**
   * The last answer per connection, with the Host it was for: a keep-alive connection sends the
   * same Host on every request, and judging it again was ~1 % of a GET by id's server time (bench
   * profile). Kept with the socket, so the entries die with their connections; a request with
   * another Host on the same connection is judged afresh.
   */
  private readonly lastBySocket = new WeakMap<object, { host: string; served: ServedOrigin | undefined }>();

  constructor(private readonly opts: { publicOrigin?: string; host?: string; allowedHosts?: string[] }) {
    const host = unbracket((opts.host ?? '').toLowerCase());
    const wildcard = host === '' || host === '0.0.0.0' || host === '::';
    this.names = new Set([...(wildcard ? [] : [host]), ...(opts.allowedHosts ?? []).map((n) => unbracket(n.toLowerCase()))]);
  }

  resolve(ctx: Context): ServedOrigin | undefined {
    if (this.opts.publicOrigin) return { origin: this.opts.publicOrigin, atListeningPort: true };
    const raw = ctx.get('host');
    const socket = ctx.req.socket;
    const last = this.lastBySocket.get(socket);
    if (last && last.host === raw) return last.served;
    const served = this.fromHost(raw, ctx);
    this.lastBySocket.set(socket, { host: raw, served });
    return served;
  }

  private fromHost(raw: string, ctx: Context): ServedOrigin | undefined {
    const host = parseHost(raw);
    if (!host) return undefined;
    const local = unmapped(ctx.req.socket.localAddress ?? '');
    const named = this.names.has(host.name) || host.name === local || (host.name === 'localhost' && isLoopback(local));
    if (!named) return undefined;
    const name = isIP(host.name) === 6 ? `[${host.name}]` : host.name;
    return {
      origin: `${ctx.protocol}://${name}${host.port === undefined ? '' : `:${host.port}`}`,
      atListeningPort: host.port === undefined || host.port === String(ctx.req.socket.localPort),
    };
  }
}

/**
 * Name (lower case, IPv6 without brackets) and port of a Host header value: `name`, `name:port`,
 * `[v6]` or `[v6]:port`. Undefined when it is none of these. Read by position, no pattern over
 * the name, so any length costs one pass.
 */
export function parseHost(value: string): { name: string; port?: string } | undefined {
  if (!value || value.length > 300) return undefined;
  let name: string;
  let rest: string;
  if (value.startsWith('[')) {
    const end = value.indexOf(']');
    if (end < 0) return undefined;
    name = value.slice(1, end);
    rest = value.slice(end + 1);
    if (isIP(name) !== 6) return undefined;
  } else {
    const colon = value.indexOf(':');
    name = colon < 0 ? value : value.slice(0, colon);
    rest = colon < 0 ? '' : value.slice(colon);
  }
  if (!name || (rest && !/^:\d{0,5}$/.test(rest))) return undefined;
  // `name:` (an empty port) is the default port, as RFC 3986 allows.
  const port = rest.length > 1 ? Number(rest.slice(1)) : undefined;
  if (port !== undefined && (port < 1 || port > 65535)) return undefined;
  return { name: name.toLowerCase(), ...(port === undefined ? {} : { port: String(port) }) };
}

/** The origin the request's absolute URLs name, set by the service's host check (OriginPolicy). */
export const origin = (ctx: Context): string => {
  const served = ctx.state.origin as string | undefined;
  if (!served) throw new Error('no origin resolved for this request');
  return served;
};

const unbracket = (name: string) => (name.startsWith('[') && name.endsWith(']') ? name.slice(1, -1) : name);
/** An IPv4 caller on a dual-stack socket appears as ::ffff:a.b.c.d. */
const unmapped = (address: string) => (address.startsWith('::ffff:') ? address.slice(7) : address);
const isLoopback = (address: string) => address === '::1' || address.startsWith('127.');
