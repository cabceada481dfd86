import { _baseTest } from '@playwright/test';
import { expect } from './expect.js';
import { httpClient, type HttpClient, type HttpResponse, type RequestOptions } from './http.js';
import { deviationFor, loadDeviations } from './deviations.js';
import { exchangeOf } from './evidence.js';
import { isDescriptorUrl } from './deletion-order.js';
import { intentOf } from './intents.js';
import { stringifyExact } from './exact-json.js';
import { ledgerOf } from './ledger.js';
import { RUN_ID } from './run-id.js';
import type { Exchange } from './reporter/types.js';
import type { Builder } from './builders.js';
import type { PagingDistrict } from '../rostering/_support/paging-district.js';
import { target, type ResolvedTarget } from './target.js';
import { sharedTokens } from './tokens.js';
import { sweeperOf } from './sweeper.js';

/** One id per run (per shard), part of every natural key the suites write (run-id.ts). */
export { RUN_ID };

/** What this run created and has not deleted, on disk as it happens (ledger.ts). */
export const ledger = ledgerOf(RUN_ID);

/** What every run-unique key value carries: the run id's last six characters (world.ts keys carry no more). */
export const RUN_MARKER = RUN_ID.slice(-6);

let sequence = 0;
/**
 * A short value unique to this run and worker process: `<run>-<worker>-<n>`. TEST_WORKER_INDEX,
 * not the parallel slot: a worker that replaces a failed one takes over its slot but starts
 * counting again, and must not repeat the values of the records the failed one may have left.
 * The set-up, in the runner's process, has no worker index: `s`, not worker 0's `0` (the run's
 * descriptors, run-pool.ts, once met worker 0's and were upserted over, 200 for 201).
 */
export const unique = (prefix = 'c') => `${prefix}${RUN_ID}-${process.env.TEST_WORKER_INDEX ?? 's'}-${++sequence}`;

type Body = Record<string, unknown>;

/**
 * A created record's URL: its collection's and the last segment of Location (a deployment behind
 * a proxy may name another host there). The ledger matches records by this string, so every
 * writer of it builds it here.
 */
export const itemUrlOf = (collectionUrl: string, location: string): string => `${collectionUrl}/${location.split('/').pop()!}`;

/** A data-API client acting as one of the target's clients, with paths relative to {data_root}. */
export class DataClient {
  constructor(
    readonly request: HttpClient,
    readonly target: ResolvedTarget,
    readonly token: string | undefined,
    private readonly created: { url: string }[],
    /** Where the test's exchanges are kept, as evidence if it fails. */
    private readonly exchanges: Recorded[] = [],
  ) {}

  private async recorded(method: string, url: string, headers: Record<string, string>, body: string | undefined, send: Promise<HttpResponse>): Promise<HttpResponse> {
    const res = await send;
    // Through the test's own request fixture, the exchange is recorded there already.
    if ((this.request as unknown as Record<symbol, unknown>)[RECORDS] !== true) keep(this.exchanges, method, url, headers, body, res);
    return res;
  }

  /**
   * An absolute URL (as given), a path relative to {data_root}, or a path from the origin
   * (`/v7.3/api/data/v3/...`): a relative Location header is one, and the seed does not ask
   * for an absolute one (data.upsert.location-absolute-url is SHOULD).
   */
  url(path: string): string {
    if (/^https?:/.test(path)) return path;
    if (path.startsWith('/')) return new URL(path, this.target.dataRoot).href;
    return `${this.target.dataRoot}/${path}`;
  }

  headers(extra: Record<string, string> = {}): Record<string, string> {
    return { ...(this.token ? { Authorization: `Bearer ${this.token}` } : {}), ...extra };
  }

  get(path: string, headers: Record<string, string> = {}): Promise<HttpResponse> {
    const url = this.url(path);
    const h = this.headers(headers);
    return this.recorded('GET', url, h, undefined, this.request.get(url, { headers: h }));
  }

  post(path: string, body: Body | string, headers: Record<string, string> = {}): Promise<HttpResponse> {
    return this.write('POST', path, body, headers);
  }

  /** POSTs a record the caller made sure is new (its key checked absent): announced in the ledger whatever its key values. */
  postNew(path: string, body: Body): Promise<HttpResponse> {
    return this.write('POST', path, body, {}, true);
  }

