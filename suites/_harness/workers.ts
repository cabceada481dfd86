import { availableParallelism } from 'node:os';
import type { Target } from '../targets/types.js';
import { concurrentShards, yearsPerShard } from './run-id.js';

/**
 * How many Playwright workers a run uses when `--workers` does not say (the command line always
 * wins). A target file may name its own (`workers`). Otherwise the round trip to the deployment,
 * measured before the run (issue #24 point 5), decides: a deployment whose answers take
 * IO_BOUND_RTT_MS or more is I/O bound, the workers mostly wait on the network, so ten per
 * core, at most twenty-four, whether it is another host or a proxy on this one. A deployment 40
 * ms away, whole 4.0 run on two cores, since the suites' own HTTP client (http.ts) costs a third
 * of Playwright's: 194 s with eight workers, 141 s with sixteen. Once every test ran in one
 * generation of workers and sent its independent requests together: sixteen 98 s, twenty-four
 * 91 s; before that, twenty-four 104 s and thirty-two 104 s, its workers starting later (the
 * client is CPU-bound there on two cores). With Playwright's client, sixteen had been slower
 * than eight (183 s against 165 s). Through a delay proxy that costs the machine bytes and
 * timers, not HTTP (tools/strength/delay-proxy.ts): sixteen 88 s, twenty-four 77–83 s, thirty-two
 * 77–84 s, forty 90 s, forty-eight 106 s; later, within one hour: twelve 108 s, sixteen 90 s,
 * twenty-four 87 s, then with fewer requests per test sixteen 83 s, twenty-four 73–75 s,
 * thirty-two 80 s (24 workers are CPU-bound on two cores, 12 and 16 wait on the network); with
 * less CPU per test (checks not run as steps, the compiled reference): sixteen 78 s, twenty
 * 72 s, twenty-four 71–73 s, twenty-eight 72 s; each
 * worker's start (Playwright's own modules most of
 * it) costs about 0.9 CPU-seconds, all of them at once before the first test. Each worker costs
 * more than its start: the same whole 4.0 run takes 50 CPU-seconds with three workers and 119
 * with twenty-four (every worker loads and warms up the spec files it runs). With 36.6k requests
 * instead of 43.4k and sixteen tests per group (groups.ts), alternated in one hour: sixteen 82.0
 * and 82.8 s (99–102 CPU-seconds), twenty-four 87.4 and 90.1 s (132–133): eight per core. Once a
 * test's records were deleted while the next test ran (sweeper.ts), alternated in one hour on a
 * quieter host: sixteen 67.3, 68.6 and 67.4 s (95–99 CPU-seconds), twenty 64.5, 65.7 and 64.2 s
 * (106–110), twenty-four 64.1, 65.2 and 65.8 s (114–117): ten per core, as fast as twelve for
 * less CPU (the same hour, before the sweeper: sixteen 73.5–74.2, twenty 68.7–68.9, twenty-four
 * 66.6–67.4). An hour later the host was slower (the same run 127–136 CPU-seconds at twenty):
 * sixteen 73.5 and 73.5 s, twenty 72.6 and 75.3 s, so there twenty gains nothing but loses
 * little. With the spec files in shares of five workers (shares.ts), alternated in one hour:
 * twenty 59.7–60.8 s (94–98 CPU-seconds), twenty-four 59.3 and 60.4 s (103–106), sixteen (three
 * shares) 66.8 and 67.3 s. The embedded
 * reference, and a deployment that answers sooner, share this machine's cores with the workers:
 * half the cores, but at least three, since a worker also waits on the deployment's answers. On
 * two cores, whole 4.0 run against the embedded reference, alternated: two workers 43.3–43.6 s
 * with the two cores 67 % busy, three 38.7–39.7 s, four 38.7–38.8 s, six 38.1–39.6 s for more
 * CPU, sixteen 55.6 s (6.1: two 53.2 s, three 50.0 s). Unmeasured (no answer), the host name
 * decides: loopback is local.
 */
export const REMOTE_WORKERS_PER_CORE = 10;
export const REMOTE_WORKERS_MAX = 24;
export const IO_BOUND_RTT_MS = 5;
export const LOCAL_WORKERS_MIN = 3;

