/**
 * `npm run strength`: how strong the suites are, both ways. Starts the reference (with the
 * rostering routing flows), then runs through the deviating proxy: first the whole suite against
 * the conforming reference (the clean proxy must pass everything), then each fault of the
 * catalogue, two at a time. A fault that breaks the seed runs the suites that should notice it
 * and is caught when a rule fails (the run's conformance report says which); a conforming
 * deviation (`expect: 'conformant'`: another wording, a status the seed leaves open) runs every
 * suite and is accepted when no MUST rule fails or stops passing. Prints one line per fault and,
 * last, `faults detected: N/M` and `conforming deviations accepted: K/L`. Details go to
 * reports/strength/.
 *
 * Usage: [STRENGTH_PORT_BASE=23100] tsx tools/strength/run.ts [--target <embedded target file>] [fault name ...]   (default: every fault, on the seed's 4.0 configuration)
 *
 * `--remote-latency <ms>` (or `=<ms>`) measures certification in practice instead (issue #24 point 5):
 * the complete target, every suite, through a proxy delaying each direction by half that round trip
 * (delay-proxy.ts), with the workers the defaults choose; it ends with the phases line (where the
 * time went: phases.ts), the machine's line (its cores, its load, the CPU-seconds the run used:
 * cpu.ts) and then
 * `remote certification at <ms> ms: N s (verdict V, W workers)`; `--workers <n>` beside it runs
 * another count than the defaults choose.
 *
 * `--kills [seed]` runs the killed-run acceptance instead (kills.ts): five runs killed at drawn
 * points in set-up, mid-suite and teardown, then cleanup, the store digest and a clean run.
 *
 * `--shards [n]` runs the concurrent-shards acceptance instead (shards.ts): n shards of one run at
 * the same time merge into the unsharded verdict; with one killed, the merge says incomplete.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { copyFileSync, createWriteStream, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compiledReferenceFresh, embeddedDeployments, type EmbeddedProcess } from '../embedded/deployments.js';
import type { BuiltFlows } from '../embedded/flows.js';
import type { ConformanceReport } from '../../suites/_harness/reporter/types.js';
import type { Target } from '../../suites/targets/types.js';
import { args, basePath, configFile, conformanceIssuer, referenceTarget, referenceTargetFile, servedStandard, targetServing } from './configuration.js';
import { portBlocks } from '../ports.js';
import { faults, type Fault } from './faults/index.js';
import { DeviatingProxy, Tokens, type Clients, type Route, type Transformer } from './proxy.js';
import { killAcceptance, type KillHarness, type Watch } from './kills.js';
import { latency } from './latency.js';
import { cpuLine, cpuMark } from './cpu.js';
import { phasesLine, phasesOf } from './phases.js';
import { DelayProxy } from './delay-proxy.js';
import type { PortFront } from './front.js';
import { shardAcceptance, type ShardHarness } from './shards.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const out = join(root, 'reports/strength');
const PARALLEL = 2;
/**
 * Suites that change state other runs see, one run at a time: the snapshot, the school-limited
 * client's school, and the rostering data, written once per run under the target's reserved
 * organization ids (rostering.organizations), which two runs cannot hold at once.
 */
const EXCLUSIVE = ['snapshot', 'authorization', 'rostering'];
/**
 * A Playwright run that takes longer is killed: a hang, not a slow run. The whole suite (about
 * 4,000 tests per configuration since the generated per-member checks) takes 2–3 min on a quiet
 * machine and was measured at 5–9 min at a load of 20 on two cores; 5 min killed conforming runs
 * mid-way, leaving rostering data behind for the next.
 */
const RUN_TIMEOUT_MS = 15 * 60_000;
/**
 * A fault run stops after this many failed tests: a few name the tests that caught it, and every
 * failure costs a worker restart.
 */
const MAX_FAILURES = 5;

const children = new Set<ChildProcess>();
/** What a run needs of the proxy in front of the deployments: the deviating one, or the delay proxy. */
type Front = Pick<PortFront, 'urlFor'> & { readonly errors: string[]; close(): Promise<void> };
const proxies = new Set<Front>();

// ---- ports -----------------------------------------------------------------------------------------

/**
 * Where the references' ports come from: STRENGTH_PORT_BASE=<port> takes consecutive blocks from
 * there (for a machine where several runs share fixed port ranges); otherwise random blocks. The
 * proxy listens on ephemeral ports.
 */
const freeBlock = portBlocks(process.env.STRENGTH_PORT_BASE ? Number(process.env.STRENGTH_PORT_BASE) : undefined);

// ---- the reference -------------------------------------------------------------------------------

interface Deployment { flow: string; dataPort: number; rosteringPort: number; issuer: string; audience: string; multiTenant: boolean; contextRouting: boolean }

/** The variable the reference target names for the single flow's secrets. */
const SECRETS_ENV = referenceTarget.rostering?.flows?.single?.secretsEnv;

/** The run's admin secret (the reference has no default one): the references take it, the suites read it via the target's secretEnv. */
process.env.CONFORMANCE_ADMIN_SECRET ??= randomBytes(24).toString('base64url');