  put(path: string, body: Body | string, headers: Record<string, string> = {}): Promise<HttpResponse> {
    return this.write('PUT', path, body, headers);
  }

  delete(path: string, headers: Record<string, string> = {}): Promise<HttpResponse> {
    const url = this.url(path);
    const h = this.headers(headers);
    // A record gone is written off the ledger however it went (a test's own DELETE too), and off
    // the test's cleanup: a second DELETE would only answer 404, a round trip for nothing.
    const sent = this.request.delete(url, { headers: h }).then((res) => {
      if (res.status() === 204 || res.status() === 404) {
        ledger.deleted(url);
        const at = this.created.findIndex((c) => c.url === url);
        if (at >= 0) this.created.splice(at, 1);
      }
      return res;
    });
    return this.recorded('DELETE', url, h, undefined, sent);
  }

  private write(method: 'POST' | 'PUT', path: string, body: Body | string, headers: Record<string, string>, creating = false): Promise<HttpResponse> {
    const url = this.url(path);
    const h = this.headers({ 'Content-Type': 'application/json', ...headers });
    // stringifyExact: a test may hold an int64 value past 2^53 as a bigint.
    const data = typeof body === 'string' ? body : stringifyExact(body);
    const intent = method === 'POST' ? intentOf(url, body, { creating, marker: RUN_MARKER }) : undefined;
    if (!intent) return this.recorded(method, url, h, data, this.request.fetch(url, { method, headers: h, data }));
    // Announced before it is sent, settled the moment it is answered: a run killed in between
    // leaves the intent for cleanup (ledger.ts). An error without an answer leaves it too: the
    // deployment may have made the record.
    ledger.intended(intent);
    const answered = this.request.fetch(url, { method, headers: h, data }).then((res) => {
      const location = res.headers().location;
      ledger.settled(intent, res.status() === 201 && location ? itemUrlOf(url, location) : undefined);
      return res;
    });
    return this.recorded(method, url, h, data, answered);
  }

  /** POSTs a new record, expects 201 and schedules its deletion; returns its item URL (itemUrlOf) and id. */
  async create(resource: string, body: Body): Promise<{ url: string; id: string; location: string }> {
    const res = await this.write('POST', resource, body, {}, true);
    // Expected only when it fails: an expect is a costly step, and every record the suites make passes here (expect-once.ts).
    if (res.status() !== 201) expect(res.status(), `create ${resource}: ${await res.text()}`).toBe(201);
    const location = res.headers().location;
    if (!location) expect(location, 'Location header').toBeTruthy();
    const url = itemUrlOf(this.url(resource), location);
    const id = url.slice(url.lastIndexOf('/') + 1);
    this.created.push({ url });
    return { url, id, location };
  }

  /**
   * Records created outside create() (e.g. by a test's own POST) that must be removed at the end.
   * Once: the data fixture's client tracks every 201 itself, and a test that tracks the same
   * record again must not cost a second DELETE at cleanup (with those a test deleted itself,
   * 1,145 DELETEs answered 404 in a whole 4.0 run, 3 % of its requests).
   */
  track(url: string): void {
    const absolute = this.url(url);
    if (this.created.some((c) => c.url === absolute)) return;
    this.created.push({ url: absolute });
    ledger.created(absolute);
  }
}

/**
 * Deletes what a test (or a worker's pool) created. The records but descriptors go in rounds:
 * each round sends every remaining DELETE at once, and what a round refused (a record another
 * still references: 409) goes again in the next, until a round deletes nothing more; then the
 * descriptors all at once, since once the records are gone nothing the test made references
 * them. A deployment 40 ms away pays a round trip per round (the depth of what the test made),
 * not one per record. A 404 is fine (deleted already); anything a round could not delete is left
 * behind, and named. A keep-alive connection the server closed as it was reused (seen on a
 * saturated machine) is the client's to retry, for every request (http.ts).
 */
