import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { Agent, createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT, decodeJwt, decodeProtectedHeader, jwtVerify, type JWTPayload } from 'jose';
import { PortFront } from './front.js';

/**
 * The deviating proxy: sits between the suites and a deployment and forwards every exchange
 * unchanged, except what the active fault rewrites. One listener per upstream port (a data API
 * or a rostering service); the Host header is passed through, so the absolute URLs a service
 * builds from it (Location, discovery, rostering hrefs) name the proxy, not the service behind it.
 */

export type Service = 'data' | 'rostering';

/** One upstream the proxy fronts, and what a fault may need to know about it. */
export interface Route {
  service: Service;
  /** Routing flow of the deployment (`single`, `context`, `tenant`, `tenantContext`). */
  flow: string;
  upstreamPort: number;
  /** The issuer and audience the deployment's rostering service checks (rostering routes). */
  issuer?: string;
  audience?: string;
  /** Paths start with a tenant segment (multi-tenant rostering deployments). */
  multiTenant?: boolean;
  /** Paths carry a context segment before /std (context-routed rostering deployments). */
  contextRouting?: boolean;
}

export interface ProxiedRequest {
  route: Route;
  method: string;
  /** Path and query exactly as the client sent them (never normalised). */
  url: string;
  /** Lower-case header names. */
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

export interface ProxiedResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** Clients of the target by role: faults that act as another client, or skip a secret check, need them. */
export type Clients = Record<string, { key: string; secret?: string }>;

/** What a fault may use besides the exchange: tokens, sub-requests, memory across exchanges. */
export interface Tools {
  tokens: Tokens;
  clients: Clients;
  /** Sends a request to the same upstream (unchanged by the fault). */
  upstream: (req: ProxiedRequest) => Promise<ProxiedResponse>;
  /** Memory shared by every listener of one proxy (e.g. ids seen on writes). */
  state: Map<string, unknown>;
}

/**
 * A fault: a small request and/or response transformer. `request` may change the request in
 * place or answer it itself (returning a response); `response` may change the response in place.
 */
export interface Transformer {
  request?: (req: ProxiedRequest, tools: Tools) => Promise<ProxiedResponse | void> | ProxiedResponse | void;
  response?: (res: ProxiedResponse, req: ProxiedRequest, tools: Tools) => Promise<void> | void;
}

const HOP_BY_HOP = ['connection', 'keep-alive', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'proxy-connection'];

export class DeviatingProxy extends PortFront {
  private constructor(
    private readonly servers: Server[],
    ports: Map<number, number>,
    private readonly agent: Agent,
    /**
     * Exchanges the proxy could not complete (a transformer threw, the upstream was unreachable):
     * answered 502, and a run with any of them measures the proxy, not the suites.
     */
    readonly errors: string[],
  ) {
    super(ports, 'strength proxy');
  }

  /** Starts one listener per route on a free loopback port. */
  static async start(routes: Route[], transformer: Transformer, tools: Omit<Tools, 'upstream' | 'state'>): Promise<DeviatingProxy> {
    // Idle sockets are closed a second before the reference's keep-alive timeout (5 s) closes them.
    const agent = new Agent({ keepAlive: true, maxSockets: 64, timeout: 4_000 });
    const state = new Map<string, unknown>();
    const servers: Server[] = [];
    const ports = new Map<number, number>();
    const errors: string[] = [];
    for (const route of routes) {
      const upstream = (req: ProxiedRequest) => forward(agent, route.upstreamPort, req);
      const all: Tools = { ...tools, upstream, state };
      const server = createServer((incoming, outgoing) => {
        const chunks: Buffer[] = [];
        incoming.on('data', (c: Buffer) => chunks.push(c));
        incoming.on('end', () => {
          const req: ProxiedRequest = { route, method: incoming.method ?? 'GET', url: incoming.url ?? '/', headers: withoutHopByHop(incoming.headers), body: Buffer.concat(chunks) };
          exchange(req, transformer, all)
            .then((res) => {
              const headers = withoutHopByHop(res.headers);
              if (req.method !== 'HEAD') headers['content-length'] = String(res.body.length);
              if (res.status === 204 || res.status === 304) delete headers['content-length'];
              outgoing.writeHead(res.status, headers as Record<string, string | string[]>);
              outgoing.end(res.status === 204 || res.status === 304 || req.method === 'HEAD' ? undefined : res.body);
            })
            .catch((err: Error) => {
              errors.push(`${req.method} ${req.url}: ${err.message}`);
              outgoing.writeHead(502, { 'content-type': 'text/plain' });
              outgoing.end(`strength proxy: ${err.message}`);
            });
        });
      });
      server.keepAliveTimeout = 5_000;
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(0, '127.0.0.1', () => resolve());
      });
      servers.push(server);
      ports.set(route.upstreamPort, (server.address() as AddressInfo).port);
    }
    return new DeviatingProxy(servers, ports, agent, errors);
  }

  async close(): Promise<void> {
    await Promise.all(this.servers.map((s) => new Promise<void>((resolve) => { s.closeAllConnections(); s.close(() => resolve()); })));
    this.agent.destroy();
  }
}

