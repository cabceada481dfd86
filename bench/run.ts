/**
 * `npm run bench` — the benchmark orchestrator. It starts every server under test and the load
 * generator in their own child processes (loopback, free ports only), preloads data through the
 * reference's DataStore, measures baselines and workloads with the same client settings, and
 * writes reports/bench.json plus a table on stdout.
 *
 *   npx tsx bench/run.ts [--quick] [--profile[=id,id]] [--only=baselines,main,spec,scale,durability]
 *
 * --quick     smaller record counts and shorter windows (under a minute)
 * --profile   after each reference workload (or the listed ids, baselines too), a separate profiled pass of the
 *             server child; .cpuprofile files and summaries land in reports/bench-profiles/
 * --no-stages skip the profiled passes of get-by-id and upsert-new/-existing that split their
 *             server CPU by stage of the request path (bench/stages.ts; printed after the table)
 * --only      run only some phases: startup, baselines, main, spec, scale, durability (baselines always run when main does)
 *             startup: `npm start`'s command line started cold five times (three in quick mode), first answer timed
 * --data-standard=4.0|5.2|6.1   the data standard the reference serves (default: the reference's, 4.0)
 * --remote-latency=40   also the complete certification (every suite, default workers) through a
 *             proxy delaying each direction by half that round trip (npm run strength -- --remote-latency);
 *             ends with `remote certification at 40 ms: N s (verdict V, W workers)`
 * --sizes=1000,1000000   scale sizes instead of the mode's
 * --duration=, --warmup=, --connections=   client settings instead of the mode's
 * BENCH_SERVER_FLAGS="--trace-gc ..."      extra Node flags for the server children
 * --no-budget do not shrink the largest scale size to keep the run within its time budget
 *             (280 s full, 55 s quick; a reduction is reported)
 *
 * The targets are goals and are reported, never asserted: the exit code is 0 unless the harness
 * itself fails.
 */
import { execSync, spawn } from 'node:child_process';
import { createPrivateKey, generateKeyPairSync, sign as cryptoSign } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import { DATA_ROOT, NAMESPACE_SEGMENT, TOKEN_PATH } from '../spec/generate/openapi-data.js';
import { ROSTER_PREFIX } from '../spec/generate/openapi-rostering.js';
import { BENCH_CLIENT, ROSTER_CLIENT, SCHOOLS, SSA_ENDPOINT, schoolId, ssaDoc } from './data.js';
import type { DriverRun } from './driver.js';
import { Child, canPin } from './ipc.js';
import { measureNpmStart } from './npm-start.js';
import { staleCompiledFile } from '../reference/build-freshness.js';
import { formatSummary, summarise } from './profile-summary.js';
import { formatStages, stageBudget } from './stages.js';
import { newKeyDayBase, type ScenarioSpec } from './scenarios.js';
import type {
  BenchReport, Measurement, MemoryPoint, NpmStartFigures, ProfileSummary, RemoteCertification, ScaleSeries, ServerKind, SkippedWorkload, SpecSizeSide, StartupFigures,
  TargetCheck, WorkloadResult,
} from './types.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
// The servers run the compiled reference (as npm start does): it must be there and fresh.
if (!existsSync(`${ROOT}dist/reference/server.js`)) { console.error('bench: the compiled reference is missing: run npm run build (npm ci runs it)'); process.exit(2); }
const staleSource = staleCompiledFile();
if (staleSource) { console.error(`bench: the compiled reference (dist/) is older than ${staleSource}: run npm run build`); process.exit(2); }
const argv = process.argv.slice(2);
const quick = argv.includes('--quick');
const profileArg = argv.find((a) => a === '--profile' || a.startsWith('--profile='));
const profileIds = profileArg?.includes('=') ? new Set(profileArg.split('=')[1].split(',')) : undefined;
/** The workloads whose server CPU the bench splits by stage (bench/stages.ts), unless --no-stages. */
const STAGE_WORKLOADS = argv.includes('--no-stages') ? [] : ['get-by-id', 'upsert-new', 'upsert-existing'];
const onlyArg = argv.find((a) => a.startsWith('--only='));
const phases = new Set(onlyArg ? onlyArg.split('=')[1].split(',') : ['startup', 'baselines', 'main', 'spec', 'scale', 'durability']);
const remoteArg = argv.find((a) => a === '--remote-latency' || a.startsWith('--remote-latency='));
const remoteLatency = remoteArg ? Number(remoteArg.includes('=') ? remoteArg.split('=')[1] : argv[argv.indexOf(remoteArg) + 1]) : undefined;
if (remoteLatency !== undefined && !(remoteLatency >= 0)) { console.error('bench: --remote-latency takes a round trip in milliseconds, e.g. --remote-latency=40'); process.exit(2); }
// Alone, --remote-latency runs only that phase (the whole suite takes minutes); with --only, beside those named.
if (remoteLatency !== undefined) { if (!onlyArg) phases.clear(); phases.add('remote'); }
if (phases.has('main') || phases.has('durability')) phases.add('baselines');

// The data standard every reference child serves (bench/servers/reference.ts reads it); 6.1 is the largest.
const standardArg = argv.find((a) => a.startsWith('--data-standard='))?.split('=')[1];
if (standardArg) process.env.BENCH_DATA_STANDARD = standardArg;
const numArg = (name: string) => { const a = argv.find((x) => x.startsWith(`--${name}=`)); return a ? Number(a.split('=')[1]) : undefined; };
const CONFIG_BASE = quick
  ? { warmup: 0.25, duration: 0.7, connections: 10, mainSsa: 5_000, deletes: 500, scaleSizes: [1_000, 10_000, 50_000], scaleGetRounds: 1, specSsa: 2_000, specRounds: 1, profileSeconds: 2, sampleIds: 5_000, putRecords: 100, interferenceBudgetMs: 3_000, timeBudgetSeconds: 55 }
  : { warmup: 1, duration: 3, connections: 10, mainSsa: 10_000, deletes: 2_000, scaleSizes: [1_000, 100_000, 1_000_000], scaleGetRounds: 2, specSsa: 10_000, specRounds: 2, profileSeconds: 3, sampleIds: 10_000, putRecords: 200, interferenceBudgetMs: 20_000, timeBudgetSeconds: 280 };
/** --duration=, --warmup=, --connections= override the mode's client settings (for investigation). */
const CONFIG = {
  ...CONFIG_BASE,
  warmup: numArg('warmup') ?? CONFIG_BASE.warmup,
  duration: numArg('duration') ?? CONFIG_BASE.duration,
  connections: numArg('connections') ?? CONFIG_BASE.connections,
  scaleSizes: argv.find((a) => a.startsWith('--sizes='))?.split('=')[1].split(',').map(Number) ?? CONFIG_BASE.scaleSizes,
  // Profiled passes and --no-budget runs take the time they need.
  timeBudgetSeconds: argv.includes('--no-budget') || argv.some((a) => a.startsWith('--profile')) ? Infinity : CONFIG_BASE.timeBudgetSeconds,
};

/**
 * Server children run with the V8 flags `npm start` uses (young-generation size, GC on the main
 * thread); baselines get the same GC flags. BENCH_SERVER_FLAGS adds more (e.g. --trace-gc).
 */
const GC_FLAGS = ['--max-semi-space-size=64', '--single-threaded-gc'];
const SERVER_FLAGS = ['--expose-gc', '--max-old-space-size=8192', ...GC_FLAGS, ...(process.env.BENCH_SERVER_FLAGS ?? '').split(/\s+/).filter(Boolean)];
const PROFILE_DIR = `${ROOT}reports/bench-profiles`;

// ---- state ---------------------------------------------------------------------------------

const t0 = performance.now();
const baselines = new Map<string, Measurement>();
const workloads: WorkloadResult[] = [];
const skipped: SkippedWorkload[] = [];
const profiles: ProfileSummary[] = [];
const stages: BenchReport['stages'] = [];
const children: Child[] = [];
let step = 0;
let newKeyRun = 1;
// Server children on one CPU, the load generator on another (see Child.pin).
const PIN = canPin();
const SERVER_CPU = PIN ? 1 : undefined;
const DRIVER_CPU = PIN ? 0 : undefined;
const driver = new Child('driver', './driver.ts', { cpu: DRIVER_CPU });
children.push(driver);

// ---- helpers -------------------------------------------------------------------------------

interface Started {
  child: Child;
  kind: ServerKind;
  origin: string;
  basePath: string;
  info: { baseUrl: string; rosteringBaseUrl?: string; operations: number; resources: number; resourceNames?: string[]; startup: Omit<StartupFigures, 'server' | 'resources' | 'operations' | 'spawnToReadyMs'> };
  spawnToReadyMs: number;
}

function spawnServer(kind: ServerKind, env: NodeJS.ProcessEnv = {}): Child {
  const child = kind === 'raw' || kind === 'koa'
    ? new Child(kind, './servers/baseline.ts', { args: [kind], execArgv: GC_FLAGS, cpu: SERVER_CPU })
    : new Child(kind, './servers/reference.ts', { args: [kind], execArgv: SERVER_FLAGS, cpu: SERVER_CPU, env });
  children.push(child);
  return child;
}