export async function deleteCreated(request: HttpClient, created: { url: string }[], what: string): Promise<void> {
  const token = sharedTokens().primary;
  /** The status a record's DELETE refused with, or undefined once it is gone. */
  const remove = async (url: string): Promise<number | undefined> => {
    const res = await request.delete(url, { headers: { Authorization: `Bearer ${token}` } });
    if (res.status() !== 204 && res.status() !== 404) return res.status();
    ledger.deleted(url);
    return undefined;
  };
  const newestFirst = [...created].reverse().map((c) => c.url);
  let pending = newestFirst.filter((u) => !isDescriptorUrl(u));
  let refused = new Map<string, number>();
  while (pending.length) {
    const statuses = await Promise.all(pending.map(remove));
    refused = new Map(pending.flatMap((url, i) => (statuses[i] === undefined ? [] : [[url, statuses[i]!] as const])));
    if (refused.size === pending.length) break; // nothing more came off: what is left stays
    pending = pending.filter((url) => refused.has(url));
  }
  const descriptors = newestFirst.filter(isDescriptorUrl);
  const descriptorStatuses = await Promise.all(descriptors.map(remove));
  const leftovers = [...refused, ...descriptors.flatMap((url, i) => (descriptorStatuses[i] === undefined ? [] : [[url, descriptorStatuses[i]!] as const]))];
  if (leftovers.length) throw new Error(`${what} could not delete: ${leftovers.map(([url, status]) => `${url} → ${status}`).join(', ')}`);
}

/**
 * The worker's sweeper (sweeper.ts): each test's records are deleted while the next test runs.
 * The deletions are awaited when the worker ends (the `sweeper` fixture), and by the pool before
 * its own records go (data.ts).
 */
const sweeper = sweeperOf();
export const swept = (): Promise<void> => sweeper.swept();

interface Fixtures {
  /** The configuration's `use.extraHTTPHeaders`. */
  extraHTTPHeaders: Record<string, string> | undefined;
  /** The suites' HTTP client (http.ts), recording the test's exchanges. */
  request: HttpClient;
  /** The primary client. */
  api: DataClient;
  /** The same request context with no credentials. */
  anon: DataClient;
  /** The HTTP exchanges of the test, attached as evidence when it fails. */
  exchanges: Recorded[];
  /** Applies the target's known deviations (automatic). */
  knownDeviations: void;
}

/**
 * Every worker fixture of the suites, registered here, in the `test` every spec file extends.
 * Playwright runs tests whose sets of worker fixtures differ in workers of their own (the worker
 * hash), so a worker fixture registered in a spec's own `extend` split a run into three
 * generations of workers, each started anew after the last had ended (at 40 ms from the
 * deployment, a whole run took 134 s so, 113 s with one generation). Registered once, they are
 * made lazily, in the workers whose tests ask for them; their code is imported only then (it
 * imports this file).
 */
interface WorkerFixtures {
  /** The worker's dependencies for the generated tests' bodies (data.ts workerPool). */
  pool: Builder;
  /** The rostering paging tests' district of 501 schools (rostering/_support/paging-district.ts). */
  pagingDistrict: PagingDistrict;
  /** Awaits, when the worker ends, the deletions of its tests' records (sweeper.ts). */
  sweeper: void;
}

const deviations = loadDeviations();

/** Marks a request context that records its exchanges (recording below), and gives the one it wraps. */
const RECORDS = Symbol('records exchanges');
const UNRECORDED = Symbol('the request context recording wraps');
/** The context under a recording one: cleanup after the test is no evidence of what failed. */
const unrecorded = (request: HttpClient): HttpClient => ((request as unknown as Record<symbol, HttpClient | undefined>)[UNRECORDED] ?? request);
/**
 * An exchange kept as evidence, written out (headers redacted, bodies cut) only if the test
 * fails: most tests pass, and writing out each exchange was about 1 % of a worker's CPU.
 */
type Recorded = () => Promise<Exchange>;
/** The last 20 exchanges of a test are kept. The request headers are copied: the caller's object may change after. */
function keep(exchanges: Recorded[], method: string, url: string, headers: Record<string, string>, body: string | undefined, res: HttpResponse): void {
  const sent = { ...headers };
  exchanges.push(() => exchangeOf(method, url, sent, body, res));
  if (exchanges.length > 20) exchanges.shift();
}
const METHODS = new Set(['get', 'post', 'put', 'patch', 'delete', 'head', 'fetch']);

/**
 * The test's request context, recording every exchange made through it (URLs given as strings),
 * so that a failing test that talks HTTP itself (the rostering suites, token tests) carries the
 * same replayable evidence as one using the data client.
 */
