/** Sending: one request over loopback with a timeout; a reset or a hang is an answer too. */
import http from 'node:http';
import type { HttpRequest } from './materialize.js';

export interface Exchange {
  status?: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** Transport failure before a response arrived (ECONNRESET, ECONNREFUSED, ...). */
  error?: string;
  timedOut?: boolean;
  ms: number;
}

/** Sends one request over HTTP/1.1 with a hard timeout; never rejects. */
export function send(req: HttpRequest, opts: { timeoutMs: number; agent?: http.Agent }): Promise<Exchange> {
  const started = Date.now();
  return new Promise<Exchange>((resolve) => {
    let settled = false;
    let gotResponse = false;
    const done = (e: Omit<Exchange, 'ms'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...e, ms: Date.now() - started });
    };
    // The path goes out as generated: a URL object would resolve dot segments and re-encode.
    const m = /^http:\/\/([^/:]+):(\d+)(\/.*)?$/.exec(req.url);
    // Framing is explicit: Node sends a GET or DELETE body without Content-Length otherwise.
    const headers = { ...req.headers, ...(req.body ? (req.chunked ? { 'transfer-encoding': 'chunked' } : { 'content-length': String(req.body.length) }) : {}) };
    let r: http.ClientRequest;
    try {
      if (!m) throw new Error(`not a loopback http URL: ${req.url}`);
      r = http.request({ host: m[1], port: Number(m[2]), path: m[3] ?? '/', method: req.method, headers, agent: opts.agent, setHost: !('host' in req.headers) });
    } catch (err) {
      done({ headers: {}, body: Buffer.alloc(0), error: `client refused to send: ${(err as Error).message}` });
      return;
    }
    const timer = setTimeout(() => { r.destroy(); done({ headers: {}, body: Buffer.alloc(0), timedOut: true }); }, opts.timeoutMs);
    r.on('response', (res) => {
      gotResponse = true;
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => done({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', () => done({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('aborted', () => done({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    r.on('error', (err: NodeJS.ErrnoException) => { if (!gotResponse) done({ headers: {}, body: Buffer.alloc(0), error: err.code ?? err.message }); });
    if (req.body && req.chunked) {
      // Streamed without Content-Length: the size limit must hold while reading.
      const step = 64 * 1024;
      let at = 0;
      const pump = () => {
        while (at < req.body!.length) {
          const more = r.write(req.body!.subarray(at, at + step));
          at += step;
          if (!more) { r.once('drain', pump); return; }
        }
        r.end();
      };
      pump();
    } else r.end(req.body);
  });
}
