import { test as base, expect, type APIRequestContext, type APIResponse } from '@playwright/test';
import { target, type ResolvedTarget } from './target.js';
import { sharedTokens } from './tokens.js';

/** One id per run, part of every natural key the suites write (set once, inherited by workers). */
export const RUN_ID = (process.env.CONFORMANCE_RUN_ID ??= `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`);

let sequence = 0;
/** A short value unique to this run and worker: `<run>-<worker>-<n>`. */
export const unique = (prefix = 'c') => `${prefix}${RUN_ID}-${process.env.TEST_PARALLEL_INDEX ?? '0'}-${++sequence}`;

type Body = Record<string, unknown>;

/** A data-API client acting as one of the target's clients, with paths relative to {data_root}. */
export class DataClient {
  constructor(readonly request: APIRequestContext, readonly target: ResolvedTarget, readonly token: string | undefined, private readonly created: { url: string }[]) {}

  url(path: string): string {
    return /^https?:/.test(path) ? path : `${this.target.dataRoot}/${path.replace(/^\//, '')}`;
  }

  headers(extra: Record<string, string> = {}): Record<string, string> {
    return { ...(this.token ? { Authorization: `Bearer ${this.token}` } : {}), ...extra };
  }

  get(path: string, headers: Record<string, string> = {}): Promise<APIResponse> {
    return this.request.get(this.url(path), { headers: this.headers(headers) });
  }

  post(path: string, body: Body | string, headers: Record<string, string> = {}): Promise<APIResponse> {
    return this.request.post(this.url(path), { headers: this.headers({ 'Content-Type': 'application/json', ...headers }), data: typeof body === 'string' ? body : JSON.stringify(body) });
  }

  put(path: string, body: Body | string, headers: Record<string, string> = {}): Promise<APIResponse> {
    return this.request.put(this.url(path), { headers: this.headers({ 'Content-Type': 'application/json', ...headers }), data: typeof body === 'string' ? body : JSON.stringify(body) });
  }

  delete(path: string, headers: Record<string, string> = {}): Promise<APIResponse> {
    return this.request.delete(this.url(path), { headers: this.headers(headers) });
  }

  /** POSTs a new record, expects 201 and schedules its deletion; returns its item URL and id. */
  async create(resource: string, body: Body): Promise<{ url: string; id: string; location: string }> {
    const res = await this.post(resource, body);
    expect(res.status(), `create ${resource}: ${await res.text()}`).toBe(201);
    const location = res.headers().location;
    expect(location, 'Location header').toBeTruthy();
    const id = location.split('/').pop()!;
    const url = `${this.url(resource)}/${id}`;
    this.created.push({ url });
    return { url, id, location };
  }

  /** Records created outside create() (e.g. by a test's own POST) that must be removed at the end. */
  track(url: string): void {
    this.created.push({ url });
  }
}

interface Fixtures {
  /** The primary client. */
  api: DataClient;
  /** The same request context with no credentials. */
  anon: DataClient;
}

export const test = base.extend<Fixtures>({
  api: async ({ request }, use) => {
    const created: { url: string }[] = [];
    await use(new DataClient(request, target, sharedTokens().primary, created));
    // Delete what the test created, newest first (dependents before what they reference).
    const token = sharedTokens().primary;
    const leftovers: string[] = [];
    for (const { url } of created.reverse()) {
      const res = await request.delete(url, { headers: { Authorization: `Bearer ${token}` } });
      if (res.status() !== 204 && res.status() !== 404) leftovers.push(`${url} → ${res.status()}`);
    }
    if (leftovers.length) throw new Error(`cleanup could not delete: ${leftovers.join(', ')}`);
  },
  anon: async ({ request }, use) => {
    await use(new DataClient(request, target, undefined, []));
  },
});

export { expect, target };
