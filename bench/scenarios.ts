/**
 * Request generators for the driver: serialisable scenario specs (built by the orchestrator)
 * turned into autocannon `setupRequest` / `onResponse` functions (in the driver process).
 */
import { NEW_KEY_DAY_BASE, ssaDoc } from './data.js';

export type Headers = Record<string, string>;

export type ScenarioSpec =
  /** GET of a path picked at random from `paths` for every request. */
  | { kind: 'get'; paths: string[]; headers: Headers; expect: number[] }
  /** GET of one path, each request with the next Authorization value in turn (fresh tokens). */
  | { kind: 'get-rotating-auth'; path: string; authorizations: string[]; expect: number[] }
  /** The same request every time (token issuance, baseline echo). */
  | { kind: 'static'; method: 'GET' | 'POST'; path: string; headers: Headers; body?: string; expect: number[] }
  /** POST of associations with keys never used before (one new key per request). */
  | { kind: 'upsert-new'; path: string; headers: Headers; dayBase: number; expect: number[] }
  /** POST of existing keys (k < preloadedK), with a changed non-key member: an update. */
  | { kind: 'upsert-existing'; path: string; headers: Headers; preloadedK: number; expect: number[] }
  /** PUT by id with If-Match: each record is held by one connection at a time, its ETag followed. */
  | { kind: 'put'; itemPath: string; headers: Headers; records: { id: string; k: number; etag: string }[]; expect: number[] }
  /** A weighted mix of the above (no PUT). */
  | { kind: 'mixed'; parts: { weight: number; spec: ScenarioSpec }[]; expect: number[] };

export interface Req { method?: string; path?: string; headers?: Headers; body?: string | Buffer }
export interface Ctx { [k: string]: unknown }

export interface Scenario {
  setupRequest: (req: Req, ctx: Ctx) => Req;
  onResponse?: (status: number, body: string, ctx: Ctx, headers: Record<string, string | string[]>) => void;
}

/** New-key day bases per run, far apart: a run never reaches the next one's keys. */
export const NEW_KEY_DAYS_PER_RUN = 1500;
export const newKeyDayBase = (run: number) => NEW_KEY_DAY_BASE + run * NEW_KEY_DAYS_PER_RUN;

export function buildScenario(spec: ScenarioSpec): Scenario {
  switch (spec.kind) {
    case 'get': {
      const { paths, headers } = spec;
      return { setupRequest: (req) => { req.method = 'GET'; req.path = paths[(Math.random() * paths.length) | 0]; req.headers = { ...headers }; return req; } };
    }
    case 'get-rotating-auth': {
      const { path, authorizations } = spec;
      let i = 0;
      return { setupRequest: (req) => { req.method = 'GET'; req.path = path; req.headers = { Authorization: authorizations[i++ % authorizations.length] }; return req; } };
    }
    case 'static': {
      const { method, path, headers, body } = spec;
      return { setupRequest: (req) => { req.method = method; req.path = path; req.headers = { ...headers }; if (body !== undefined) req.body = body; return req; } };
    }
    case 'upsert-new': {
      let k = 0;
      const { path, headers, dayBase } = spec;
      return { setupRequest: (req) => { req.method = 'POST'; req.path = path; req.headers = { ...headers }; req.body = JSON.stringify(ssaDoc(k++, dayBase)); return req; } };
    }
    case 'upsert-existing': {
      let n = 0;
      const { path, headers, preloadedK } = spec;
      return {
        setupRequest: (req) => {
          req.method = 'POST'; req.path = path; req.headers = { ...headers };
          req.body = JSON.stringify(ssaDoc((Math.random() * preloadedK) | 0, 0, ++n));
          return req;
        },
      };
    }
    case 'put': {
      const free = spec.records.map((r) => ({ ...r, variant: 0 }));
      const { itemPath, headers } = spec;
      return {
        setupRequest: (req, ctx) => {
          const rec = free.pop();
          if (!rec) throw new Error('put scenario: more connections than records');
          ctx.rec = rec;
          req.method = 'PUT';
          req.path = `${itemPath}/${rec.id}`;
          req.headers = { ...headers, 'If-Match': `"${rec.etag}"` };
          req.body = JSON.stringify(ssaDoc(rec.k, 0, ++rec.variant));
          return req;
        },
        onResponse: (_status, _body, ctx, resHeaders) => {
          const rec = ctx.rec as (typeof free)[number];
          const etag = Object.entries(resHeaders).find(([k]) => k.toLowerCase() === 'etag')?.[1];
          if (typeof etag === 'string') rec.etag = etag.replace(/^W\//, '').replace(/^"|"$/g, '');
          free.push(rec);
        },
      };
    }
    case 'mixed': {
      const parts = spec.parts.map((p) => ({ weight: p.weight, scenario: buildScenario(p.spec) }));
      const total = parts.reduce((s, p) => s + p.weight, 0);
      return {
        setupRequest: (req, ctx) => {
          let r = Math.random() * total;
          for (const p of parts) {
            r -= p.weight;
            if (r < 0) { req.body = undefined; return p.scenario.setupRequest(req, ctx); }
          }
          return parts[parts.length - 1].scenario.setupRequest(req, ctx);
        },
      };
    }
  }
}