/** Starts a reference-kind server in a (possibly already spawned) child. */
async function startServer(kind: ServerKind, child = spawnServer(kind)): Promise<Started> {
  const info = await child.request<Started['info']>('start');
  const spawnToReadyMs = performance.now() - child.spawnedAt;
  child.pin();
  const url = new URL(info.baseUrl);
  return { child, kind, origin: url.origin, basePath: url.pathname.replace(/\/$/, ''), info, spawnToReadyMs };
}

async function startBaseline(kind: 'raw' | 'koa', payloads: Record<string, string>, child = spawnServer(kind)): Promise<Started> {
  const info = await child.request<{ baseUrl: string }>('start', { payloads });
  child.pin();
  return { child, kind, origin: info.baseUrl, basePath: '', info: { ...info, operations: 0, resources: 0, startup: { processUptimeAtReadyMs: 0, modelImportMs: 0, otherImportsMs: 0, startReferenceMs: 0 } }, spawnToReadyMs: performance.now() - child.spawnedAt };
}

/** A progress line with the elapsed time. */
const log = (line: string) => console.log(line.startsWith('\n') ? `\n[${elapsed()}] ${line.slice(1)}` : `[${elapsed()}] ${line}`);
const elapsed = () => `${((performance.now() - t0) / 1000).toFixed(0).padStart(3)}s`;

async function stopServer(s: Started): Promise<void> {
  await s.child.stop();
}

