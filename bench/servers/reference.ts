/**
 * The server under test, in its own child process. argv[2]:
 *   reference        startReference() — the real start-up path, full spec
 *   custom-full      startReference({ served }) with the full model and documents built from it
 *   custom-trimmed   startReference({ served }) with the five-resource model (bench/trimmed-model.ts)
 * Commands from the orchestrator (IPC): start, preload, sample, mem, cpu, profileStart,
 * profileStop, stop. Data is preloaded through DataStore.create/remove, never through HTTP, after
 * the store-side steps of the write path (descriptor spelling, reference resolution), so that
 * preloaded records are held exactly as records written through the API.
 */
import { readFileSync } from 'node:fs';
import type { CompiledModel, CompiledResource } from '../../spec/model/compiled.js';
import type { DataStore, StoredRecord } from '../../reference/store/store.js';
import type { ClientConfig } from '../../reference/config/types.js';
import { SERVED, compileServed, servedDocumentFile } from '../../spec/model/served.js';
import type { ServedParts } from '../../reference/served-standard.js';
import { dataStandards, defaultStandard, type DataStandard } from '../../spec/model/upstream.js';
import {
  BENCH_CLIENT, ROSTER_CLIENT, DELETED_DAY_BASE, DESCRIPTOR_VALUES, RESOURCES, SCHOOLS, STUDENTS, descriptorDoc, schoolDoc, schoolId, ssaDoc, studentDoc, type NS,
} from '../data.js';
import { serve } from '../ipc.js';
import { profileCommands } from '../profiler.js';

/**
 * The reference as `npm start` runs it: compiled (`dist/`, `npm run build`; the orchestrator
 * checks it is fresh), never through tsx, whose naming helper on every closure made per request
 * alone cost ~2 % of an upsert's CPU.
 */
const compiled = <T>(path: string): Promise<T> => import(new URL(`../../dist/reference/${path}`, import.meta.url).href) as Promise<T>;
const { checkReferences } = await compiled<typeof import('../../reference/data-api/integrity.js')>('data-api/integrity.js');
const { checkWrite } = await compiled<typeof import('../../reference/data-api/write-plan.js')>('data-api/write-plan.js');
const { ResolvedTargets } = await compiled<typeof import('../../reference/store/references.js')>('store/references.js');
const loadServer = () => compiled<typeof import('../../reference/server.js')>('server.js');

const mode = process.argv[2] ?? 'reference';

// A failing workload would log every request's error: show the first few, then count them.
const logError = console.error.bind(console);
let errorsLogged = 0;
console.error = (...args: unknown[]) => {
  errorsLogged++;
  if (errorsLogged <= 3) logError(`[server ${mode}]`, ...args);
  else if (errorsLogged === 4 || errorsLogged % 10_000 === 0) logError(`[server ${mode}] ${errorsLogged} errors logged so far (further ones not shown)`);
};

const clients: ClientConfig[] = [
  { key: BENCH_CLIENT.key, secret: BENCH_CLIENT.secret, permissionSet: 'unrestricted', rosterScopes: ['roster-core.readonly', 'roster.readonly', 'roster-demographics.readonly'], odsInstances: [{ id: 1 }] },
  { key: ROSTER_CLIENT.key, secret: ROSTER_CLIENT.secret, permissionSet: 'unrestricted', educationOrganizationIds: [schoolId(0)], rosterScopes: ['roster-core.readonly', 'roster.readonly', 'roster-demographics.readonly'], odsInstances: [{ id: 1 }] },
];

interface Running { baseUrl: string; store: DataStore; model: CompiledModel; close: () => Promise<void>; rosteringBaseUrl?: string; operations: number; resources: number }
let running: Running | undefined;

// Preload state: the association series k = 0, 1, ... and its ids (for sampling).
let baseLoaded = false;
let nextK = 0;
const idsByK: string[] = [];
let deletesLoaded = 0;

function res(name: string): CompiledResource {
  const r = running!.model.byName.get(name);
  if (!r) throw new Error(`model has no ${name}`);
  return r;
}

/** The write path minus HTTP, parsing and schema validation. */
function write(resource: CompiledResource, doc: Record<string, unknown>): StoredRecord {
  const { store, model } = running!;
  const { doc: kept, refused, references } = checkWrite(model, store, resource, doc, { min: 1991, max: 2050 }, new ResolvedTargets(store.newestChangeVersion));
  if (refused) throw new Error(`preload: ${JSON.stringify(refused)}`);
  // The plan keeps no read-only member: a descriptor's id is the preload's, as an upsert assigns it.
  if (resource.isDescriptor) kept[`${resource.name}Id`] = doc[`${resource.name}Id`];
  checkReferences(model, store, resource, kept, undefined, references);
  return store.create(resource, kept);
}