function startProcess(p: EmbeddedProcess): ChildProcess {
  const log = createWriteStream(join(out, `reference-${p.name}.log`));
  const child = spawn(process.execPath, p.args, { cwd: root, env: { ...process.env, ...p.env }, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.pipe(log);
  child.stderr!.pipe(log);
  children.add(child);
  child.on('exit', () => children.delete(child));
  return child;
}

async function waitFor(url: string, child: ChildProcess, ms = 60_000): Promise<void> {
  const until = Date.now() + ms;
  let last = 'no answer';
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`the reference behind ${url} exited with ${child.exitCode}`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      if (res.status === 200) return;
      last = `${res.status} ${await res.text()}`;
    } catch (err) {
      last = (err as Error).message; // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not answer 200 within ${ms / 1000} s (last: ${last})`);
}

/**
 * The embedded deployments (tools/embedded/deployments.ts) on free ports: the reference, one
 * process per other routing flow, and the deployment whose host lowered the maximum page size, so
 * that the clean run can be conformant and a conforming deviation be judged against that.
 */
async function startReferences(privateKeyPem: string, testIssuerPrivateKeyPem: string): Promise<{ deployments: Deployment[]; flows: BuiltFlows; loweredPort: number }> {
  const dataPort = await freeBlock(2);
  const flowsBase = await freeBlock(6);
  const loweredPort = await freeBlock(2);
  const origin = (p: number) => `http://127.0.0.1:${p}`;
  const dataApiBaseUrl = `${origin(dataPort)}${basePath}`;
  const at = (i: number) => ({ dataApi: `${origin(flowsBase + 2 * i)}${basePath}`, rostering: origin(flowsBase + 2 * i + 1) });
  const { processes, flows } = embeddedDeployments({
    configFile,
    dataApiBaseUrl, rosteringOrigin: origin(dataPort + 1),
    flows: { context: at(0), tenant: at(1), tenantContext: at(2) },
    ...(SECRETS_ENV ? { secretsEnv: SECRETS_ENV } : {}),
    lowered: { baseUrl: `${origin(loweredPort)}${basePath}`, pageSizeMaximum: referenceTarget.capabilities?.loweredPageSize?.pageSizeMaximum ?? 25 },
    privateKeyPem,
    // The suites' own test issuer (capability testIssuer), trusted by every rostering service besides the issuer.
    testIssuerPrivateKeyPem,
    adminSecret: process.env.CONFORMANCE_ADMIN_SECRET!,
    // Compiled where the build is fresh (no coverage here): less CPU beside the suites' workers.
    ...(compiledReferenceFresh() ? { compiled: {} } : {}),
  });
  await Promise.all(processes.map((p) => waitFor(p.readyUrl, startProcess(p))));
  // The proxy's routes: where each flow listens, and what its rostering service checks.
  const deployments: Deployment[] = [
    // The single flow's issuer and audience are the conformance configuration's, where it sets them.
    { flow: 'single', dataPort, rosteringPort: dataPort + 1, issuer: conformanceIssuer.issuer ?? dataApiBaseUrl, audience: conformanceIssuer.audience ?? origin(dataPort + 1), multiTenant: false, contextRouting: false },
    ...flows.servers.map((s) => ({
      flow: s.name, dataPort: s.dataPort, rosteringPort: s.rosteringPort, issuer: s.env.OAUTH2_ISSUERBASEURL, audience: s.env.OAUTH2_AUDIENCE,
      multiTenant: s.env.MULTITENANCY_ENABLED === 'true', contextRouting: Boolean(s.env.ODS_CONTEXT_ROUTE_TEMPLATE),
    })),
  ];
  // The suites read the single flow's secrets from the variable the target names.
  if (SECRETS_ENV) process.env[SECRETS_ENV] = flows.secrets.join('\n');
  // …and the issuer's public key from the variable its rostering.issuerPublicKey names.
  process.env.CONFORMANCE_ISSUER_PUBLIC_KEY_PEM = flows.issuerPublicKeyPem;
  return { deployments, flows, loweredPort };
}

function clientsOf(target: Target): Clients {
  const out: Clients = {};
  for (const [role, c] of Object.entries(target.clients)) {
    const key = c?.key ?? (c?.keyEnv ? process.env[c.keyEnv] : undefined);
    const secret = c?.secret ?? (c?.secretEnv ? process.env[c.secretEnv] : undefined);
    if (key) out[role] = { key, ...(secret ? { secret } : {}) };
  }
  return out;
}

/**
 * Every school year a suite worker may use exists before the runs start: a year a test creates is
 * deleted after it, which a concurrent run (other run id, maybe the same year) may still need.
 */
async function seedSchoolYears(d: Deployment, clients: Clients): Promise<void> {
  const base = `http://127.0.0.1:${d.dataPort}${basePath}`;
  const { key, secret } = clients.primary;
  const res = await fetch(`${base}/oauth/token`, {
    method: 'POST',
    headers: { Authorization: `Basic ${Buffer.from(`${key}:${secret}`).toString('base64')}`, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials',
  });
  const { access_token } = (await res.json()) as { access_token: string };
  for (let year = 1991; year <= 2050; year++) {
    const r = await fetch(`${base}/data/v3/${referenceTarget.dataApi.namespaceSegment ?? 'core'}/schoolYearTypes`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${access_token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ schoolYear: year, currentSchoolYear: false, schoolYearDescription: `${year - 1}-${year}` }),
    });
    if (r.status !== 200 && r.status !== 201) throw new Error(`seeding school year ${year}: ${r.status} ${await r.text()}`);
  }
}

// ---- one run of the suites through the proxy -------------------------------------------------------

interface RunResult {
  failed: string[];
  passed: number;
  skipped: number;
  /** The run's conformance verdict and the rules it failed, from its conformance report. */
  verdict?: ConformanceReport['summary']['verdict'];
  failedRules: { id: string; level: 'MUST' | 'SHOULD' }[];
  /** MUST rules the run left without a pass (not applicable or untested). */
  mustUnpassed: string[];
  /** Per rule, its not-applicable tests and checks in the run, whatever its verdict. */
  notApplicableCounts: Record<string, number>;
  /** Run again without the failure limit (see judge()). */
  ranToEnd?: boolean;
  /** Errors of the run outside any test (global setup or teardown). */
  errors: string[];
  /** Exchanges the proxy answered 502 (a broken fault or an unreachable reference). */
  proxyErrors: string[];
  ms: number;
}

interface Setup { deployments: Deployment[]; flows: BuiltFlows; loweredPort: number; tokens: Tokens; clients: Clients; privateKeyPem: string }

/** Every string of a JSON value that is an upstream URL, pointed at the proxy. */
function throughProxy<T>(value: T, proxy: Front): T {
  return JSON.parse(JSON.stringify(value), (_, v: unknown) => (typeof v === 'string' && /^https?:\/\/127\.0\.0\.1:\d+/.test(v) ? proxy.urlFor(v) : v)) as T;
}

interface Selection {
  suites: string[];
  grep?: string;
  grepInvert?: string;
  workers?: number;
  maxFailures?: number;
  /**
   * Keep the target's storeDigest check (the run must leave the store as it found it). Only for a
   * run that has the reference to itself: concurrent runs change the store under each other.
   */
  storeDigest?: boolean;
  /** Members merged into the target's dataApi (a host setting the fault stands for). */
  target?: Fault['target'];
  /** Given the Playwright process as it starts (kills.ts watches its output and kills it). */
  started?: (child: ChildProcess) => void;
  /** One shard of a run (`--shard`), with a blob report of its own (shards.ts). */
  shard?: { current: number; total: number };
  /** CONFORMANCE_RUN_ID: the same for the shards of one run. */
  runId?: string;
}

/** The proxy's routes: every deployment's data API and rostering service, and the lowered one. */
const routesOf = (setup: Setup): Route[] => [...setup.deployments.flatMap((d) => [
  { service: 'data' as const, flow: d.flow, upstreamPort: d.dataPort },
  { service: 'rostering' as const, flow: d.flow, upstreamPort: d.rosteringPort, issuer: d.issuer, audience: d.audience, multiTenant: d.multiTenant, contextRouting: d.contextRouting },
]), { service: 'data' as const, flow: 'lowered', upstreamPort: setup.loweredPort }];

async function startProxy(transformer: Transformer, setup: Setup): Promise<DeviatingProxy> {
  const proxy = await DeviatingProxy.start(routesOf(setup), transformer, { tokens: setup.tokens, clients: setup.clients });
  proxies.add(proxy);
  return proxy;
}

/**
 * One Playwright run through a proxy of its own with `transformer`, or through `shared` (runs
 * that must see the same URLs: a killed run's ledger names them for the next).
 */
async function runSuites(name: string, transformer: Transformer, setup: Setup, selection: Selection, shared?: Front): Promise<RunResult> {
  const started = Date.now();
  const proxy = shared ?? await startProxy(transformer, setup);
  try {
    const single = setup.deployments[0];
    const { storeDigest, loweredPageSize, snapshotAdmin, ...rest } = referenceTarget.capabilities ?? {};
    // The snapshot hook only for a run holding the snapshot lock: every run's preflight takes and
    // drops a snapshot through it, which would drop the one a concurrent snapshot test just took.
    const snapshots = !selection.suites.length || selection.suites.some((x) => x === 'snapshot' || x.startsWith('snapshot/'));
    const capabilities = {
      ...rest,
      ...(snapshots && snapshotAdmin ? { snapshotAdmin } : {}),
      ...(loweredPageSize ? { loweredPageSize: { ...loweredPageSize, baseUrl: proxy.urlFor(`http://127.0.0.1:${setup.loweredPort}${basePath}`) } } : {}),
    };
    const target: Target = {
      ...referenceTarget,
      name: `strength-${name}`,
      capabilities: { ...capabilities, ...(selection.storeDigest && storeDigest ? { storeDigest } : {}) },
      dataApi: { ...referenceTarget.dataApi, ...selection.target?.dataApi, baseUrl: proxy.urlFor(`http://127.0.0.1:${single.dataPort}${basePath}`) },
      // The flows as built here, every URL through the proxy.
      rostering: { ...referenceTarget.rostering!, baseUrl: proxy.urlFor(`http://127.0.0.1:${single.rosteringPort}`), flows: throughProxy(setup.flows.description, proxy) },
    };
    const targetFile = join(out, `target-${name}.json`);
    writeFileSync(targetFile, `${JSON.stringify(target, null, 2)}\n`);
    const resultsFile = join(out, `results-${name}.json`);
    rmSync(resultsFile, { force: true });
    const reportsDir = join(out, 'reports', name);
    rmSync(reportsDir, { recursive: true, force: true });

    const env: Record<string, string | undefined> = { ...process.env };
    for (const k of ['REFERENCE_PORT', 'ROSTERING_PORT', 'ROSTERING_FLOWS_PORT', 'REFERENCE_COVERAGE', 'CONFORMANCE_TOKENS', 'CONFORMANCE_RUN_ID', 'CONFORMANCE_RUN_BASE', 'CONFORMANCE_SHARD']) delete env[k];
    Object.assign(env, {
      TARGET: targetFile,
      CONFORMANCE_ISSUER_PRIVATE_KEY_PEM: setup.privateKeyPem,
      FC_SEED: '20261122',
      PLAYWRIGHT_JSON_OUTPUT_FILE: resultsFile,
      CONFORMANCE_REPORTS_DIR: reportsDir,
      FORCE_COLOR: '0',
      ...(selection.runId ? { CONFORMANCE_RUN_ID: selection.runId } : {}),
      ...(selection.shard ? { PLAYWRIGHT_BLOB_OUTPUT_DIR: join(out, 'blob', name) } : {}),
    });
    const args = [
      join(root, 'node_modules/@playwright/test/cli.js'), 'test', ...selection.suites.map((s) => `suites/${s}`),
      // The conformance reporter gives the verdict per rule that judges the fault.
      `--reporter=json,${selection.shard ? 'blob,' : ''}./suites/_harness/reporter/conformance-reporter.ts`, `--output=${join(out, 'test-results', name)}`,
      ...(selection.shard ? [`--shard=${selection.shard.current}/${selection.shard.total}`] : []),
      ...(selection.grep ? ['--grep', selection.grep] : []), ...(selection.grepInvert ? ['--grep-invert', selection.grepInvert] : []),
      ...(selection.workers ? [`--workers=${selection.workers}`] : []),
      ...(selection.maxFailures ? [`--max-failures=${selection.maxFailures}`] : []),
    ];
    const log = createWriteStream(join(out, `log-${name}.txt`));
    const child = spawn(process.execPath, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    children.add(child);
    child.stdout!.pipe(log);
    child.stderr!.pipe(log);
    selection.started?.(child);
    const timer = setTimeout(() => { try { process.kill(-child.pid!, 'SIGKILL'); } catch { /* gone */ } }, RUN_TIMEOUT_MS);
    await new Promise<void>((resolve) => child.on('close', () => resolve()));
    clearTimeout(timer);
    children.delete(child);
    return { ...readResults(resultsFile), ...readVerdict(join(reportsDir, 'conformance.json')), proxyErrors: proxy.errors, ms: Date.now() - started };
  } finally {
    if (!shared) {
      proxies.delete(proxy);
      await proxy.close();
    }
  }
}

interface JsonSuite { title: string; file?: string; specs?: { title: string; tests: { status: string; results: { status: string }[] }[] }[]; suites?: JsonSuite[] }

type TestCounts = Pick<RunResult, 'failed' | 'passed' | 'skipped' | 'errors'>;

function readResults(file: string): TestCounts {
  if (!existsSync(file)) return { failed: [], passed: 0, skipped: 0, errors: ['the run wrote no results (see its log)'] };
  const report = JSON.parse(readFileSync(file, 'utf8')) as { suites: JsonSuite[]; errors?: { message?: string }[] };
  const result: TestCounts = { failed: [], passed: 0, skipped: 0, errors: (report.errors ?? []).map((e) => (e.message ?? '').split('\n')[0]) };
  const walk = (s: JsonSuite, path: string[]) => {
    const here = s.title ? [...path, s.title] : path;
    for (const spec of s.specs ?? []) {
      for (const t of spec.tests) {
        if (t.status === 'unexpected' || t.status === 'flaky') result.failed.push([...here, spec.title].join(' › '));
        else if (t.status === 'skipped') result.skipped++;
        else result.passed++;
      }
    }
    for (const child of s.suites ?? []) walk(child, here);
  };
  for (const s of report.suites) walk(s, []);
  return result;
}

/** The verdict and failed rules of a run's conformance report (none when it wrote no report). */
function readVerdict(file: string): Pick<RunResult, 'verdict' | 'failedRules' | 'mustUnpassed' | 'notApplicableCounts'> {
  if (!existsSync(file)) return { failedRules: [], mustUnpassed: [], notApplicableCounts: {} };
  const report = JSON.parse(readFileSync(file, 'utf8')) as ConformanceReport;
  return {
    verdict: report.summary.verdict,
    failedRules: report.rules.filter((r) => r.verdict === 'fail').map((r) => ({ id: r.id, level: r.level })),
    mustUnpassed: report.rules.filter((r) => r.level === 'MUST' && r.verdict !== 'pass' && !r.untestable).map((r) => r.id),
    notApplicableCounts: Object.fromEntries(report.rules.map((r) => [r.id, r.tests.reduce((n, t) => n + (t.verdict === 'not-applicable' ? 1 : 0) + (t.checks ?? []).filter((c) => c.outcome === 'not-applicable').length, 0)])),
  };
}

// ---- scheduling ------------------------------------------------------------------------------------

/**
 * A conforming deviation runs every suite, since the verdict it must leave is the whole run's (a
 * deviation the seed allows could still trip a MUST test of any family): it holds every lock.
 */
const conforming = (f: Fault) => f.expect === 'conformant';
const selectionOf = (f: Fault): Selection => (conforming(f) ? { suites: [], workers: f.workers ?? 2, target: f.target } : { ...f, maxFailures: MAX_FAILURES });
const exclusiveOf = (f: Fault) => (conforming(f) ? EXCLUSIVE : EXCLUSIVE.filter((x) => f.suites.some((s) => s === x || s.startsWith(`${x}/`))));

/**
 * One fault's run. A run stopped at the failure limit before any MUST rule failed runs again to
 * its end: with SHOULD checks failing softly, the first failures are often SHOULD ones, and the
 * MUST tests that would say whether the fault breaks the seed may not have run yet.
 */
async function judge(fault: Fault, setup: Setup): Promise<RunResult> {
  const first = await runSuites(fault.name, fault, setup, selectionOf(fault));
  const stopped = !conforming(fault) && first.failed.length >= MAX_FAILURES && !first.failedRules.some((x) => x.level === 'MUST');
  if (!stopped) return first;
  const whole = await runSuites(fault.name, fault, setup, { ...selectionOf(fault), maxFailures: undefined });
  return { ...whole, ms: first.ms + whole.ms, ranToEnd: true };
}

async function runFaults(list: Fault[], setup: Setup, report: (f: Fault, r: RunResult, done: number) => void): Promise<Map<string, RunResult>> {
  const results = new Map<string, RunResult>();
  const queue = [...list];
  const held = new Set<string>();
  let done = 0;
  await new Promise<void>((resolve) => {
    let running = 0;
    const next = () => {
      if (!queue.length && !running) return resolve();
      while (running < PARALLEL) {
        const at = queue.findIndex((f) => exclusiveOf(f).every((x) => !held.has(x)));
        if (at < 0) return;
        const [fault] = queue.splice(at, 1);
        const locks = exclusiveOf(fault);
        for (const x of locks) held.add(x);
        running++;
        void judge(fault, setup).then((r) => {
          for (const x of locks) held.delete(x);
          running--;
          results.set(fault.name, r);
          report(fault, r, ++done);
          next();
        });
      }
    };
    next();
  });
  return results;
}

// ---- main --------------------------------------------------------------------------------------------

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/**
 * The rules the run failed, as one line; empty when it failed none. A run error alone catches
 * nothing, and neither does a run in which the proxy itself failed (those tests may have failed
 * on its 502s), except the preflight's: a deployment that does not fit its target file stops a
 * certification run before any test, and the report says so (not run: preflight failed).
 */
function caughtBy(r: RunResult): string {
  if (r.proxyErrors.length) return '';
  const preflight = r.errors.find((e) => e.includes('preflight failed:'));
  if (preflight) return `the preflight: ${preflight.slice(preflight.indexOf('preflight failed:'))}`;
  if (!r.failedRules.length) return '';
  const rules = r.failedRules.slice(0, 3).map((x) => `${x.id} (${x.level})`);
  const more = r.failedRules.length > 3 ? `; and ${r.failedRules.length - 3} more` : '';
  const stopped = r.ranToEnd ? ', run again to its end' : r.failed.length >= MAX_FAILURES ? ', the run stopping at its failure limit' : '';
  return `${r.failedRules.length} rule${r.failedRules.length === 1 ? '' : 's'} (${r.verdict}${stopped}): ${rules.join('; ')}${more}`;
}

/**
 * Why a conforming deviation was refused; empty when it left the verdict as conformant as the
 * clean run's: no MUST rule failed and every MUST rule the clean run passed still passes (SHOULD
 * failures are the warnings such a deviation may well earn).
 */
function refusedBecause(f: Fault, r: RunResult, clean: RunResult): string {
  if (r.proxyErrors.length) return `the proxy failed ${r.proxyErrors.length} exchange(s), first ${r.proxyErrors[0]}`;
  if (!r.verdict) return `the run wrote no conformance report${r.errors.length ? `: ${r.errors[0]}` : ''}`;
  const must = r.failedRules.filter((x) => x.level === 'MUST').map((x) => x.id);
  if (must.length) return `MUST rules failed: ${must.slice(0, 4).join(', ')}${must.length > 4 ? ` and ${must.length - 4} more` : ''}`;
  const lost = r.mustUnpassed.filter((id) => !clean.mustUnpassed.includes(id));
  if (lost.length) return `MUST rules no longer passed: ${lost.slice(0, 4).join(', ')}${lost.length > 4 ? ` and ${lost.length - 4} more` : ''}`;
  const unnoticed = (f.warns ?? []).filter((id) => !warnings(r).includes(id));
  if (unnoticed.length) return `allowed, but the SHOULD rule${unnoticed.length > 1 ? 's' : ''} meant to notice it did not: ${unnoticed.join(', ')}`;
  // More than the clean run's: a rule not applicable anyway on this target proves nothing.
  const unmet = (f.notApplicable ?? []).filter((id) => (r.notApplicableCounts[id] ?? 0) <= (clean.notApplicableCounts[id] ?? 0));
  if (unmet.length) return `allowed, but no more tests said not applicable than in the clean run in: ${unmet.join(', ')} (the path that does not judge it was never taken)`;
  return '';
}

const warnings = (r: RunResult) => r.failedRules.filter((x) => x.level === 'SHOULD').map((x) => x.id);

/** The number a flag gives (`--flag 40` or `--flag=40`), undefined without the flag; `valid` or it throws `hint`. */
function numberArg(argv: string[], flag: string, valid: (n: number) => boolean, hint: string): number | undefined {
  const at = argv.findIndex((a) => a === flag || a.startsWith(`${flag}=`));
  if (at < 0) return undefined;
  const value = Number(argv[at].includes('=') ? argv[at].split('=')[1] : argv[at + 1]);
  if (!valid(value)) throw new Error(`${flag} takes ${hint}`);
  return value;
}

/** `--remote-latency 40`: the round trip to measure certification at. */
const remoteLatencyArg = (argv: string[]) => numberArg(argv, '--remote-latency', (n) => Number.isFinite(n) && n >= 0, 'a round trip in milliseconds, e.g. --remote-latency 40');

/**
 * `--workers <n>` beside --remote-latency: another worker count than the defaults choose, to
 * compare counts in one sitting (the host's speed varies too much between sittings).
 */
const workersArg = (argv: string[]) => numberArg(argv, '--workers', (n) => Number.isInteger(n) && n >= 1, 'a positive whole number, e.g. --workers 12');

/** The complete certification through the proxy at `roundTripMs`, with default workers unless told. */
async function remoteCertification(roundTripMs: number, setup: Setup, workers?: number): Promise<number> {
  const name = `remote-${roundTripMs}ms`;
  // The network's delay, not an HTTP proxy's work (delay-proxy.ts).
  const held = await DelayProxy.start(routesOf(setup).map((r) => r.upstreamPort), roundTripMs);
  proxies.add(held);
  // Only the deployments run yet: the suites' run, once it ended, counts among the reaped children.
  const deploymentPids = [...children].map((c) => c.pid!);
  const before = cpuMark(deploymentPids);
  let r: RunResult;
  try {
    r = await runSuites(name, {}, setup, { suites: [], storeDigest: true, ...(workers ? { workers } : {}) }, held);
  } finally {
    proxies.delete(held);
    await held.close();
  }
  const cpu = cpuLine(before, cpuMark(deploymentPids));
  const counts = [...held.exchanges].sort((a, b) => b[1] - a[1]);
  console.log(`requests through the proxy: ${counts.reduce((n, [, c]) => n + c, 0)} (${counts.map(([m, c]) => `${m} ${c}`).join(', ')})`);
  // Playwright's own line names the workers the defaults chose (workers.ts, by the round trip).
  const log = readFileSync(join(out, `log-${name}.txt`), 'utf8');
  const used = /using (\d+) workers?/.exec(log)?.[1] ?? '?';
  const resultsFile = join(out, `results-${name}.json`);
  const phases = existsSync(resultsFile) ? phasesOf(JSON.parse(readFileSync(resultsFile, 'utf8')), log, r.ms) : undefined;
  for (const t of r.failed.slice(0, 20)) console.log(`  failed  ${t}`);
  for (const e of [...r.errors, ...r.proxyErrors].slice(0, 10)) console.log(`  error   ${e}`);
  console.log(`${r.passed} passed, ${r.skipped} skipped, ${r.failed.length} failed; reports in ${relative(root, join(out, 'reports', name))}`);
  console.log(phasesLine(phases, Number(used) || undefined));
  console.log(cpu);
  console.log(`remote certification at ${roundTripMs} ms: ${(r.ms / 1000).toFixed(1)} s (verdict ${r.verdict ?? 'none'}, ${used} workers${workers ? ', as told' : ''})`);
  return r.verdict === 'conformant' && !r.failed.length && !r.proxyErrors.length ? 0 : 1;
}

/** `--kills [seed]`: the seed of the kill points (drawn from the clock when none is given). */
function killsArg(argv: string[]): number | undefined {
  const at = argv.indexOf('--kills');
  if (at < 0) return undefined;
  const seed = argv[at + 1] && !argv[at + 1].startsWith('-') ? Number(argv[at + 1]) : Date.now() % 1_000_000;
  if (!Number.isInteger(seed) || seed < 0) throw new Error('--kills takes an optional seed, a non-negative integer: --kills 4242');
  return seed;
}

/**
 * The store digest of the single flow's deployment, read directly: it holds the fixtures and the
 * rostering world; the other flows' servers have no admin endpoints (what runs leave there shows
 * in the ledger).
 */
async function readDigest(setup: Setup): Promise<string> {
  const digestCap = referenceTarget.capabilities?.storeDigest;
  if (!digestCap) throw new Error('the reference target declares no storeDigest capability');
  const auth = `Basic ${Buffer.from(`${digestCap.key}:${process.env[digestCap.secretEnv ?? ''] ?? ''}`).toString('base64')}`;
  const res = await fetch(`http://127.0.0.1:${setup.deployments[0].dataPort}${basePath}/${digestCap.url}`, { headers: { Authorization: auth } });
  if (res.status !== 200) throw new Error(`store digest: ${res.status} ${await res.text()}`);
  return JSON.stringify(await res.json());
}

/** `npm run cleanup` against the run `name`'s target file (every run through one proxy names the same URLs). */
async function runCleanup(name: string): Promise<{ code: number; output: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'suites/_harness/tools/cleanup.ts')], {
    cwd: root, env: { ...process.env, TARGET: join(out, `target-${name}.json`) }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => { output += d.toString(); });
  child.stderr!.on('data', (d: Buffer) => { output += d.toString(); });
  const code = await new Promise<number>((resolve) => child.on('close', (c) => resolve(c ?? 1)));
  return { code, output };
}