async function token(s: Started, client: { key: string; secret: string }): Promise<string> {
  const res = await fetch(`${s.origin}${s.basePath}${TOKEN_PATH}`, {
    method: 'POST',
    headers: { Authorization: `Basic ${Buffer.from(`${client.key}:${client.secret}`).toString('base64')}`, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials',
  });
  if (res.status !== 200) throw new Error(`token for ${client.key}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

const ssaPath = (s: Started) => `${s.basePath}${DATA_ROOT}/${NAMESPACE_SEGMENT}/${SSA_ENDPOINT}`;
const queryPaths = (s: Started, total: boolean) => Array.from({ length: SCHOOLS }, (_, i) => `${ssaPath(s)}?schoolId=${schoolId(i)}&offset=25&limit=25${total ? '&totalCount=true' : ''}`);
const jsonHeaders = (bearer: string) => ({ Authorization: `Bearer ${bearer}`, 'Content-Type': 'application/json' });

interface Sample { ids: string[]; put: { id: string; k: number; etag: string }[]; deleteVersions: number[]; preloadedK: number }

const fmt = (x: number, d = 0) => x.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d });
const r2 = (x: number) => Math.round(x * 100) / 100;

function shouldProfile(id: string, kind: ServerKind): boolean {
  if (!profileArg) return false;
  // Baselines only when named (`--profile=koa-get-item,get-by-id`): set side by side, stage by stage.
  return profileIds ? profileIds.has(id) : kind !== 'raw' && kind !== 'koa';
}

/**
 * Other sessions may share this machine: before a window the bench waits (bounded) for the
 * machine to be quiet, and a window disturbed by other processes is measured again while the
 * retry budget lasts; the least disturbed window is kept and the disturbance is reported.
 */
const NOISY_PERCENT = 25;
/** Time the run may spend waiting for quiet and re-measuring disturbed windows, in total. */
let interferenceBudgetMs = CONFIG.interferenceBudgetMs;
let interferenceSpentMs = 0;

async function waitForQuiet(): Promise<void> {
  const t = performance.now();
  try {
    for (let i = 0; i < 10 && interferenceBudgetMs > 0; i++) {
      const a = machineCpu();
      await new Promise((r) => setTimeout(r, 200));
      const b = machineCpu();
      if (!a || !b) return;
      if (((b.busy - a.busy) / (b.total - a.total)) * 100 * os.cpus().length < NOISY_PERCENT) return;
      interferenceBudgetMs -= 200;
    }
  } finally {
    interferenceSpentMs += performance.now() - t;
  }
}

/** Warm-up, then measured windows (see above), then (optionally) a profiled pass. */
async function measure(o: { id: string; label: string; server: Started; spec: ScenarioSpec; method: string; pathExample: string }): Promise<Measurement> {
  const url = o.server.origin;
  const base = { scenarioId: o.id, url, connections: CONFIG.connections };
  const warm = await driver.request<DriverRun>('run', { ...base, spec: o.spec, durationSeconds: CONFIG.warmup });
  // Sanity: a workload whose warm-up is mostly unexpected statuses measures an error path.
  if (!warm.requests || warm.unexpected > warm.requests * 0.1) {
    throw new Error(`sanity check failed: ${warm.unexpected} of ${warm.requests} warm-up responses unexpected ${JSON.stringify(warm.statusCounts)} (see the server's log above)`);
  }
  let m: Measurement | undefined;
  for (let attempt = 1; ; attempt++) {
    const t = performance.now();
    await waitForQuiet();
    const w = await measureWindow(o, base);
    w.attempts = attempt;
    if (!m || (w.otherCpuPercent ?? 0) < (m.otherCpuPercent ?? 0)) m = { ...w, attempts: attempt };
    if ((m.otherCpuPercent ?? 0) <= NOISY_PERCENT || interferenceBudgetMs <= 0) break;
    interferenceBudgetMs -= performance.now() - t;
    interferenceSpentMs += performance.now() - t;
  }
  const staged = o.server.kind === 'reference' && STAGE_WORKLOADS.includes(o.id);
  if (shouldProfile(o.id, o.server.kind) || staged) {
    const file = `${PROFILE_DIR}/${o.id}.cpuprofile`;
    await o.server.child.request('profileStart');
    await driver.request<DriverRun>('run', { ...base, durationSeconds: CONFIG.profileSeconds });
    await o.server.child.request('profileStop', { file });
    const profile = JSON.parse(readFileSync(file, 'utf8'));
    if (staged) stages.push({ workload: o.id, budget: stageBudget(profile, m.serverCpuMicrosPerRequest) });
    if (shouldProfile(o.id, o.server.kind)) {
      const summary = summarise(profile, 15);
      profiles.push({ workload: o.id, file: file.slice(ROOT.length), ...summary });
      console.log(formatSummary({ ...summary, top: summary.top.slice(0, 10), byModule: summary.byModule.slice(0, 8) }, `    profile ${o.id}`));
    }
  }
  return m;
}

const r3 = (x: number) => Math.round(x * 1000) / 1000;
const disturbed = (m?: Measurement) => !!m && (m.otherCpuPercent ?? 0) > NOISY_PERCENT;

/** One measured window with server CPU and machine CPU read around it. */
async function measureWindow(o: { id: string; label: string; server: Started; method: string; pathExample: string }, base: Record<string, unknown>): Promise<Measurement> {
  const c0 = await o.server.child.request<NodeJS.CpuUsage>('cpu');
  const s0 = machineCpu();
  const r = await driver.request<DriverRun>('run', { ...base, durationSeconds: CONFIG.duration });
  const s1 = machineCpu();
  const c1 = await o.server.child.request<NodeJS.CpuUsage>('cpu');
  const cpuUs = c1.user - c0.user + (c1.system - c0.system);
  const serverCpuPercent = (cpuUs / 1e6 / r.durationSeconds) * 100;
  const machineBusy = s0 && s1 ? ((s1.busy - s0.busy) / (s1.total - s0.total)) * 100 * os.cpus().length : undefined;
  return {
    id: o.id, label: o.label, server: o.server.kind, method: o.method, pathExample: o.pathExample,
    requests: r.requests, durationSeconds: r2(r.durationSeconds), rps: r2(r.rps),
    latencyMs: { p50: r3(r.latencyMs.p50), p90: r3(r.latencyMs.p90), p99: r3(r.latencyMs.p99), mean: r3(r.latencyMs.mean), max: r3(r.latencyMs.max) },
    statusCounts: r.statusCounts, unexpected: r.unexpected, errors: r.errors, timeouts: r.timeouts,
    bytesPerResponse: Math.round(r.bytesPerResponse), driverCpuPercent: Math.round(r.driverCpuPercent),
    serverCpuPercent: Math.round(serverCpuPercent),
    serverCpuMicrosPerRequest: r.requests ? r2(cpuUs / r.requests) : 0,
    ...(machineBusy !== undefined ? { otherCpuPercent: Math.max(0, Math.round(machineBusy - serverCpuPercent - r.driverCpuPercent)) } : {}),
    attempts: 1,
  };
}

/** Busy and total jiffies of the whole machine (Linux /proc/stat), to see load from other processes. */
function machineCpu(): { busy: number; total: number } | undefined {
  try {
    const f = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    const idle = f[3] + (f[4] ?? 0);
    const total = f.reduce((a, b) => a + b, 0);
    return { busy: total - idle, total };
  } catch {
    return undefined;
  }
}

function progress(m: Measurement, extra = ''): void {
  step++;
  const noisy = (m.otherCpuPercent ?? 0) > NOISY_PERCENT ? `  (disturbed: other processes ${m.otherCpuPercent}% CPU)` : '';
  const tries = m.attempts > 1 ? ` [window ${m.attempts}]` : '';
  const bad = m.unexpected || m.errors || m.timeouts ? `  !! unexpected ${m.unexpected} errors ${m.errors} timeouts ${m.timeouts} ${JSON.stringify(m.statusCounts)}` : '';
  console.log(
    `[${elapsed()}] ${String(step).padStart(2)} ${m.id.padEnd(26)} ${fmt(m.rps).padStart(7)} req/s  p50 ${m.latencyMs.p50.toFixed(2).padStart(7)} ms  p99 ${m.latencyMs.p99.toFixed(2).padStart(7)} ms  srv ${String(m.serverCpuPercent).padStart(3)}% ${fmt(m.serverCpuMicrosPerRequest).padStart(6)} µs/req  drv ${String(m.driverCpuPercent).padStart(3)}%  other ${String(m.otherCpuPercent ?? '?').padStart(3)}%${extra}${tries}${noisy}${bad}`,
  );
}

function asWorkload(m: Measurement, group: WorkloadResult['group'], records: number, baselineId: string, koaId?: string, notes?: string[]): WorkloadResult {
  const b = baselines.get(baselineId);
  const k = koaId ? baselines.get(koaId) : undefined;
  const w: WorkloadResult = {
    ...m, group, records,
    baseline: baselineId,
    baselineRps: b?.rps ?? 0,
    ratioToRaw: b ? r3(m.rps / b.rps) : 0,
    addedMicrosPerRequest: b ? r2(1e6 / m.rps - 1e6 / b.rps) : 0,
    ...(b && b.serverCpuMicrosPerRequest && m.serverCpuMicrosPerRequest ? { cpuRatioToRaw: r3(b.serverCpuMicrosPerRequest / m.serverCpuMicrosPerRequest), addedServerCpuMicrosPerRequest: r2(m.serverCpuMicrosPerRequest - b.serverCpuMicrosPerRequest) } : {}),
    ...(k ? { koaBaseline: koaId, ratioToKoa: r3(m.rps / k.rps) } : {}),
    ...(notes?.length ? { notes } : {}),
  };
  workloads.push(w);
  progress(m, b ? `  ${w.ratioToRaw.toFixed(2)}× raw  +${fmt(w.addedMicrosPerRequest)} µs` : '');
  return w;
}

async function run(o: Parameters<typeof measure>[0] & { group: WorkloadResult['group']; records: number; baseline: string; koa?: string; notes?: string[] }): Promise<WorkloadResult | undefined> {
  try {
    return asWorkload(await measure(o), o.group, o.records, o.baseline, o.koa, o.notes);
  } catch (err) {
    skipped.push({ id: o.id, label: o.label, reason: `harness error: ${(err as Error).message.split('\n')[0]}` });
    console.log(`[--] ${o.id.padEnd(26)} FAILED: ${(err as Error).message.split('\n')[0]}`);
    return undefined;
  }
}

async function timed(fn: () => Promise<Response>): Promise<{ ms: number; status: number; text: string }> {
  const t = performance.now();
  const res = await fn();
  const text = await res.text();
  return { ms: performance.now() - t, status: res.status, text };
}

function git(cmd: string): string {
  try { return execSync(`git ${cmd}`, { cwd: ROOT, stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim(); } catch { return ''; }
}

function pkgVersion(name: string): string {
  try { return (JSON.parse(readFileSync(`${ROOT}node_modules/${name}/package.json`, 'utf8')) as { version: string }).version; } catch { return 'unknown'; }
}

// ---- phases --------------------------------------------------------------------------------

const startupOthers: StartupFigures[] = [];
let npmStart: NpmStartFigures | undefined;
let startupReference: StartupFigures | undefined;
const specSides: Partial<Record<'custom-full' | 'custom-trimmed', SpecSizeSide & { get: WorkloadResult[]; up: WorkloadResult[] }>> = {};
let trimmedResources: string[] = [];
const scaleSeries: ScaleSeries[] = [];
const memory: MemoryPoint[] = [];
const preloadMs: number[] = [];
const measuredSizes: number[] = [];
const scaleNotes: string[] = [];

function figures(s: Started, extra: Partial<StartupFigures> = {}): StartupFigures {
  return {
    server: s.kind, resources: s.info.resources, operations: s.info.operations,
    spawnToReadyMs: r2(s.spawnToReadyMs),
    processUptimeAtReadyMs: r2(s.info.startup.processUptimeAtReadyMs), modelImportMs: r2(s.info.startup.modelImportMs),
    otherImportsMs: r2(s.info.startup.otherImportsMs), startReferenceMs: r2(s.info.startup.startReferenceMs),
    ...extra,
  };
}

async function mainPhase(): Promise<void> {
  log(`\n== reference (startReference, full spec): ${fmt(CONFIG.mainSsa)} studentSchoolAssociations, ${fmt(CONFIG.deletes)} deletes`);
  const ref = await startServer('reference');
  const bearer = await token(ref, BENCH_CLIENT);
  // First requests right after ready (validator warm-up still running in the background).
  const pre = await ref.child.request<{ ssaRecords: number }>('preload', { ssa: 1 });
  const firstSample = await ref.child.request<Sample>('sample', { ids: 1 });
  const firstGet = await timed(() => fetch(`${ref.origin}${ssaPath(ref)}/${firstSample.ids[0]}`, { headers: { Authorization: `Bearer ${bearer}` } }));
  const firstPost = await timed(() => fetch(`${ref.origin}${ssaPath(ref)}`, { method: 'POST', headers: jsonHeaders(bearer), body: JSON.stringify(ssaDoc(0, newKeyDayBase(0))) }));
  if (firstGet.status !== 200 || firstPost.status !== 201) throw new Error(`sanity: first GET ${firstGet.status}, first POST ${firstPost.status} ${firstPost.text}`);
  const { settleMs } = await ref.child.request<{ settleMs: number }>('settle');
  startupReference = figures(ref, { firstGetMs: r2(firstGet.ms), firstPostMs: r2(firstPost.ms) });
  log(`start-up: ${fmt(ref.spawnToReadyMs)} ms spawn→ready (process ${fmt(ref.info.startup.processUptimeAtReadyMs)} ms: model ${fmt(ref.info.startup.modelImportMs)}, imports ${fmt(ref.info.startup.otherImportsMs)}, startReference ${fmt(ref.info.startup.startReferenceMs)}); first GET ${fmt(firstGet.ms, 1)} ms, first POST ${fmt(firstPost.ms, 1)} ms; background warm-up done ${fmt(settleMs)} ms later; ${ref.info.resources} resources, ${ref.info.operations} operations; ${pre.ssaRecords} record`);

  // The baseline children boot (tsx, imports) while the reference preloads.
  const rawChild = spawnServer('raw');
  const koaChild = spawnServer('koa');
  const load = await ref.child.request<{ ssaRecords: number; elapsedMs: number; deletes: number }>('preload', { ssa: CONFIG.mainSsa, deletes: CONFIG.deletes });
  log(`preloaded ${fmt(load.ssaRecords)} associations and ${fmt(load.deletes)} deletes in ${fmt(load.elapsedMs)} ms`);
  const sample = await ref.child.request<Sample>('sample', { ids: CONFIG.sampleIds, put: CONFIG.putRecords });
  const records = load.ssaRecords;

  // Payloads for the baselines: the reference's own response bytes.
  const auth = { headers: { Authorization: `Bearer ${bearer}` } };
  const item = await (await fetch(`${ref.origin}${ssaPath(ref)}/${sample.ids[0]}`, auth)).text();
  const page = await (await fetch(`${ref.origin}${queryPaths(ref, false)[0]}`, auth)).text();
  const v0 = sample.deleteVersions[0];
  const feed = await (await fetch(`${ref.origin}${ssaPath(ref)}/deletes?MinChangeVersion=${v0}&limit=25`, auth)).text();
  const echoBody = JSON.stringify(ssaDoc(12345, 0, 1));
  log(`payloads: item ${item.length} B, page ${page.length} B (${(JSON.parse(page) as unknown[]).length} items), feed ${feed.length} B, POST body ${echoBody.length} B`);

  // Baselines, each server in its own child.
  log('\n== baselines (same client settings, same payload bytes)');
  const raw = await startBaseline('raw', { '/item': item, '/page': page, '/feed': feed }, rawChild);
  for (const [id, path, label] of [['raw-get-item', '/item', 'node:http GET, one document'], ['raw-get-page', '/page', 'node:http GET, page of 25'], ['raw-get-feed', '/feed', 'node:http GET, 25 delete events']] as const) {
    const m = await measure({ id, label, server: raw, method: 'GET', pathExample: path, spec: { kind: 'static', method: 'GET', path, headers: {}, expect: [200] } });
    baselines.set(id, m);
    progress(m);
  }
  const echoSpec: ScenarioSpec = { kind: 'static', method: 'POST', path: '/echo', headers: { 'Content-Type': 'application/json' }, body: echoBody, expect: [200] };
  baselines.set('raw-post-echo', await measure({ id: 'raw-post-echo', label: 'node:http POST echo (read, parse, stringify)', server: raw, method: 'POST', pathExample: '/echo', spec: echoSpec }));
  progress(baselines.get('raw-post-echo')!);
  await stopServer(raw);
  const koa = await startBaseline('koa', { '/item': item }, koaChild);
  baselines.set('koa-get-item', await measure({ id: 'koa-get-item', label: 'bare Koa GET, one document', server: koa, method: 'GET', pathExample: '/item', spec: { kind: 'static', method: 'GET', path: '/item', headers: {}, expect: [200] } }));
  progress(baselines.get('koa-get-item')!);
  baselines.set('koa-post-echo', await measure({ id: 'koa-post-echo', label: 'bare Koa POST echo (reference body reading)', server: koa, method: 'POST', pathExample: '/echo', spec: echoSpec }));
  progress(baselines.get('koa-post-echo')!);
  await stopServer(koa);

  if (!phases.has('main')) { await stopServer(ref); return; }
  log('\n== reference workloads');
  const common = { server: ref, group: 'main' as const, records };
  const idPaths = sample.ids.map((id) => `${ssaPath(ref)}/${id}`);
  const feedPaths = sample.deleteVersions.slice(0, Math.max(1, sample.deleteVersions.length - 25)).filter((_, i) => i % 7 === 0).map((v) => `${ssaPath(ref)}/deletes?MinChangeVersion=${v}&limit=25`);
  const basic = `Basic ${Buffer.from(`${BENCH_CLIENT.key}:${BENCH_CLIENT.secret}`).toString('base64')}`;

  await run({ ...common, id: 'token', label: 'token issuance (client credentials, Basic)', method: 'POST', pathExample: `${ref.basePath}${TOKEN_PATH}`,
    spec: { kind: 'static', method: 'POST', path: `${ref.basePath}${TOKEN_PATH}`, headers: { Authorization: basic, 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'grant_type=client_credentials', expect: [200] },
    baseline: 'raw-post-echo', koa: 'koa-post-echo', notes: ['baseline is the JSON echo (a different, larger body): the ratio mostly shows the secret-hash and signing cost'] });
  await run({ ...common, id: 'get-by-id', label: 'GET by id', method: 'GET', pathExample: idPaths[0], spec: { kind: 'get', paths: idPaths, headers: { Authorization: `Bearer ${bearer}` }, expect: [200] }, baseline: 'raw-get-item', koa: 'koa-get-item' });
  await run({ ...common, id: 'query', label: 'GET collection, equality query, page 2 of 25', method: 'GET', pathExample: queryPaths(ref, false)[0], spec: { kind: 'get', paths: queryPaths(ref, false), headers: { Authorization: `Bearer ${bearer}` }, expect: [200] }, baseline: 'raw-get-page' });
  await run({ ...common, id: 'query-total', label: 'GET collection, equality query, page 2, totalCount', method: 'GET', pathExample: queryPaths(ref, true)[0], spec: { kind: 'get', paths: queryPaths(ref, true), headers: { Authorization: `Bearer ${bearer}` }, expect: [200] }, baseline: 'raw-get-page' });
  await run({ ...common, id: 'deletes', label: '/deletes feed, change-version window, 25', method: 'GET', pathExample: feedPaths[0], spec: { kind: 'get', paths: feedPaths, headers: { Authorization: `Bearer ${bearer}` }, expect: [200] }, baseline: 'raw-get-feed' });
  await run({ ...common, id: 'put', label: 'PUT by id with If-Match (changed document)', method: 'PUT', pathExample: `${ssaPath(ref)}/{id}`, spec: { kind: 'put', itemPath: ssaPath(ref), headers: jsonHeaders(bearer), records: sample.put, expect: [204] }, baseline: 'raw-post-echo', koa: 'koa-post-echo' });
  await run({ ...common, id: 'upsert-existing', label: 'POST upsert, existing key (update)', method: 'POST', pathExample: ssaPath(ref), spec: { kind: 'upsert-existing', path: ssaPath(ref), headers: jsonHeaders(bearer), preloadedK: sample.preloadedK, expect: [200] }, baseline: 'raw-post-echo', koa: 'koa-post-echo' });
  await run({ ...common, id: 'upsert-new', label: 'POST upsert, new key (create)', method: 'POST', pathExample: ssaPath(ref), spec: { kind: 'upsert-new', path: ssaPath(ref), headers: jsonHeaders(bearer), dayBase: newKeyDayBase(newKeyRun++), expect: [201] }, baseline: 'raw-post-echo', koa: 'koa-post-echo' });

  // Mixed: 50 % GET by id, 15 % query, 15 % new keys, 15 % existing keys, 5 % /deletes.
  const mix: { weight: number; spec: ScenarioSpec; baseline: string }[] = [
    { weight: 50, baseline: 'raw-get-item', spec: { kind: 'get', paths: idPaths, headers: { Authorization: `Bearer ${bearer}` }, expect: [200] } },
    { weight: 15, baseline: 'raw-get-page', spec: { kind: 'get', paths: queryPaths(ref, false), headers: { Authorization: `Bearer ${bearer}` }, expect: [200] } },
    { weight: 15, baseline: 'raw-post-echo', spec: { kind: 'upsert-new', path: ssaPath(ref), headers: jsonHeaders(bearer), dayBase: newKeyDayBase(newKeyRun++), expect: [201] } },
    { weight: 15, baseline: 'raw-post-echo', spec: { kind: 'upsert-existing', path: ssaPath(ref), headers: jsonHeaders(bearer), preloadedK: sample.preloadedK, expect: [200] } },
    { weight: 5, baseline: 'raw-get-feed', spec: { kind: 'get', paths: feedPaths, headers: { Authorization: `Bearer ${bearer}` }, expect: [200] } },
  ];
  // The mixed baseline: the same mix of baseline requests, per-request times weighted.
  const totalWeight = mix.reduce((s, p) => s + p.weight, 0);
  const mixedUs = mix.reduce((s, p) => s + (p.weight / totalWeight) * (1e6 / baselines.get(p.baseline)!.rps), 0);
  const mixedCpu = mix.reduce((s, p) => s + (p.weight / totalWeight) * baselines.get(p.baseline)!.serverCpuMicrosPerRequest, 0);
  const mixedOther = Math.max(...mix.map((p) => baselines.get(p.baseline)!.otherCpuPercent ?? 0));
  baselines.set('raw-mixed', { ...baselines.get('raw-get-item')!, id: 'raw-mixed', label: 'weighted mix of the raw baselines (computed, not measured)', method: 'MIXED', rps: r2(1e6 / mixedUs), serverCpuMicrosPerRequest: r2(mixedCpu), otherCpuPercent: mixedOther });
  const counted = await ref.child.request<{ ssaRecords: number }>('mem');
  await run({ ...common, records: counted.ssaRecords, id: 'mixed', label: 'mixed: 50% GET id, 15% query, 15% new, 15% update, 5% deletes', method: 'MIXED', pathExample: ssaPath(ref),
    spec: { kind: 'mixed', parts: mix.map(({ weight, spec }) => ({ weight, spec })), expect: [200, 201] }, baseline: 'raw-mixed' });

  // Rostering: runs once the rostering service exists and answers; until then, skipped.
  await rosteringWorkload(ref, records);
  await stopServer(ref);
}

/**
 * The rostering read service's path for the students of the token's education organization, or
 * why it cannot be measured (the PLACEHOLDER reasons apply until the service exists).
 */
async function rosteringPath(ref: Started, bearer: string): Promise<{ origin: string; path: string } | { reason: string }> {
  if (!existsSync(`${ROOT}reference/rostering`)) return { reason: 'PLACEHOLDER: reference/rostering/ does not exist yet; add the workload when the rostering service lands' };
  const base = ref.info.rosteringBaseUrl;
  if (!base) return { reason: `PLACEHOLDER: reference/rostering/ exists but startReference() returns no rostering URL (members: ${(ref.info as { runningKeys?: string[] }).runningKeys?.join(', ') ?? '?'}); expose e.g. rosteringBaseUrl` };
  const url = new URL(base);
  const prefix = url.pathname.replace(/\/$/, '');
  const tried: string[] = [];
  for (const c of [`${prefix}${ROSTER_PREFIX}/students?limit=25`, `${prefix}/students?limit=25`]) {
    const res = await fetch(`${url.origin}${c}`, { headers: { Authorization: `Bearer ${bearer}` } });
    const text = await res.text();
    tried.push(`${c} → ${res.status}`);
    if (res.status === 200 && /"users"/.test(text)) return { origin: url.origin, path: c };
  }
  return { reason: `rostering service answers but not as expected (${tried.join('; ')})` };
}

function skip(id: string, label: string, reason: string): void {
  skipped.push({ id, label, reason });
  console.log(`[${elapsed()}] -- ${id.padEnd(26)} skipped: ${reason}`);
}

const ROSTER_LABEL = 'rostering collection read (RS256 bearer, ed-org filtered)';

async function rosteringWorkload(ref: Started, records: number, id = 'rostering-students', group: WorkloadResult['group'] = 'main'): Promise<void> {
  const bearer = await token(ref, ROSTER_CLIENT);
  const at = await rosteringPath(ref, bearer);
  if ('reason' in at) return skip(id, ROSTER_LABEL, at.reason);
  await run({ server: { ...ref, origin: at.origin }, group, records, id, label: `${ROSTER_LABEL}, one token (verified once, then cached)`, method: 'GET', pathExample: at.path,
    spec: { kind: 'get', paths: [at.path], headers: { Authorization: `Bearer ${bearer}` }, expect: [200] }, baseline: 'raw-get-page',
    notes: ['students of school 0 visible to a token whose educationOrganizationId claim names school 0; the service caches a verified token, so RS256 is checked once'] });
}

/**
 * The rostering read with an RS256 verification on every request: more distinct tokens than the
 * service's verified-token cache holds (10,000, first in first out), presented in turn. The
 * tokens are the service's own token re-signed with new jti values by the bench, which holds the
 * issuer key (REFERENCE_ISSUER_PRIVATE_KEY_PEM given to that server child).
 */
async function rosteringFreshTokens(ref: Started, records: number, privateKeyPem: string): Promise<void> {
  const id = 'rostering-students-fresh-tokens';
  const label = `${ROSTER_LABEL}, a token not yet verified on every request`;
  const bearer = await token(ref, ROSTER_CLIENT);
  const at = await rosteringPath(ref, bearer);
  if ('reason' in at) return skip(id, label, at.reason);
  const [h, p] = bearer.split('.');
  const payload = JSON.parse(Buffer.from(p, 'base64url').toString('utf8')) as Record<string, unknown>;
  const key = createPrivateKey(privateKeyPem);
  const t = performance.now();
  const authorizations = Array.from({ length: FRESH_TOKENS }, (_, i) => {
    const body = Buffer.from(JSON.stringify({ ...payload, jti: `bench-${i}-${payload.jti as string}` })).toString('base64url');
    return `Bearer ${h}.${body}.${cryptoSign('sha256', Buffer.from(`${h}.${body}`), key).toString('base64url')}`;
  });
  log(`signed ${fmt(FRESH_TOKENS)} RS256 tokens in ${fmt(performance.now() - t)} ms`);
  await run({ server: { ...ref, origin: at.origin }, group: 'scale', records, id, label, method: 'GET', pathExample: at.path,
    spec: { kind: 'get-rotating-auth', path: at.path, authorizations, expect: [200] }, baseline: 'raw-get-page',
    notes: [`${fmt(FRESH_TOKENS)} distinct tokens in turn, more than the 10,000 the service caches: every request verifies an RS256 signature`] });
}
const FRESH_TOKENS = 12_000;

async function specPhase(): Promise<void> {
  log(`\n== spec size: full model vs five resources (both through startReference({ served })), ${fmt(CONFIG.specSsa)} associations each`);
  const sides: { kind: 'custom-full' | 'custom-trimmed'; s: Started; bearer: string; sample: Sample; records: number }[] = [];
  const spawned = { 'custom-full': spawnServer('custom-full'), 'custom-trimmed': spawnServer('custom-trimmed') };
  for (const kind of ['custom-full', 'custom-trimmed'] as const) {
    const s = await startServer(kind, spawned[kind]);
    const load = await s.child.request<{ ssaRecords: number }>('preload', { ssa: CONFIG.specSsa });
    const bearer = await token(s, BENCH_CLIENT);
    const sample = await s.child.request<Sample>('sample', { ids: CONFIG.sampleIds });
    await s.child.request('settle');
    startupOthers.push(figures(s));
    if (kind === 'custom-trimmed') trimmedResources = s.info.resourceNames ?? [];
    log(`${kind}: ${s.info.resources} resources, ${s.info.operations} operations, ready in ${fmt(s.info.startup.processUptimeAtReadyMs)} ms`);
    sides.push({ kind, s, bearer, sample, records: load.ssaRecords });
    specSides[kind] = { server: kind, resources: s.info.resources, operations: s.info.operations, getByIdRps: 0, upsertRps: 0, getByIdCpuMicros: 0, upsertCpuMicros: 0, get: [], up: [] };
  }
  for (let round = 0; round < CONFIG.specRounds; round++) {
    for (const wl of ['get-by-id', 'upsert-new'] as const) {
      for (const side of round % 2 ? [...sides].reverse() : sides) {
        const id = `spec-${side.kind.slice(7)}-${wl}${CONFIG.specRounds > 1 ? `-r${round + 1}` : ''}`;
        const spec: ScenarioSpec = wl === 'get-by-id'
          ? { kind: 'get', paths: side.sample.ids.map((i) => `${ssaPath(side.s)}/${i}`), headers: { Authorization: `Bearer ${side.bearer}` }, expect: [200] }
          : { kind: 'upsert-new', path: ssaPath(side.s), headers: jsonHeaders(side.bearer), dayBase: newKeyDayBase(newKeyRun++), expect: [201] };
        const w = await run({ server: side.s, group: 'spec', records: side.records, id, label: `${wl === 'get-by-id' ? 'GET by id' : 'POST upsert, new key'} — ${side.kind === 'custom-full' ? 'full' : 'five-resource'} spec`, method: wl === 'get-by-id' ? 'GET' : 'POST', pathExample: ssaPath(side.s), spec, baseline: wl === 'get-by-id' ? 'raw-get-item' : 'raw-post-echo' });
        if (w) (wl === 'get-by-id' ? specSides[side.kind]!.get : specSides[side.kind]!.up).push(w);
      }
    }
  }
  for (const side of sides) {
    const x = specSides[side.kind]!;
    x.getByIdRps = r2(mean(x.get.map((w) => w.rps)));
    x.upsertRps = r2(mean(x.up.map((w) => w.rps)));
    x.getByIdCpuMicros = r2(mean(x.get.map((w) => w.serverCpuMicrosPerRequest)));
    x.upsertCpuMicros = r2(mean(x.up.map((w) => w.serverCpuMicrosPerRequest)));
    await stopServer(side.s);
  }
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);

async function scalePhase(): Promise<void> {
  log(`\n== scale: ${CONFIG.scaleSizes.map((n) => fmt(n)).join(' / ')} stored associations (startReference, one server grown in place)`);
  // This server holds an issuer key the bench knows, so that it can sign fresh tokens for the
  // rostering read with a verification on every request (full mode; the start-up figures come
  // from the main reference, which generates its key as npm start does).
  const keys = quick ? undefined : generateKeyPairSync('rsa', { modulusLength: 2048, privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });
  const s = await startServer('reference', spawnServer('reference', keys ? { REFERENCE_ISSUER_PRIVATE_KEY_PEM: keys.privateKey } : {}));
  if (!startupReference && !keys) startupReference = figures(s);
  await s.child.request('preload', { ssa: 0 });
  const base = await s.child.request<{ heapUsed: number; rss: number; ssaRecords: number }>('mem');
  memory.push({ records: 0, heapUsedBytes: base.heapUsed, rssBytes: base.rss });
  const bearer = await token(s, BENCH_CLIENT);
  await s.child.request('settle');
  const points: Record<string, { records: number; rps: number; p50Ms: number; p99Ms: number; serverCpuMicros: number; disturbed: boolean }[]> = { 'get-by-id': [], query: [], 'upsert-new': [], 'get-by-id-spread': [] };
  let usPerRecord = 60; // preload cost estimate until the first top-up has been timed
  for (const planned of CONFIG.scaleSizes) {
    // The run has a time budget: a top-up that would not fit (with its windows) is
    // reduced to what fits, and the report says so.
    const current = memory[memory.length - 1].records;
    const windowsS = (2 + 2 * CONFIG.scaleGetRounds) * (CONFIG.warmup + CONFIG.duration + 1);
    const leftS = CONFIG.timeBudgetSeconds - (performance.now() - t0) / 1000 - windowsS - (quick ? 2 : 6);
    let size = planned;
    if (((planned - current) * usPerRecord) / 1e6 > leftS) {
      size = Math.floor((current + Math.max(0, (leftS * 1e6) / usPerRecord)) / 10_000) * 10_000;
      const note = size > current
        ? `largest size reduced from ${fmt(planned)} to ${fmt(size)} records to stay within the ${CONFIG.timeBudgetSeconds} s budget (preload ≈ ${fmt(usPerRecord)} µs/record)`
        : `size ${fmt(planned)} skipped: its preload (≈ ${fmt(usPerRecord)} µs/record) does not fit the ${CONFIG.timeBudgetSeconds} s budget`;
      scaleNotes.push(note);
      log(`-- ${note}`);
      if (size <= current) break;
    }
    const load = await s.child.request<{ ssaRecords: number; elapsedMs: number; created: number }>('preload', { ssa: size });
    if (load.created > 1000) usPerRecord = (load.elapsedMs * 1000) / load.created;
    measuredSizes.push(size);
    preloadMs.push(r2(load.elapsedMs));
    const m = await s.child.request<{ heapUsed: number; rss: number; ssaRecords: number }>('mem');
    memory.push({ records: m.ssaRecords, heapUsedBytes: m.heapUsed, rssBytes: m.rss });
    log(`-- ${fmt(m.ssaRecords)} records (top-up of ${fmt(load.created)} in ${fmt(load.elapsedMs)} ms), heapUsed ${fmt(m.heapUsed / 2 ** 20)} MiB, rss ${fmt(m.rss / 2 ** 20)} MiB`);
    // GET by id reads the same number of distinct records (the smallest size) at every size, so
    // that the series measures the store's size and not the client's working set; the spread
    // series reads ids drawn from every record (10,000 distinct at the larger sizes, all 1,000
    // at the smallest), which adds the cost of a working set that outgrows the CPU caches.
    const hot = await s.child.request<Sample>('sample', { ids: CONFIG.sampleIds, distinct: CONFIG.scaleSizes[0] });
    const sample = await s.child.request<Sample>('sample', { ids: CONFIG.sampleIds });
    const getSpec = (ids: string[]) => ({ kind: 'get' as const, paths: ids.map((i) => `${ssaPath(s)}/${i}`), headers: { Authorization: `Bearer ${bearer}` }, expect: [200] });
    const common = { server: s, group: 'scale' as const, records: m.ssaRecords };
    // The GET windows run in two rounds and the faster of each counts: interference (JIT
    // warm-up in the first window of a fresh server, the sweeping that follows a million-record
    // top-up) only ever slows a window down, and the first GET window of a size showed ±20 %.
    // Upserts run last: each adds ~20k records, which the reads must not see.
    const reads: (WorkloadResult | undefined)[][] = [[], []];
    for (let round = 1; round <= CONFIG.scaleGetRounds; round++) {
      const suffix = round > 1 ? `-round${round}` : '';
      reads[0].push(await run({ ...common, id: `scale-get-by-id-${size}${suffix}`, label: `GET by id at ${fmt(size)} (${fmt(CONFIG.scaleSizes[0])} distinct records read)${suffix ? `, round ${round}` : ''}`, method: 'GET', pathExample: `${ssaPath(s)}/${hot.ids[0]}`, spec: getSpec(hot.ids), baseline: 'raw-get-item' }));
      reads[1].push(await run({ ...common, id: `scale-get-by-id-spread-${size}${suffix}`, label: `GET by id at ${fmt(size)} (ids drawn from every record)${suffix ? `, round ${round}` : ''}`, method: 'GET', pathExample: `${ssaPath(s)}/${sample.ids[0]}`, spec: getSpec(sample.ids), baseline: 'raw-get-item' }));
    }
    const fastest = (ws: (WorkloadResult | undefined)[]) => ws.filter((w): w is WorkloadResult => !!w).sort((a, b) => b.rps - a.rps)[0];
    const results = [
      fastest(reads[0]),
      await run({ ...common, id: `scale-query-${size}`, label: `equality query, page 2 of 25, at ${fmt(size)}`, method: 'GET', pathExample: queryPaths(s, false)[0], spec: { kind: 'get', paths: queryPaths(s, false), headers: { Authorization: `Bearer ${bearer}` }, expect: [200] }, baseline: 'raw-get-page' }),
      await run({ ...common, id: `scale-upsert-new-${size}`, label: `POST upsert, new key, at ${fmt(size)}`, method: 'POST', pathExample: ssaPath(s), spec: { kind: 'upsert-new', path: ssaPath(s), headers: jsonHeaders(bearer), dayBase: newKeyDayBase(newKeyRun++), expect: [201] }, baseline: 'raw-post-echo' }),
      fastest(reads[1]),
    ];
    if (size === measuredSizes[0]) {
      // RS256 on every rostering request vs once per token, on the same server and data.
      if (keys) {
        await rosteringWorkload(s, m.ssaRecords, `rostering-students-cached-${size}`, 'scale');
        await rosteringFreshTokens(s, m.ssaRecords, keys.privateKey);
      } else skip('rostering-students-fresh-tokens', `${ROSTER_LABEL}, a token not yet verified on every request`, 'quick mode (signing 12,000 tokens takes seconds); run the full bench');
    }
    for (const [i, key] of (['get-by-id', 'query', 'upsert-new', 'get-by-id-spread'] as const).entries()) {
      const w = results[i];
      if (w) points[key].push({ records: w.records, rps: w.rps, p50Ms: w.latencyMs.p50, p99Ms: w.latencyMs.p99, serverCpuMicros: w.serverCpuMicrosPerRequest, disturbed: disturbed(w) });
    }
  }
  for (const [workload, pts] of Object.entries(points)) {
    const [a, z] = [pts[0], pts[pts.length - 1]];
    scaleSeries.push({
      workload, points: pts,
      slowdownLargestVsSmallest: pts.length > 1 ? r2(a.rps / z.rps) : 0,
      cpuSlowdownLargestVsSmallest: pts.length > 1 && a.serverCpuMicros ? r2(z.serverCpuMicros / a.serverCpuMicros) : 0,
    });
  }
  await stopServer(s);
}

// ---- report --------------------------------------------------------------------------------

/**
 * The issue's goals. Ratios are throughput ratios as the issue defines them; when a window
 * involved was disturbed by other processes, the server-CPU-per-request ratio (robust to that)
 * is used instead and the note says so. Both are always in the note.
 */
function evaluateTargets(): TargetCheck[] {
  const w = (id: string) => workloads.find((x) => x.id === id);
  const checks: TargetCheck[] = [];
  const add = (id: string, description: string, goal: string, value: number | null, met: boolean | null, note?: string) =>
    checks.push({ id, description, goal, value: value === null ? null : r3(value), met, ...(note ? { note } : {}) });
  /** A workload against its raw node:http baseline, or against the bare-Koa one answering the same payload. */
  const ratioTarget = (id: string, description: string, workloadId: string, min: number, against: 'raw' | 'koa' = 'raw') => {
    const x = w(workloadId);
    const baselineId = against === 'raw' ? x?.baseline : x?.koaBaseline;
    const b = baselineId ? baselines.get(baselineId) : undefined;
    if (!x || !b) return add(id, description, `≥ ${min}`, null, null, 'not measured');
    const rps = x.rps / b.rps;
    const cpu = b.serverCpuMicrosPerRequest && x.serverCpuMicrosPerRequest ? b.serverCpuMicrosPerRequest / x.serverCpuMicrosPerRequest : 0;
    const noisy = disturbed(x) || disturbed(b);
    const value = noisy ? cpu : rps;
    add(id, description, `≥ ${min}`, value, value >= min,
      `${noisy ? 'disturbed window: value is the server-CPU ratio; ' : ''}throughput ratio ${rps.toFixed(2)} (${fmt(x.rps)} vs ${fmt(b.rps)} req/s), server-CPU ratio ${cpu.toFixed(2)} (${fmt(b.serverCpuMicrosPerRequest)} vs ${fmt(x.serverCpuMicrosPerRequest)} µs/req)`);
  };
  // Issue #25's goals; GET by id ÷ raw node:http (issue #22's goal, ≥ 0.35) stays in the table's ×raw column.
  ratioTarget('get-by-id-koa-ratio', 'GET by id ÷ bare Koa GET', 'get-by-id', 0.8, 'koa');
  ratioTarget('upsert-ratio', 'validated upsert (new key) ÷ raw node:http JSON echo', 'upsert-new', 0.35);
  ratioTarget('upsert-existing-ratio', 'validated upsert (existing key) ÷ raw node:http JSON echo', 'upsert-existing', 0.35);
  const full = specSides['custom-full'];
  const trimmed = specSides['custom-trimmed'];
  for (const [label, rpsKey, cpuKey, list] of [['GET by id', 'getByIdRps', 'getByIdCpuMicros', 'get'], ['upsert (new key)', 'upsertRps', 'upsertCpuMicros', 'up']] as const) {
    const id = `spec-size-${list === 'get' ? 'get-by-id' : 'upsert'}`;
    if (!full || !trimmed || !trimmed[rpsKey] || !full[rpsKey]) { add(id, `${label}: full spec ÷ five-resource spec`, '≥ 0.90 (within 10 %)', null, null, 'not measured'); continue; }
    const rpsRatio = full[rpsKey] / trimmed[rpsKey];
    const cpuRatio = full[cpuKey] ? trimmed[cpuKey] / full[cpuKey] : 0;
    const noisy = [...full[list], ...trimmed[list]].some((m) => disturbed(m));
    const value = noisy ? cpuRatio : rpsRatio;
    add(id, `${label}: full spec ÷ five-resource spec`, '≥ 0.90 (within 10 %)', value, value >= 0.9,
      `${noisy ? 'disturbed window: value is the server-CPU ratio; ' : ''}throughput ${fmt(full[rpsKey])} vs ${fmt(trimmed[rpsKey])} req/s (${rpsRatio.toFixed(2)}), server CPU ${fmt(full[cpuKey])} vs ${fmt(trimmed[cpuKey])} µs/req (${cpuRatio.toFixed(2)})`);
  }
  const largest = measuredSizes[measuredSizes.length - 1] ?? 0;
  for (const sr of scaleSeries) {
    // The spread series is reported, not held to the goal: it measures the working set as well.
    if (sr.workload === 'get-by-id-spread') continue;
    const noisy = sr.points.some((p) => p.disturbed);
    const value = noisy ? sr.cpuSlowdownLargestVsSmallest : sr.slowdownLargestVsSmallest;
    add(`scale-${sr.workload}`, `${sr.workload}: ${fmt(measuredSizes[0] ?? 0)} records vs ${fmt(largest)} (slowdown)`, '≤ 1.5', value || null, value ? value <= 1.5 : null,
      `${noisy ? 'disturbed window: value is the server-CPU-per-request ratio; ' : ''}throughput ${sr.points.map((p) => fmt(p.rps)).join(' → ')} req/s (${sr.slowdownLargestVsSmallest.toFixed(2)}), server CPU ${sr.points.map((p) => fmt(p.serverCpuMicros)).join(' → ')} µs/req (${sr.cpuSlowdownLargestVsSmallest.toFixed(2)})${largest < 1_000_000 ? `; largest size ${fmt(largest)}, not 1,000,000${quick ? ' (quick mode)' : ''}` : ''}`);
  }
  const perRecord = heapBytesPerRecord();
  add('heap-per-record', `heap per stored record at ${fmt(memory[memory.length - 1]?.records ?? 0)} records`, '≤ 900 B', perRecord || null, perRecord ? perRecord <= 900 : null,
    perRecord ? `heap ${memory.map((m) => `${fmt(m.records)} → ${fmt(m.heapUsedBytes / 2 ** 20)} MiB`).join('; ')}` : 'not measured (no scale point: see the scale phase)');
  const ns = npmStart;
  const runs = (xs: number[] | undefined) => (xs ? `${xs.map((n) => fmt(n)).join(', ')} ms` : '');
  add('startup', 'npm start, cold: spawn → listening (median)', '< 1500 ms', ns?.medianListeningMs ?? null, ns ? ns.medianListeningMs < 1500 : null, ns ? `${ns.command}; runs ${runs(ns.listeningMs)}` : 'not measured (--only without startup)');
  add('first-answer', 'npm start, cold: spawn → first answered request (median)', '< 1000 ms', ns?.medianFirstAnswerMs ?? null, ns ? ns.medianFirstAnswerMs < 1000 : null,
    ns ? `runs ${runs(ns.firstAnswerMs)}; through npm's wrapper ${ns.viaNpmFirstAnswerMs === undefined ? 'n/a' : `${fmt(ns.viaNpmFirstAnswerMs)} ms`}` : 'not measured (--only without startup)');
  return checks;
}

/** Heap grown per record from the smallest scale point to the largest (0 when not measured). */
function heapBytesPerRecord(): number {
  const last = memory[memory.length - 1];
  return last && last.records ? Math.round((last.heapUsedBytes - memory[0].heapUsedBytes) / last.records) : 0;
}

function table(rows: string[][], align: ('l' | 'r')[]): string {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows.map((r, ri) => {
    const line = r.map((c, i) => (align[i] === 'l' ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
    return ri === 0 ? `${line}\n${widths.map((w) => '-'.repeat(w)).join('  ')}` : line;
  }).join('\n');
}

function printReport(report: BenchReport): void {
  console.log(`\n================ benchmark (${report.mode}) — ${report.manifest.cpuCount}× ${report.manifest.cpuModel}, Node ${report.manifest.node}, c=${report.client.connections}, ${report.client.durationSeconds} s windows after ${report.client.warmupSeconds} s warm-up`);
  const mrows = [['id', 'records', 'req/s', 'p50 ms', 'p99 ms', '×raw', '×koa', '+µs/req', 'srv µs/req', 'drv %', 'bad']];
  for (const m of report.baselines) mrows.push([m.id, '', fmt(m.rps), m.latencyMs.p50.toFixed(2), m.latencyMs.p99.toFixed(2), '', '', '', fmt(m.serverCpuMicrosPerRequest), String(m.driverCpuPercent), m.unexpected ? String(m.unexpected) : '']);
  for (const w of report.workloads) {
    mrows.push([w.id, fmt(w.records), fmt(w.rps), w.latencyMs.p50.toFixed(2), w.latencyMs.p99.toFixed(2), w.ratioToRaw.toFixed(2), w.ratioToKoa !== undefined ? w.ratioToKoa.toFixed(2) : '', fmt(w.addedMicrosPerRequest), fmt(w.serverCpuMicrosPerRequest), String(w.driverCpuPercent), w.unexpected ? String(w.unexpected) : '']);
  }
  console.log(table(mrows, ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r']));
  for (const s of report.skipped) console.log(`skipped ${s.id}: ${s.reason}`);
  if (report.stages.length) console.log(`\n${formatStages(report.stages)}`);
  if (report.scale.series.length) {
    console.log('\nscale (req/s by stored records)');
    const srows = [['workload', ...report.scale.sizes.map((n) => fmt(n)), 'small÷large']];
    for (const sr of report.scale.series) srows.push([sr.workload, ...report.scale.sizes.map((_, i) => (sr.points[i] ? `${fmt(sr.points[i].rps)} (p99 ${sr.points[i].p99Ms.toFixed(1)})` : '')), sr.slowdownLargestVsSmallest.toFixed(2)]);
    console.log(table(srows, ['l', ...report.scale.sizes.map(() => 'r' as const), 'r']));
    console.log(`memory: ${report.scale.memory.map((m) => `${fmt(m.records)} → heap ${fmt(m.heapUsedBytes / 2 ** 20)} MiB / rss ${fmt(m.rssBytes / 2 ** 20)} MiB`).join('; ')}; ${fmt(report.scale.heapBytesPerRecord)} bytes of heap per record`);
  }
  const st = report.startup.reference;
  if (st.processUptimeAtReadyMs) console.log(`\nstart-up (${st.resources} resources, ${st.operations} operations): process→listening ${fmt(st.processUptimeAtReadyMs)} ms (model ${fmt(st.modelImportMs)}, imports ${fmt(st.otherImportsMs)}, startReference ${fmt(st.startReferenceMs)}); spawn→ready ${fmt(st.spawnToReadyMs)} ms; first GET ${st.firstGetMs?.toFixed(1)} ms, first POST ${st.firstPostMs?.toFixed(1)} ms`);
  for (const o of report.startup.others) console.log(`  ${o.server}: ${o.resources} resources, ${o.operations} operations, process→listening ${fmt(o.processUptimeAtReadyMs)} ms (custom starter ${fmt(o.startReferenceMs)} ms)`);
  const sp = report.specSize;
  if (sp.full.getByIdRps) console.log(`spec size, full (${sp.full.operations} ops) vs trimmed (${sp.trimmed.operations} ops): GET by id ${fmt(sp.full.getByIdRps)} vs ${fmt(sp.trimmed.getByIdRps)} req/s (${sp.getByIdRatio.toFixed(2)}), ${fmt(sp.full.getByIdCpuMicros)} vs ${fmt(sp.trimmed.getByIdCpuMicros)} µs/req (${sp.getByIdCpuRatio.toFixed(2)}); upsert ${fmt(sp.full.upsertRps)} vs ${fmt(sp.trimmed.upsertRps)} req/s (${sp.upsertRatio.toFixed(2)}), ${fmt(sp.full.upsertCpuMicros)} vs ${fmt(sp.trimmed.upsertCpuMicros)} µs/req (${sp.upsertCpuRatio.toFixed(2)})`);
  console.log('\ntargets (goals, not assertions)');
  for (const t of report.targets) console.log(`  ${t.met === null ? '  ?' : t.met ? ' ok' : 'MISS'}  ${t.description}: ${t.value ?? 'n/a'} (goal ${t.goal})${t.note ? ` — ${t.note}` : ''}`);
}

/**
 * What durability costs: creates against a journaled store (`file:`), as `npm start --config`
 * with a dataStore runs, without and with journalFsync (a disk flush per acknowledged write).
 */
let remote: RemoteCertification | undefined;

/**
 * The complete certification through a latency proxy: the strength tool's embedded deployments
 * and proxy (tools/strength/run.ts --remote-latency), every suite, default workers. Its output
 * is passed through; its last line is the figure.
 */
async function remoteCertification(roundTripMs: number): Promise<RemoteCertification> {
  log(`\n== remote certification: every suite through a ${roundTripMs} ms round trip (npm run strength -- --remote-latency ${roundTripMs})`);
  const child = spawn(process.execPath, ['--import', 'tsx', 'tools/strength/run.ts', '--remote-latency', String(roundTripMs)], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (s: string) => { output += s; process.stdout.write(s); });
  await new Promise((resolve) => child.once('close', resolve));
  const line = output.trim().split('\n').reverse().find((l) => l.startsWith('remote certification at')) ?? '';
  const m = /^remote certification at [\d.]+ ms: ([\d.]+) s \(verdict (\S+), (\d+|\?) workers?\)$/.exec(line);
  if (!m) throw new Error(`the remote certification printed no result line (exit ${child.exitCode})`);
  return { roundTripMs, seconds: Number(m[1]), verdict: m[2], workers: Number(m[3]) || 0, line };
}

async function durabilityPhase(): Promise<void> {
  log('\n== durable store: POST upsert, new key, journaled, without and with fsync per write');
  for (const fsync of [false, true]) {
    const dir = mkdtempSync(join(os.tmpdir(), 'bench-durable-'));
    const s = await startServer('reference', spawnServer('reference', { BENCH_DATA_STORE: `file:${join(dir, 'store.json')}`, BENCH_JOURNAL_FSYNC: fsync ? '1' : '0' }));
    try {
      const bearer = await token(s, BENCH_CLIENT);
      // The schools, students and descriptors the new associations reference.
      await s.child.request('preload', { ssa: 1 });
      await s.child.request('settle');
      await run({ server: s, group: 'main', records: 1, id: fsync ? 'upsert-new-durable-fsync' : 'upsert-new-durable', label: `POST upsert, new key, durable store${fsync ? ', fsync per write' : ''}`, method: 'POST', pathExample: ssaPath(s),
        spec: { kind: 'upsert-new', path: ssaPath(s), headers: jsonHeaders(bearer), dayBase: newKeyDayBase(newKeyRun++), expect: [201] }, baseline: 'raw-post-echo', notes: [`journal on ${dir}`] });
    } finally {
      await stopServer(s);
      rmSync(dir, { recursive: true, force: true });
    }
  }
}

async function main(): Promise<void> {
  console.log(`bench ${quick ? '--quick' : '(full)'}${standardArg ? ` --data-standard=${standardArg}` : ''}: c=${CONFIG.connections}, warm-up ${CONFIG.warmup} s, window ${CONFIG.duration} s; phases ${[...phases].join(', ')}${profileArg ? '; profiling' : ''}; ${PIN ? `servers pinned to CPU ${SERVER_CPU}, load generator to CPU ${DRIVER_CPU}` : 'no CPU pinning'}`);
  const phaseTimes: string[] = [];
  const phase = async (name: string, fn: () => Promise<void>) => {
    const start = performance.now();
    try {
      await fn();
      phaseTimes.push(`${name} ${((performance.now() - start) / 1000).toFixed(1)} s`);
    } catch (err) {
      console.error(`phase ${name} failed:`, err);
      skipped.push({ id: `phase-${name}`, label: `${name} phase`, reason: `harness error: ${(err as Error).message.split('\n')[0]}` });
      process.exitCode = 1;
    }
  };
  // First, on a machine nothing else of the bench loads yet.
  if (phases.has('startup')) await phase('startup', async () => {
    npmStart = await measureNpmStart(quick ? 3 : 5, process.env.BENCH_DATA_STANDARD);
    log(`npm start (${npmStart.command}): first answer ${npmStart.firstAnswerMs.map((n) => fmt(n)).join(', ')} ms (median ${fmt(npmStart.medianFirstAnswerMs)}); listening median ${fmt(npmStart.medianListeningMs)} ms; through npm ${npmStart.viaNpmFirstAnswerMs === undefined ? 'n/a' : fmt(npmStart.viaNpmFirstAnswerMs)} ms`);
  });
  if (phases.has('baselines') || phases.has('main')) await phase('main', mainPhase);
  if (phases.has('spec')) await phase('spec', specPhase);
  if (phases.has('scale')) await phase('scale', scalePhase);
  if (phases.has('durability')) await phase('durability', durabilityPhase);
  if (phases.has('remote')) await phase('remote', async () => { remote = await remoteCertification(remoteLatency!); });

  const report: BenchReport = {
    $schema: '../spec/schemas/bench-report.schema.json',
    schemaVersion: 1,
    generatedAt: new Date().toISOString(),
    mode: quick ? 'quick' : 'full',
    elapsedSeconds: r2((performance.now() - t0) / 1000),
    manifest: {
      commit: git('rev-parse HEAD'),
      dirty: git('status --porcelain') !== '',
      node: process.version,
      platform: os.platform(),
      arch: os.arch(),
      cpuModel: os.cpus()[0]?.model ?? 'unknown',
      cpuCount: os.cpus().length,
      totalMemoryBytes: os.totalmem(),
      packages: Object.fromEntries(['autocannon', 'koa', '@koa/router', 'openapi-backend', 'ajv', 'jose', 'tsx'].map((p) => [p, pkgVersion(p)])),
    },
    client: { tool: 'autocannon', toolVersion: pkgVersion('autocannon'), connections: CONFIG.connections, pipelining: 1, warmupSeconds: CONFIG.warmup, durationSeconds: CONFIG.duration, host: '127.0.0.1', separateProcesses: true, cpuPinning: PIN ? `servers on CPU ${SERVER_CPU}, load generator on CPU ${DRIVER_CPU} (taskset -a)` : 'none (taskset unavailable or a single CPU)' },
    baselines: [...baselines.values()],
    workloads,
    skipped,
    scale: {
      sizes: measuredSizes,
      plannedSizes: CONFIG.scaleSizes,
      ...(scaleNotes.length ? { notes: scaleNotes } : {}),
      series: scaleSeries,
      memory,
      heapBytesPerRecord: heapBytesPerRecord(),
      preloadMs,
    },
    startup: { reference: startupReference ?? { server: 'reference', resources: 0, operations: 0, spawnToReadyMs: 0, processUptimeAtReadyMs: 0, modelImportMs: 0, otherImportsMs: 0, startReferenceMs: 0 }, others: startupOthers, ...(npmStart ? { npmStart } : {}) },
    specSize: {
      trimmedResources,
      full: strip(specSides['custom-full'], 'custom-full'),
      trimmed: strip(specSides['custom-trimmed'], 'custom-trimmed'),
      getByIdRatio: ratio(specSides['custom-full']?.getByIdRps, specSides['custom-trimmed']?.getByIdRps),
      upsertRatio: ratio(specSides['custom-full']?.upsertRps, specSides['custom-trimmed']?.upsertRps),
      getByIdCpuRatio: ratio(specSides['custom-trimmed']?.getByIdCpuMicros, specSides['custom-full']?.getByIdCpuMicros),
      upsertCpuRatio: ratio(specSides['custom-trimmed']?.upsertCpuMicros, specSides['custom-full']?.upsertCpuMicros),
      note: 'Both sides start through startReference({ served }): the same start-up, with the full model or the five-resource one and documents built from each.',
    },
    targets: [],
    profiles,
    stages,
    ...(remote ? { remote } : {}),
    interference: {
      noisyPercent: NOISY_PERCENT,
      budgetMs: CONFIG.interferenceBudgetMs,
      spentMs: Math.round(interferenceSpentMs),
      disturbed: [...baselines.values(), ...workloads].filter((m) => (m.otherCpuPercent ?? 0) > NOISY_PERCENT).map((m) => `${m.id} (${m.otherCpuPercent}%)`),
    },
  };
  report.targets = evaluateTargets();
  mkdirSync(`${ROOT}reports`, { recursive: true });
  writeFileSync(`${ROOT}reports/bench.json`, `${JSON.stringify(report, null, 2)}\n`);
  printReport(report);
  const schemaFile = `${ROOT}spec/schemas/bench-report.schema.json`;
  if (existsSync(schemaFile)) {
    const validate = new Ajv({ allErrors: true, strict: false }).compile(JSON.parse(readFileSync(schemaFile, 'utf8')));
    if (!validate(report)) console.log(`\nreports/bench.json does NOT match spec/schemas/bench-report.schema.json: ${JSON.stringify(validate.errors?.slice(0, 5))}`);
    else console.log('\nreports/bench.json matches spec/schemas/bench-report.schema.json');
  }
  if (report.interference.disturbed.length) console.log(`\ndisturbed by other processes (figures less reliable): ${report.interference.disturbed.join(', ')}`);
  console.log(`wrote reports/bench.json in ${fmt(report.elapsedSeconds, 1)} s (${phaseTimes.join(', ')}; waiting for quiet / re-measuring ${fmt(interferenceSpentMs / 1000, 1)} s)`);
  // The remote figure last: the line a vendor or CI looks for (issue #24 point 5).
  if (report.remote) console.log(report.remote.line);
}

function strip(x: (SpecSizeSide & { get: WorkloadResult[]; up: WorkloadResult[] }) | undefined, server: ServerKind): SpecSizeSide {
  if (!x) return { server, resources: 0, operations: 0, getByIdRps: 0, upsertRps: 0, getByIdCpuMicros: 0, upsertCpuMicros: 0 };
  const { get: _g, up: _u, ...side } = x;
  return side;
}
const ratio = (a?: number, b?: number) => (a && b ? r3(a / b) : 0);

try {
  await main();
} catch (err) {
  console.error(err);
  process.exitCode = 1;
} finally {
  await Promise.all(children.map((c) => c.stop().catch(() => undefined)));
}