function recording(request: HttpClient, exchanges: Recorded[]): HttpClient {
  return new Proxy(request, {
    get(context, prop) {
      if (prop === RECORDS) return true;
      if (prop === UNRECORDED) return context;
      const value = Reflect.get(context, prop, context) as unknown;
      if (typeof value !== 'function') return value;
      if (typeof prop !== 'string' || !METHODS.has(prop)) return (value as (...a: unknown[]) => unknown).bind(context);
      return async (url: unknown, options: RequestOptions = {}) => {
        const res = await (value as (u: unknown, o: unknown) => Promise<HttpResponse>).call(context, url, options);
        if (typeof url !== 'string') return res;
        const method = prop === 'fetch' ? (options.method ?? 'GET').toUpperCase() : prop.toUpperCase();
        const body = options.data !== undefined ? (typeof options.data === 'string' ? options.data : JSON.stringify(options.data))
          : options.form ? new URLSearchParams(Object.fromEntries(Object.entries(options.form).map(([k, v]) => [k, String(v)]))).toString() : undefined;
        keep(exchanges, method, url, options.headers ?? {}, body, res);
        return res;
      };
    },
  });
}

/** One client per worker and set of extra headers: keep-alive connections serve every test. */
const clients = new Map<string, HttpClient>();
function sharedClient(extraHeaders: Record<string, string> = {}): HttpClient {
  const key = JSON.stringify(extraHeaders);
  if (!clients.has(key)) clients.set(key, httpClient(extraHeaders));
  return clients.get(key)!;
}

/**
 * The suites' test extends Playwright's bare one (the one its browser test extends), with the
 * one option of the configuration they read: the headers every request of the `request`
 * fixture carries. Playwright's `test` adds some thirty browser fixtures (context options,
 * trace recording) that every test set up and tore down as steps, each with a stack trace
 * captured and source-mapped: about 12 % of a worker's CPU in a conformance run, for suites
 * that open no browser. For the same reason the per-test fixtures are boxed ('self'): each one's
 * set-up and teardown was a step, with a stack trace and two messages to the runner, about ten
 * per test. What they do and how they fail is unchanged; only the report's step tree no longer
 * lists them.
 */
export const test = _baseTest.extend<Fixtures, WorkerFixtures>({
  extraHTTPHeaders: [undefined, { option: true, box: 'self' }],
  // The configuration's extraHTTPHeaders (Accept: application/json) on every request, as Playwright's fixture sent them.
  request: [async ({ extraHTTPHeaders, exchanges }, use) => {
    await use(recording(sharedClient(extraHTTPHeaders ?? {}), exchanges));
  }, { box: 'self' }],
  exchanges: [async ({}, use, testInfo) => {
    const list: Recorded[] = [];
    await use(list);
    if (testInfo.status !== testInfo.expectedStatus && list.length) {
      await testInfo.attach('exchanges', { body: JSON.stringify(await Promise.all(list.map((exchange) => exchange()))), contentType: 'application/json' });
    }
  }, { box: 'self' }],
  knownDeviations: [async ({}, use, testInfo) => {
    const title = testInfo.titlePath.join(' › ');
    const primary = testInfo.annotations.find((a) => a.type === 'rule')?.description;
    const d = deviationFor(deviations, title, primary);
    if (d) {
      testInfo.annotations.push({ type: 'known-deviation', description: `${d.reason} (until ${d.expires})` });
      // A test named by the entry is expected to fail; a rule's entry covers whichever of its
      // tests fail, and its passing tests stay green.
      if (d.test && title.includes(d.test)) testInfo.fail();
    }
    await use();
  }, { auto: true, box: 'self' }],
  api: [async ({ request, exchanges }, use) => {
    const created: { url: string }[] = [];
    await use(new DataClient(request, target, sharedTokens().primary, created, exchanges));
    if (created.length) sweeper.sweep(deleteCreated(unrecorded(request), created, 'cleanup'));
  }, { box: 'self' }],
  anon: [async ({ request, exchanges }, use) => {
    await use(new DataClient(request, target, undefined, [], exchanges));
  }, { box: 'self' }],
  sweeper: [async ({}, use) => { await use(); await swept(); }, { scope: 'worker', auto: true, box: true }],
  pool: [async ({}, use) => (await import('./data.js')).workerPool(use), { scope: 'worker' }],
  pagingDistrict: [async ({}, use) => (await import('../rostering/_support/paging-district.js')).pagingDistrict(use), { scope: 'worker', timeout: 240_000 }],
});

export { expect, target };