export interface WorkersDecision {
  workers: number;
  /** Why, for the console: the target's setting, the embedded reference, or the round trip. */
  why: string;
  /** Lowered for a shard of a shared run (withinShardYears). */
  capped?: boolean;
}

/**
 * A shard of a shared run (run-id.ts: one CONFORMANCE_RUN_ID, `--shard=i/n`) runs at most as
 * many workers as it has school years of its own: each worker makes and deletes its own year.
 */
export function withinShardYears(d: WorkersDecision, shards: number | undefined): WorkersDecision {
  const most = shards && shards > 1 ? yearsPerShard(shards) : Infinity;
  return d.workers <= most ? d : { workers: most, why: `${d.why}; at most ${most} for one of ${shards} shards sharing a run, which split the school years`, capped: true };
}

export function defaultWorkers(target: Pick<Target, 'workers' | 'dataApi'>, embedded: boolean, cores = availableParallelism(), roundTripMs?: number): WorkersDecision {
  if (target.workers !== undefined) return { workers: target.workers, why: "the target file's workers" };
  const local = { workers: Math.max(LOCAL_WORKERS_MIN, Math.floor(cores / 2)), why: '' };
  const remote = { workers: Math.min(REMOTE_WORKERS_MAX, Math.max(2, REMOTE_WORKERS_PER_CORE * cores)), why: '' };
  if (embedded) return { ...local, why: 'the embedded reference shares this machine' };
  if (roundTripMs === undefined) {
    const loopback = isLoopback(target.dataApi.baseUrl);
    return { ...(loopback ? local : remote), why: `round trip not measured; the host is ${loopback ? 'this machine' : 'another'}` };
  }
  const ms = `round trip ${roundTripMs.toFixed(1)} ms`;
  return roundTripMs >= IO_BOUND_RTT_MS
    ? { ...remote, why: `${ms} (≥ ${IO_BOUND_RTT_MS} ms: I/O bound)` }
    : { ...local, why: `${ms} (< ${IO_BOUND_RTT_MS} ms: the deployment answers as fast as this machine runs tests)` };
}

/**
 * The median round trip of `count` sequential GETs of `url` on one kept-alive connection, after
 * one that opens it (connection and TLS set-up are not what each test pays); undefined when the
 * deployment does not answer.
 */
export async function measureRoundTrip(url: string, count = 5, timeoutMs = 5_000): Promise<number | undefined> {
  const once = async () => {
    const t0 = performance.now();
    const res = await fetch(url, { headers: { Accept: 'application/json' }, signal: AbortSignal.timeout(timeoutMs) });
    await res.arrayBuffer();
    return performance.now() - t0;
  };
  try {
    await once();
    const times: number[] = [];
    for (let i = 0; i < count; i++) times.push(await once());
    return times.sort((a, b) => a - b)[Math.floor(count / 2)];
  } catch {
    return undefined;
  }
}

const WORKERS_DECISION_ENV = 'CONFORMANCE_WORKERS_DECISION';

/**
 * Decided once, in Playwright's main process (its workers load the configuration too, and
 * inherit the decision): the round trip is measured only where it decides something.
 */
export async function decideWorkersOnce(target: Pick<Target, 'workers' | 'dataApi'>, embedded: boolean, argv = process.argv): Promise<WorkersDecision> {
  const inherited = process.env[WORKERS_DECISION_ENV];
  if (inherited) return JSON.parse(inherited) as WorkersDecision;
  const commandLine = argv.some((a) => a === '--workers' || a === '-j' || a.startsWith('--workers='));
  // Listing tests or merging shards' reports runs no test: nothing to measure.
  const measure = !commandLine && !embedded && target.workers === undefined && !argv.includes('--list') && !argv.includes('merge-reports');
  const decision = withinShardYears(defaultWorkers(target, embedded, availableParallelism(), measure ? await measureRoundTrip(`${target.dataApi.baseUrl}/`) : undefined), concurrentShards()?.total);
  process.env[WORKERS_DECISION_ENV] = JSON.stringify(decision);
  if (measure || decision.capped) console.log(`workers: ${decision.workers} (${decision.why}; --workers or the target's workers set another)`);
  return decision;
}

/** Whether a URL names this machine (loopback address or localhost). */
export function isLoopback(url: string): boolean {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127\./.test(host) || host === '0.0.0.0';
}
