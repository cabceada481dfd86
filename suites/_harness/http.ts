import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { pipeline, type Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate, constants as zlib } from 'node:zlib';

/**
 * The suites' HTTP client: what Playwright's APIRequestContext sends, without its cost.
 *
 * Playwright wraps every API call (and every read of a response body) in a step whose location
 * it finds by capturing and source-mapping a stack trace, and sends each step to the runner: in
 * the conformance runs that was about 2.4 ms of CPU per request over node:http's own, and the
 * workers, not the deployment, were what bounded a run. This client makes the same requests
 * Playwright's did, byte for byte, straight through node:http(s):
 * - the same default headers (User-Agent, `Accept: *\/*`, `Accept-Encoding: gzip,deflate,br`),
 *   then the client's extra headers, then the request's, names matched without case;
 * - the same bodies: an object, number or boolean as JSON; a string as it is, except that a
 *   string under a JSON Content-Type that is not JSON goes as a JSON string (as Playwright's
 *   does: tests that need other bytes use checks.ts's raw()); a Buffer as it is; `form` URL-encoded;
 *   Content-Type defaulted to match, Content-Length always;
 * - redirects followed as Playwright follows them (at most `maxRedirects`, 20 by default, 0 for
 *   none; 301/302 after a POST and 303 after anything but GET or HEAD turn into a GET without
 *   body; Authorization dropped for another origin);
 * - gzip, deflate and br bodies decoded; the body read whole, once.
 * Unlike a Playwright context it keeps no cookies (nothing in the seeds uses them) and its
 * keep-alive connections outlive a test.
 */

export interface HttpResponse {
  url(): string;
  status(): number;
  statusText(): string;
  ok(): boolean;
  /** Header names in lower case; repeated headers joined by `, ` (Set-Cookie by a new line). */
  headers(): Record<string, string>;
  /** Every header as received, in order. */
  headersArray(): { name: string; value: string }[];
  body(): Promise<Buffer>;
  text(): Promise<string>;
  json(): Promise<any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- as Playwright's
  dispose(): Promise<void>;
}

export interface RequestOptions {
  method?: string;
  headers?: Record<string, string>;
  data?: unknown;
  form?: Record<string, string | number | boolean>;
  /** Milliseconds before the request fails; 0 for none (default 30 000). */
  timeout?: number;
  /** Redirects followed at most; 0 answers the redirect itself (default 20). */
  maxRedirects?: number;
}

export interface HttpClient {
  get(url: string, options?: RequestOptions): Promise<HttpResponse>;
  head(url: string, options?: RequestOptions): Promise<HttpResponse>;
  post(url: string, options?: RequestOptions): Promise<HttpResponse>;
  put(url: string, options?: RequestOptions): Promise<HttpResponse>;
  patch(url: string, options?: RequestOptions): Promise<HttpResponse>;
  delete(url: string, options?: RequestOptions): Promise<HttpResponse>;
  fetch(url: string, options?: RequestOptions): Promise<HttpResponse>;
  dispose(): Promise<void>;
}

export const USER_AGENT = `core-data-conformance node/${process.versions.node}`;
const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_MAX_REDIRECTS = 20;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const AGENT_IDLE_MS = 60_000;
const REUSED_RETRIES = 3;

type Headers = Record<string, string>;

/** Sets a header, its name matched without case; `keep` leaves one already there. */
export function setHeader(headers: Headers, name: string, value: string, keep = false): void {
  const existing = Object.keys(headers).find((k) => k.toLowerCase() === name.toLowerCase());
  if (existing === undefined) headers[name] = value;
  else if (!keep) headers[existing] = value;
}

function removeHeader(headers: Headers, name: string): void {
  for (const k of Object.keys(headers)) if (k.toLowerCase() === name.toLowerCase()) delete headers[k];
}

const isJsonType = (headers: Headers) => Object.entries(headers).some(([k, v]) => k.toLowerCase() === 'content-type' && /^application\/json(;|$)/i.test(v.trim()));
const parses = (text: string) => { try { JSON.parse(text); return true; } catch { return false; } };