function loadBase(): number {
  const { store } = running!;
  let n = 0;
  for (const [descriptor, values] of Object.entries(DESCRIPTOR_VALUES) as [keyof typeof NS, string[]][]) {
    const r = res(`${descriptor}Descriptor`);
    for (const v of values) { write(r, descriptorDoc(descriptor, v, store.nextDescriptorId())); n++; }
  }
  for (let i = 0; i < SCHOOLS; i++) { write(res(RESOURCES.school), schoolDoc(i)); n++; }
  for (let i = 0; i < STUDENTS; i++) { write(res(RESOURCES.student), studentDoc(i)); n++; }
  baseLoaded = true;
  return n;
}

const gc = () => { const g = (globalThis as { gc?: () => void }).gc; if (g) { g(); g(); } };

/** The data standard served (bench/run.ts --data-standard), the reference's default otherwise. */
const standard = (process.env.BENCH_DATA_STANDARD ?? defaultStandard) as DataStandard;
if (!(dataStandards as readonly string[]).includes(standard)) throw new Error(`bench: no data standard ${standard} (${dataStandards.join(', ')})`);

serve({
  async start() {
    const t0 = performance.now();
    // Process start → listening, without any time the child sat idle waiting for this command
    // (children may be spawned early so that they boot in parallel).
    const uptime = (tReady: number) => bootedAt + (tReady - t0);
    const version = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
    // Free ports for both services, so that the bench runs beside `npm start` (8080, 8081).
    const overrides = {
      port: 0, rosteringPort: 0, host: '127.0.0.1', clients, dataStandard: standard,
      // The durability phase: a journaled store, with or without an fsync per write.
      ...(process.env.BENCH_DATA_STORE ? { dataStore: process.env.BENCH_DATA_STORE, journalFsync: process.env.BENCH_JOURNAL_FSYNC === '1' } : {}),
    };
    if (mode === 'reference') {
      // The model is compiled inside startReference(), as `npm start` does (only the standard served).
      const tModel = performance.now();
      const { startReference } = await loadServer();
      const tImports = performance.now();
      const ref = await startReference({ overrides });
      const tReady = performance.now();
      const model = ref.served.model;
      const extra = ref as unknown as Record<string, unknown>;
      const rosteringBaseUrl = Object.entries(extra).find(([k, v]) => /^rostering.*url$/i.test(k) && typeof v === 'string')?.[1] as string | undefined;
      const paths = (name: 'resources' | 'descriptors') => (JSON.parse(readFileSync(new URL(`../../${servedDocumentFile(standard, name)}`, import.meta.url), 'utf8')) as { paths: Record<string, object> }).paths;
      const doc = { paths: { ...paths('resources'), ...paths('descriptors') } };
      running = {
        baseUrl: ref.dataApiBaseUrl, store: ref.store, model, close: ref.close, resources: model.resources.length,
        operations: Object.values(doc.paths).reduce((n, item) => n + Object.keys(item).length, 0),
        ...(rosteringBaseUrl ? { rosteringBaseUrl } : {}),
      };
      return {
        baseUrl: running.baseUrl, rosteringBaseUrl, operations: running.operations, resources: running.resources,
        startup: { processUptimeAtReadyMs: uptime(tReady), modelImportMs: tModel - t0, otherImportsMs: tImports - tModel, startReferenceMs: tReady - tImports },
        runningKeys: Object.keys(ref),
      };
    }
    // The same start-up with another model: its documents built here (through JSON, as they are
    // read from disk), so both sides of the spec-size comparison start the same way.
    const { startReference } = await loadServer();
    const { buildDataApiDocuments } = await import('../../spec/generate/openapi-data.js');
    const model: CompiledModel = mode === 'custom-trimmed' ? (await import('../trimmed-model.js')).trimmedModel().model : compileServed(standard);
    const documents = JSON.parse(JSON.stringify(buildDataApiDocuments(model, version, SERVED[standard].describes))) as ServedParts['documents'];
    const tModel = performance.now();
    const ref = await startReference({ overrides, served: { standard, model, documents, documentHash: mode, dataModel: SERVED[standard].dataModel } });
    const tReady = performance.now();
    const operations = [documents.resources, documents.descriptors].reduce((n, d) => n + Object.values((d as { paths?: Record<string, object> }).paths ?? {}).reduce((m, item) => m + Object.keys(item).length, 0), 0);
    running = { baseUrl: ref.dataApiBaseUrl, store: ref.store, model, close: ref.close, operations, resources: model.resources.length };
    return {
      baseUrl: running.baseUrl, operations: running.operations, resources: running.resources,
      resourceNames: model.resources.map((r) => r.name),
      startup: { processUptimeAtReadyMs: uptime(tReady), modelImportMs: tModel - t0, otherImportsMs: 0, startReferenceMs: tReady - tModel },
    };
  },

  /** Tops the association collection up to `ssa` records; loads `deletes` deleted records once. */
  preload(msg) {
    const t0 = performance.now();
    const { store } = running!;
    const ssa = res(RESOURCES.ssa);
    let created = baseLoaded ? 0 : loadBase();
    const target = Number(msg.ssa ?? 0);
    const coll = store.collection(ssa.name);
    while (coll.byId.size < target) {
      const rec = write(ssa, ssaDoc(nextK));
      idsByK[nextK++] = rec.id;
      created++;
    }
    const deletes = Number(msg.deletes ?? 0);
    while (deletesLoaded < deletes) {
      const rec = write(ssa, ssaDoc(deletesLoaded++, DELETED_DAY_BASE));
      store.remove(ssa, rec);
    }
    return { created, ssaRecords: coll.byId.size, preloadedK: nextK, deletes: coll.deletes.length, elapsedMs: performance.now() - t0 };
  },

  /**
   * Random preloaded ids, records for PUT (id, k, etag) and change versions of deletes. With
   * `distinct`, the ids are drawn from that many distinct records only (a working set of fixed
   * size, whatever the number of records stored).
   */
  sample(msg) {
    const { store } = running!;
    const coll = store.collection(RESOURCES.ssa);
    const pick = () => Math.floor(Math.random() * nextK);
    let pool: number[] | undefined;
    if (msg.distinct !== undefined) {
      const chosen = new Set<number>();
      while (chosen.size < Math.min(Number(msg.distinct), nextK)) chosen.add(pick());
      pool = [...chosen];
    }
    const ids: string[] = [];
    for (let i = 0; i < Number(msg.ids ?? 0); i++) ids.push(idsByK[pool ? pool[Math.floor(Math.random() * pool.length)] : pick()]);
    const put: { id: string; k: number; etag: string }[] = [];
    const seen = new Set<number>();
    while (put.length < Math.min(Number(msg.put ?? 0), nextK)) {
      const k = pick();
      if (seen.has(k)) continue;
      seen.add(k);
      const rec = coll.byId.get(idsByK[k]) as StoredRecord;
      put.push({ id: rec.id, k, etag: rec.etag });
    }
    const deleteVersions = coll.deletes.map((d) => d.changeVersion);
    return { ids, put, deleteVersions, preloadedK: nextK };
  },

  mem() {
    gc();
    const m = process.memoryUsage();
    return { heapUsed: m.heapUsed, rss: m.rss, external: m.external, arrayBuffers: m.arrayBuffers, ssaRecords: running ? running.store.collection(RESOURCES.ssa).byId.size : 0, gcExposed: typeof (globalThis as { gc?: unknown }).gc === 'function' };
  },

  cpu() {
    return process.cpuUsage();
  },

  /**
   * Waits until the event loop is idle (the background validator warm-up has finished): 50
   * consecutive setImmediate turns each under 2 ms. Answers how long that took. Then collects
   * the warm-up's garbage (compiling ~950 validators leaves a lot), so that the first window
   * measures the steady state and not that debt (with GC on the main thread it cost the first
   * full-spec window a third of its throughput).
   */
  async settle() {
    const t0 = performance.now();
    let quiet = 0;
    while (quiet < 50 && performance.now() - t0 < 60_000) {
      const t = performance.now();
      await new Promise((r) => setImmediate(r));
      quiet = performance.now() - t < 2 ? quiet + 1 : 0;
    }
    const settleMs = performance.now() - t0;
    gc();
    return { settleMs };
  },

  ...profileCommands(),

  async stop() {
    await running?.close();
  },
});

/** When this child was ready for commands (Node and tsx booted, bench modules loaded). */
const bootedAt = performance.now();