async function exchange(req: ProxiedRequest, transformer: Transformer, tools: Tools): Promise<ProxiedResponse> {
  const early = await transformer.request?.(req, tools);
  if (early) return early;
  const res = await tools.upstream(req);
  await transformer.response?.(res, req, tools);
  return res;
}

function withoutHopByHop(headers: IncomingHttpHeaders | ProxiedResponse['headers']): ProxiedRequest['headers'] {
  const out: ProxiedRequest['headers'] = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !HOP_BY_HOP.includes(name.toLowerCase())) out[name.toLowerCase()] = value;
  }
  return out;
}

/**
 * Sends a request to the reference. A keep-alive socket the reference closed as idle just as the
 * request went out fails with ECONNRESET before any answer: the reference never read that
 * request, so it is sent again (Node's documented pattern, `reusedSocket`), at most three times.
 * Seen under load as a 502 on a token request, which made two conforming deviations REFUSED, and
 * with one retry as three 502s on one test's DELETEs (limit-message-reworded REFUSED on 6.1).
 */
function forward(agent: Agent, port: number, req: ProxiedRequest, retries = 3): Promise<ProxiedResponse> {
  return new Promise((resolve, reject) => {
    const headers = { ...req.headers };
    delete headers['content-length'];
    if (req.body.length || req.headers['content-length'] !== undefined) headers['content-length'] = String(req.body.length);
    // Faults rewrite response bodies, so the upstream must send them uncompressed.
    headers['accept-encoding'] = 'identity';
    const out = httpRequest({ host: '127.0.0.1', port, method: req.method, path: req.url, headers: headers as Record<string, string>, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 502, headers: withoutHopByHop(res.headers), body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    out.on('error', (err: NodeJS.ErrnoException) => {
      // Again on another socket, which may be one the reference closed at the same moment (sockets
      // idle together are closed together): a few times, as the suites' own client does.
      if (retries > 0 && out.reusedSocket && err.code === 'ECONNRESET') forward(agent, port, req, retries - 1).then(resolve, reject);
      else reject(err);
    });
    out.end(req.body.length ? req.body : undefined);
  });
}

// ---- exchange helpers --------------------------------------------------------------------------

/** The header as one string (first value), or undefined. */
export function header(m: { headers: ProxiedRequest['headers'] }, name: string): string | undefined {
  const v = m.headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
}

/** The body parsed as JSON, or undefined when it is not JSON. */
export function jsonOf(m: { body: Buffer }): unknown {
  if (!m.body.length) return undefined;
  try {
    return JSON.parse(m.body.toString('utf8'));
  } catch {
    return undefined;
  }
}

export function setJson(m: { body: Buffer }, value: unknown): void {
  m.body = Buffer.from(JSON.stringify(value), 'utf8');
}

/** Replaces a response with a JSON one of the given status. */
export function answerJson(res: ProxiedResponse, status: number, value: unknown): void {
  res.status = status;
  res.headers = { ...res.headers, 'content-type': 'application/json; charset=utf-8' };
  delete res.headers.etag;
  setJson(res, value);
}

export function pathOf(req: ProxiedRequest): string {
  const q = req.url.indexOf('?');
  return q < 0 ? req.url : req.url.slice(0, q);
}

/** Query parameters as [name, value] pairs, in order (values decoded). */
export function queryOf(req: ProxiedRequest): URLSearchParams {
  const q = req.url.indexOf('?');
  return new URLSearchParams(q < 0 ? '' : req.url.slice(q + 1));
}

export function setQuery(req: ProxiedRequest, params: URLSearchParams): void {
  const s = params.toString();
  req.url = `${pathOf(req)}${s ? `?${s}` : ''}`;
}

/**
 * Where a data-API request goes: `{base}/data/v3/<namespace>/<resource>[/<id or feed>]`, with the
 * resource segment as sent; undefined for paths outside the resources.
 */
export function dataPath(req: ProxiedRequest): { resource: string; rest: string[] } | undefined {
  const m = /\/data\/v3\/[^/]+\/([^/?]+)((?:\/[^/?]*)*)$/.exec(pathOf(req));
  if (!m) return undefined;
  return { resource: m[1], rest: m[2].split('/').filter(Boolean) };
}

/** Visits every object in a JSON value (depth first), parents before children. */
export function eachObject(value: unknown, visit: (o: Record<string, unknown>) => void): void {
  if (Array.isArray(value)) for (const v of value) eachObject(v, visit);
  else if (value && typeof value === 'object') {
    visit(value as Record<string, unknown>);
    for (const v of Object.values(value)) eachObject(v, visit);
  }
}

// ---- tokens ------------------------------------------------------------------------------------

/** Claims signed RS256 with `key`: every token the proxy writes. */
const signWith = (claims: JWTPayload, key: KeyObject): Promise<string> => new SignJWT(claims).setProtectedHeader({ alg: 'RS256', typ: 'JWT' }).sign(key);

/**
 * The issuer's key in the proxy's hands: a fault that skips a token check lets the token through
 * by re-signing it with the one thing that check would have refused made right. Only tokens whose
 * signature verifies (or, for the signature faults, that merely decode) are ever re-signed, so a
 * fault skips exactly one check. The other trusted keys (the suites' test issuer, which the
 * rostering services trust besides the issuer) sign the tokens the suites craft: a claim fault
 * rewrites those too, re-signed with the key that signed them.
 */
export class Tokens {
  private readonly privateKey: KeyObject;
  private readonly publicKey: KeyObject;
  private readonly trusted: { privateKey: KeyObject; publicKey: KeyObject }[];

  constructor(privateKeyPem: string, ...otherTrustedPems: string[]) {
    this.privateKey = createPrivateKey(privateKeyPem);
    this.publicKey = createPublicKey(privateKeyPem);
    this.trusted = [privateKeyPem, ...otherTrustedPems].map((pem) => ({ privateKey: createPrivateKey(pem), publicKey: createPublicKey(pem) }));
  }

  /** The bearer token of a request, if any. */
  static bearer(req: ProxiedRequest): string | undefined {
    const m = /^Bearer +(\S+) *$/i.exec(header(req, 'authorization') ?? '');
    return m?.[1];
  }

  /** Header and claims without any check; undefined when the token does not decode. */
  decode(token: string): { alg: string | undefined; claims: JWTPayload } | undefined {
    try {
      return { alg: decodeProtectedHeader(token).alg, claims: decodeJwt(token) };
    } catch {
      return undefined;
    }
  }

  /** The claims when the RS256 signature verifies; expiry and not-before are not looked at. */
  async signed(token: string): Promise<JWTPayload | undefined> {
    try {
      const { payload } = await jwtVerify(token, this.publicKey, { algorithms: ['RS256'], clockTolerance: 10 * 365 * 86400 });
      return payload;
    } catch {
      return undefined;
    }
  }

  /**
   * The token re-signed under RS256 with the trusted key it verifies with under one of
   * `algorithms` (expiry not looked at), or undefined: a fault that accepts other algorithms.
   */
  async resignedFrom(token: string, algorithms: string[]): Promise<string | undefined> {
    const found = await this.verifiedByTrusted(token, algorithms);
    return found && signWith(found.claims, found.key);
  }

  async sign(claims: JWTPayload): Promise<string> {
    return signWith(claims, this.privateKey);
  }

  /**
   * Re-signs the request's bearer token when its signature verifies and `change` alters its
   * claims (returns true). Answers whether the token was replaced.
   */
  async rewrite(req: ProxiedRequest, change: (claims: JWTPayload) => boolean, opts: { unsigned?: boolean } = {}): Promise<boolean> {
    const token = Tokens.bearer(req);
    if (!token) return false;
    // A token that merely decodes (the signature faults) is re-signed with the issuer's key.
    const decoded = opts.unsigned ? this.decode(token) : undefined;
    const found = opts.unsigned ? decoded && { claims: decoded.claims, key: this.privateKey } : await this.verifiedByTrusted(token);
    if (!found || !change(found.claims)) return false;
    req.headers.authorization = `Bearer ${await signWith(found.claims, found.key)}`;
    return true;
  }

  /** The claims and the private key of the first trusted key the signature verifies with under `algorithms` (expiry not looked at). */
  private async verifiedByTrusted(token: string, algorithms = ['RS256']): Promise<{ claims: JWTPayload; key: KeyObject } | undefined> {
    for (const k of this.trusted) {
      try {
        const { payload } = await jwtVerify(token, k.publicKey, { algorithms, clockTolerance: 10 * 365 * 86400 });
        return { claims: payload, key: k.privateKey };
      } catch { /* the next key */ }
    }
    return undefined;
  }
}