/** The bytes a request's `data` or `form` sends, its Content-Type defaulted in `headers` (Playwright's rules). */
export function bodyOf(options: RequestOptions, headers: Headers): Buffer | undefined {
  if (options.data !== undefined && options.form !== undefined) throw new Error("Only one of 'data' or 'form' can be specified");
  const { data, form } = options;
  if (form !== undefined) {
    setHeader(headers, 'content-type', 'application/x-www-form-urlencoded', true);
    return Buffer.from(new URLSearchParams(Object.entries(form).map(([k, v]): [string, string] => [k, String(v)])).toString(), 'utf8');
  }
  if (data === undefined) return undefined;
  if (Buffer.isBuffer(data)) return setHeader(headers, 'content-type', 'application/octet-stream', true), data;
  if (typeof data === 'string') {
    if (!isJsonType(headers)) return setHeader(headers, 'content-type', 'application/octet-stream', true), Buffer.from(data, 'utf8');
    return Buffer.from(parses(data) ? data : JSON.stringify(data), 'utf8');
  }
  if (typeof data === 'object' || typeof data === 'number' || typeof data === 'boolean') {
    setHeader(headers, 'content-type', 'application/json', true);
    return Buffer.from(JSON.stringify(data), 'utf8');
  }
  throw new Error("Unexpected 'data' type");
}

/** A received response, its body already read (and decoded). */
class Received implements HttpResponse {
  constructor(private readonly at: string, private readonly res: IncomingMessage, private readonly bytes: Buffer) {}
  url() { return this.at; }
  status() { return this.res.statusCode ?? 0; }
  statusText() { return this.res.statusMessage ?? ''; }
  ok() { return this.status() >= 200 && this.status() <= 299; }
  headersArray() {
    const raw = this.res.rawHeaders;
    const out: { name: string; value: string }[] = [];
    for (let i = 0; i < raw.length; i += 2) out.push({ name: raw[i], value: raw[i + 1] });
    return out;
  }
  headers() {
    const all = new Map<string, string[]>();
    for (const { name, value } of this.headersArray()) {
      const k = name.toLowerCase();
      all.set(k, [...(all.get(k) ?? []), value]);
    }
    return Object.fromEntries([...all].map(([k, v]) => [k, v.join(k === 'set-cookie' ? '\n' : ', ')]));
  }
  async body() { return this.bytes; }
  async text() { return this.bytes.toString('utf8'); }
  async json() { return JSON.parse(this.bytes.toString('utf8')); } // eslint-disable-line @typescript-eslint/no-unsafe-return
  async dispose() {}
}

/** The response's body, decoded from its Content-Encoding as Playwright decodes it. */
function decoded(res: IncomingMessage): Readable {
  const encoding = res.headers['content-encoding']?.toLowerCase();
  const flush = { flush: zlib.Z_SYNC_FLUSH, finishFlush: zlib.Z_SYNC_FLUSH };
  const transform = encoding === 'gzip' || encoding === 'x-gzip' ? createGunzip(flush)
    : encoding === 'br' ? createBrotliDecompress({ flush: zlib.BROTLI_OPERATION_FLUSH, finishFlush: zlib.BROTLI_OPERATION_FLUSH })
      : encoding === 'deflate' ? createInflate() : undefined;
  if (!transform) return res;
  return pipeline(res, transform, () => {});
}

interface Sending { method: string; headers: Headers; body?: Buffer; timeout: number; redirectsLeft: number }