/**
 * The killed-run acceptance (kills.ts) on these deployments: one proxy for every run, whose
 * latency each run sets, a ledger every run shares, and the digest read from the deployment
 * directly.
 */
async function killRuns(seed: number, setup: Setup): Promise<number> {
  const ledgerDir = join(out, 'kills-ledger');
  process.env.CONFORMANCE_LEDGER_DIR = ledgerDir;
  const { remaining, unsettled } = await import('../../suites/_harness/ledger.js');
  let current: Transformer = {};
  let watch: Watch = {};
  const proxy = await startProxy({
    request: (req, tools) => { watch.request?.(req); return current.request?.(req, tools); },
    // Seen as the deployment answered, before the latency holds the answer back.
    response: (res, req, tools) => { watch.answer?.(req, res); return current.response?.(res, req, tools); },
  }, setup);
  const harness: KillHarness = {
    run: async (name, o) => {
      current = o.roundTripMs ? latency(o.roundTripMs) : {};
      watch = o.watch ?? {};
      const r = await runSuites(name, {}, setup, { suites: o.suites, workers: 2, storeDigest: o.storeDigest, started: o.started }, proxy);
      return { ...r, log: readFileSync(join(out, `log-${name}.txt`), 'utf8') };
    },
    // The single flow's deployment, which holds the fixtures and the rostering world; the other
    // flows' servers have no admin endpoints (what runs leave there shows in the ledger).
    digest: () => readDigest(setup),
    cleanup: () => {
      current = {};
      watch = {};
      return runCleanup('kills-first');
    },
    ledgerLeft: () => [...remaining().values(), ...unsettled().values()].reduce((n, l) => n + l.length, 0),
  };
  try {
    return await killAcceptance(harness, seed);
  } finally {
    proxies.delete(proxy);
    await proxy.close();
  }
}