/** A keep-alive client: one agent per protocol, reused by every request it sends. */
export function httpClient(extraHeaders: Headers = {}): HttpClient {
  // An agent timeout makes Node honour the server's `Keep-Alive: timeout=N` hint: an idle
  // connection is closed a second before the server would close it (and so is never reused as
  // the server closes it). Without one, Node ignores the hint.
  const options = { keepAlive: true, timeout: AGENT_IDLE_MS };
  const agents = { http: new HttpAgent(options), https: new HttpsAgent(options) };

  /**
   * One exchange. A request cut off unanswered on a reused keep-alive connection (one the server
   * closed as it was reused, hinted or not) is sent again, at most REUSED_RETRIES times: each try
   * takes another connection, and the last a new one if no idle one is left.
   */
  const once = (url: URL, s: Sending, retries = REUSED_RETRIES): Promise<{ res: IncomingMessage; bytes: Buffer }> => new Promise((resolve, reject) => {
    const https = url.protocol === 'https:';
    const req = (https ? httpsRequest : httpRequest)(url, { method: s.method, headers: s.headers, agent: https ? agents.https : agents.http, timeout: s.timeout }, (res) => {
      const chunks: Buffer[] = [];
      const body = decoded(res);
      body.on('data', (c: Buffer) => chunks.push(c));
      body.on('end', () => resolve({ res, bytes: Buffer.concat(chunks) }));
      body.on('error', (err: Error) => reject(new Error(`failed to read the answer of ${s.method} ${url.href}: ${err.message}`)));
      res.on('aborted', () => reject(new Error(`${s.method} ${url.href}: aborted`)));
    });
    req.on('timeout', () => req.destroy(new Error(`${s.method} ${url.href}: timeout ${s.timeout}ms exceeded`)));
    req.on('error', (err: NodeJS.ErrnoException) => {
      if (retries > 0 && req.reusedSocket && (err.code === 'ECONNRESET' || err.message === 'socket hang up')) resolve(once(url, s, retries - 1));
      else reject(new Error(`${s.method} ${url.href}: ${err.message}${req.reusedSocket ? ' (on a reused connection)' : ''}`, { cause: err }));
    });
    req.end(s.body);
  });

  const send = async (url: URL, s: Sending): Promise<HttpResponse> => {
    const { res, bytes } = await once(url, s);
    if (!REDIRECTS.has(res.statusCode ?? 0) || s.redirectsLeft < 0 || !res.headers.location) return new Received(url.href, res, bytes);
    if (s.redirectsLeft === 0) throw new Error(`${s.method} ${url.href}: Max redirect count exceeded`);
    return send(...redirected(url, res, s));
  };

  const fetch = (url: string, options: RequestOptions = {}) => {
    const headers: Headers = { 'user-agent': USER_AGENT, accept: '*/*', 'accept-encoding': 'gzip,deflate,br' };
    for (const [k, v] of Object.entries(extraHeaders)) setHeader(headers, k, v);
    for (const [k, v] of Object.entries(options.headers ?? {})) setHeader(headers, k, v);
    const body = bodyOf(options, headers);
    if (body) setHeader(headers, 'content-length', String(body.byteLength));
    const maxRedirects = options.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
    return send(new URL(url), { method: (options.method ?? 'GET').toUpperCase(), headers, body, timeout: options.timeout ?? DEFAULT_TIMEOUT_MS, redirectsLeft: maxRedirects === 0 ? -1 : maxRedirects });
  };
  const as = (method: string) => (url: string, options: RequestOptions = {}) => fetch(url, { ...options, method });
  return {
    fetch, get: as('GET'), head: as('HEAD'), post: as('POST'), put: as('PUT'), patch: as('PATCH'), delete: as('DELETE'),
    async dispose() { agents.http.destroy(); agents.https.destroy(); },
  };
}

/** Where a redirect leads, and what is sent there (Playwright's rules). */
function redirected(from: URL, res: IncomingMessage, s: Sending): [URL, Sending] {
  const headers = { ...s.headers };
  removeHeader(headers, 'cookie');
  let { method, body } = s;
  const status = res.statusCode ?? 0;
  if (((status === 301 || status === 302) && method === 'POST') || (status === 303 && method !== 'GET' && method !== 'HEAD')) {
    method = 'GET';
    body = undefined;
    for (const h of ['content-encoding', 'content-language', 'content-length', 'content-location', 'content-type']) removeHeader(headers, h);
  }
  const to = new URL(Buffer.from(res.headers.location!, 'latin1').toString('utf8'), from);
  setHeader(headers, 'host', to.host);
  if (to.origin !== from.origin) removeHeader(headers, 'authorization');
  return [to, { ...s, method, headers, body, redirectsLeft: s.redirectsLeft - 1 }];
}