/** `--shards [n]`: how many shards (default 2). */
function shardsArg(argv: string[]): number | undefined {
  const at = argv.indexOf('--shards');
  if (at < 0) return undefined;
  const n = argv[at + 1] && !argv[at + 1].startsWith('-') ? Number(argv[at + 1]) : 2;
  if (!Number.isInteger(n) || n < 2) throw new Error('--shards takes an optional number of shards, at least 2: --shards 3');
  return n;
}

/** The concurrent-shards acceptance (shards.ts) on these deployments, every run through one proxy and one ledger. */
async function shardRuns(total: number, setup: Setup): Promise<number> {
  process.env.CONFORMANCE_LEDGER_DIR = join(out, 'shards-ledger');
  const proxy = await startProxy({}, setup);
  const harness: ShardHarness = {
    run: async (name, o) => {
      const r = await runSuites(name, {}, setup, { suites: [], workers: 2, storeDigest: o.storeDigest, shard: o.shard, runId: o.runId, started: o.started }, proxy);
      const report = join(out, 'reports', name, 'conformance.json');
      return { report: existsSync(report) ? JSON.parse(readFileSync(report, 'utf8')) as ConformanceReport : undefined, errors: r.errors, log: readFileSync(join(out, `log-${name}.txt`), 'utf8') };
    },
    merge: async (name, runs) => {
      const blobs = join(out, 'blob', name);
      rmSync(blobs, { recursive: true, force: true });
      mkdirSync(blobs, { recursive: true });
      for (const r of runs) {
        const dir = join(out, 'blob', r);
        if (existsSync(dir)) for (const f of readdirSync(dir)) copyFileSync(join(dir, f), join(blobs, f));
      }
      const reportsDir = join(out, 'reports', name);
      rmSync(reportsDir, { recursive: true, force: true });
      // The reports of the merge go beside the runs', not over the project's own reports/.
      const config = join(out, `merge-${name}.config.ts`);
      writeFileSync(config, `export default { testDir: ${JSON.stringify(join(root, 'suites'))}, reporter: [[${JSON.stringify(join(root, 'suites/_harness/reporter/conformance-reporter.ts'))}, { outputDir: ${JSON.stringify(reportsDir)} }]] };\n`);
      const child = spawn(process.execPath, [join(root, 'node_modules/@playwright/test/cli.js'), 'merge-reports', '--config', config, blobs], { cwd: root, env: { ...process.env, FORCE_COLOR: '0' }, stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      child.stdout!.on('data', (d: Buffer) => { output += d.toString(); });
      child.stderr!.on('data', (d: Buffer) => { output += d.toString(); });
      const code = await new Promise<number>((resolve) => child.on('close', (c) => resolve(c ?? 1)));
      const file = join(reportsDir, 'conformance.json');
      return { code, output, report: existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) as ConformanceReport : undefined };
    },
    digest: () => readDigest(setup),
    cleanup: () => runCleanup('shards-whole'),
  };
  try {
    return await shardAcceptance(harness, total);
  } finally {
    proxies.delete(proxy);
    await proxy.close();
  }
}

async function main(): Promise<number> {
  const remote = remoteLatencyArg(args);
  const toldWorkers = workersArg(args);
  if (toldWorkers !== undefined && remote === undefined) throw new Error('--workers goes beside --remote-latency only (the faults choose their own)');
  const kills = killsArg(args);
  const shardCount = shardsArg(args);
  const faultMode = remote === undefined && kills === undefined && shardCount === undefined;
  const wanted = faultMode ? args.filter((a) => !a.startsWith('-')) : [];
  const unknown = wanted.filter((w) => !faults.some((f) => f.name === w));
  if (unknown.length) {
    console.error(`unknown fault${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}`);
    return 2;
  }
  const chosen = wanted.length ? faults.filter((f) => wanted.includes(f.name)) : faults;
  // A fault only another standard can show is not run here, and said so: never counted as missed or caught.
  const elsewhere = faultMode ? chosen.filter((f) => f.standards && !f.standards.includes(servedStandard)) : [];
  const list = chosen.filter((f) => !elsewhere.includes(f));
  for (const f of elsewhere) console.log(`not run here: ${f.name} (only Data Standard ${f.standards!.join(' or ')} can show it: --target ${relative(root, targetServing(f.standards!))})`);
  if (!list.length && elsewhere.length) return 0;
  const started = Date.now();
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });

  const newKey = () => generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const privateKeyPem = newKey();
  // The runs read the test issuer's key from the variable the target's testIssuer names (inherited).
  const testIssuerEnv = referenceTarget.capabilities?.testIssuer?.pemEnv ?? 'CONFORMANCE_TEST_ISSUER_PRIVATE_KEY_PEM';
  const testIssuerPrivateKeyPem = (process.env[testIssuerEnv] ??= newKey());
  const { deployments, flows, loweredPort } = await startReferences(privateKeyPem, testIssuerPrivateKeyPem);
  const clients = clientsOf(referenceTarget);
  await seedSchoolYears(deployments[0], clients);
  const setup: Setup = { deployments, flows, loweredPort, tokens: new Tokens(privateKeyPem, testIssuerPrivateKeyPem), clients, privateKeyPem };
  if (shardCount !== undefined) {
    console.log(`reference up (${deployments.length + 1} deployments) in ${seconds(Date.now() - started)}; ${shardCount} shards at the same time`);
    return shardRuns(shardCount, setup);
  }
  if (kills !== undefined) {
    console.log(`reference up (${deployments.length + 1} deployments) in ${seconds(Date.now() - started)}; five killed runs`);
    return killRuns(kills, setup);
  }
  if (remote !== undefined) {
    console.log(`reference up (${deployments.length + 1} deployments) in ${seconds(Date.now() - started)}; certification through a ${remote} ms round trip`);
    return remoteCertification(remote, setup, toldWorkers);
  }
  console.log(`reference up (${deployments.length + 1} deployments, Data Standard ${servedStandard}, ${relative(root, referenceTargetFile)}) in ${seconds(Date.now() - started)}; ${list.length} faults, ${PARALLEL} at a time`);

  const clean = await runSuites('clean', {}, setup, { suites: [], workers: 2, storeDigest: true });
  if (clean.failed.length || clean.errors.length || clean.proxyErrors.length || !clean.passed || clean.failedRules.length || !clean.verdict) {
    console.log(`clean proxy: ${clean.failed.length} failed, ${clean.passed} passed (${seconds(clean.ms)}); the strength measurement needs a clean pass`);
    for (const t of clean.failed) console.log(`  failed  ${t}`);
    for (const e of clean.errors) console.log(`  error   ${e}`);
    for (const e of clean.proxyErrors.slice(0, 10)) console.log(`  proxy   ${e}`);
    return 1;
  }
  console.log(`clean proxy: ${clean.passed} passed, ${clean.skipped} skipped, 0 failed (${seconds(clean.ms)}); verdict ${clean.verdict}${clean.mustUnpassed.length ? ` (MUST rules this setup cannot pass: ${clean.mustUnpassed.join(', ')})` : ''}`);

  const width = Math.max(...list.map((f) => f.name.length));
  const results = await runFaults(list, setup, (f, r, done) => {
    const counter = `[${String(done).padStart(String(list.length).length)}/${list.length}]`;
    if (conforming(f)) {
      const refused = refusedBecause(f, r, clean);
      const warned = warnings(r);
      const why = refused || `verdict ${r.verdict}${r.verdict === clean.verdict ? '' : ` (the clean run's: ${clean.verdict})`}${warned.length ? `, SHOULD warnings: ${warned.join(', ')}` : ', no warning'}`;
      console.log(`${counter} ${refused ? 'REFUSED ' : 'accepted'}  ${f.name.padEnd(width)}  ${why}  (${seconds(r.ms)})`);
      return;
    }
    const by = caughtBy(r);
    const verdict = r.proxyErrors.length ? 'BROKEN' : by ? 'caught' : 'MISSED';
    const why = r.proxyErrors.length ? `the proxy failed ${r.proxyErrors.length} exchange(s), first ${r.proxyErrors[0]}`
      : by ? `by ${by}` : `${f.description} (${f.family}; ran ${f.suites.join(', ')})${r.errors.length ? `; run error: ${r.errors[0]}` : ''}`;
    console.log(`${counter} ${verdict}  ${f.name.padEnd(width)}  ${why}  (${seconds(r.ms)})`);
  });

  const mustCatch = list.filter((f) => !conforming(f));
  const deviations = list.filter(conforming);
  const detected = mustCatch.filter((f) => caughtBy(results.get(f.name)!)).length;
  const accepted = deviations.filter((f) => !refusedBecause(f, results.get(f.name)!, clean)).length;
  // A fault caught only by SHOULD rules leaves the verdict conformant: named, so that a fault meant
  // to break a MUST rule and caught only by a SHOULD one (a false pass) cannot hide in the count.
  const shouldOnly = mustCatch.filter((f) => { const r = results.get(f.name)!; return caughtBy(r) && !r.failedRules.some((x) => x.level === 'MUST') && !r.errors.some((e) => e.includes('preflight failed:')); });
  writeFileSync(join(out, 'strength.json'), `${JSON.stringify({
    generatedAt: new Date().toISOString(),
    seconds: Math.round((Date.now() - started) / 1000),
    clean: { passed: clean.passed, skipped: clean.skipped },
    faults: list.map((f) => ({ name: f.name, family: f.family, description: f.description, suites: f.suites, expect: f.expect ?? 'caught', ...results.get(f.name)! })),
    detected, total: mustCatch.length, accepted, deviations: deviations.length,
    dataStandard: servedStandard, notRunHere: elsewhere.map((f) => f.name),
  }, null, 2)}\n`);
  console.log(`results in ${relative(root, out)}/strength.json; ${seconds(Date.now() - started)} in all`);
  if (shouldOnly.length) console.log(`caught by SHOULD rules only (the verdict stays conformant): ${shouldOnly.map((f) => f.name).join(', ')}`);
  if (mustCatch.length) console.log(`faults detected: ${detected}/${mustCatch.length}`);
  if (deviations.length) console.log(`conforming deviations accepted: ${accepted}/${deviations.length}`);
  return 0;
}

async function shutdown(): Promise<void> {
  await Promise.all([...proxies].map((p) => p.close()));
  for (const child of children) {
    try {
      if (child.spawnargs.includes('test')) process.kill(-child.pid!, 'SIGKILL');
      else child.kill('SIGTERM');
    } catch { /* gone */ }
  }
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => { void shutdown().then(() => process.exit(130)); });
}

main()
  .then(async (code) => { await shutdown(); process.exit(code); })
  .catch(async (err: Error) => { console.error(err.stack ?? err.message); await shutdown(); process.exit(1); });
