/**
 * The killed-run acceptance of issue #24: "a run killed at random points (five times, in set-up,
 * mid-suite and in teardown) is followed by a clean run that reaches the same verdict, and
 * cleanup leaves the deployment's digest equal to the one before the first run."
 *
 * `npm run strength -- --kills [seed]`: against the embedded deployments, through one proxy whose
 * URLs every run shares (a killed run's ledger names them for the next), it takes the
 * deployment's store digest, runs the whole suite once for the verdict to reach, then five runs
 * each killed at a point drawn from the seed, at a 20 ms round trip (requests in flight, as against
 * a distant deployment): in the rostering set-up and mid-suite as the deployment makes the n-th
 * record, before its answer reaches the run (the window a ledger written on answers leaks);
 * mid-suite at a drawn second, by SIGINT (Ctrl-C) and by SIGKILL; and in teardown at the k-th
 * DELETE once it began. Each run's set-up removes what the runs before it
 * left. Then `npm run cleanup`, which must leave the ledger empty (it also names the other flows'
 * deployments, which have no digest), the digest again (equal to the first), and a clean run,
 * whose verdict must be the first one's. Prints what each kill hit and left, and exits 1 on any
 * miss.
 */
import type { ChildProcess } from 'node:child_process';
import type { ProxiedRequest, ProxiedResponse } from './proxy.js';

export interface KillRun {
  verdict?: string;
  failed: string[];
  errors: string[];
  passed: number;
  ms: number;
  /** The run's console output. */
  log: string;
}

export interface KillHarness {
  /** One run of `suites` (all when empty) at `roundTripMs`; `started` gets the process as it starts, `watch` what passes the proxy. */
  run(name: string, o: { suites: string[]; roundTripMs: number; storeDigest: boolean; started?: (child: ChildProcess) => void; watch?: Watch }): Promise<KillRun>;
  /** The store digest of the deployment the target names. */
  digest(): Promise<string>;
  /** `npm run cleanup` against the shared target: its exit code and output. */
  cleanup(): Promise<{ code: number; output: string }>;
  /** Records and unanswered POSTs the runs' ledger still holds. */
  ledgerLeft(): number;
}

/** A small seeded generator (mulberry32): the same seed draws the same kill points. */
export function drawer(seed: number): (lo: number, hi: number) => number {
  let a = seed >>> 0;
  return (lo, hi) => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    const r = ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    return lo + Math.floor(r * (hi - lo + 1));
  };
}

export type Phase = 'set-up' | 'mid-suite' | 'teardown';

/** What a kill watches through the proxy: each request as it arrives, each answer as it leaves the deployment. */
export interface Watch { request?: (req: ProxiedRequest) => void; answer?: (req: ProxiedRequest, res: ProxiedResponse) => void }

export interface Kill { phase: Phase; signal: NodeJS.Signals; suites: string[]; describe: string; arm(child: ChildProcess, kill: () => void): Watch }

/** Which phase a run's output shows it was in: the set-up prints `set-up: ` as it ends, the teardown `teardown: deleting` as it begins. */
export const phaseOf = (out: string): Phase => (out.includes('teardown: deleting') ? 'teardown' : out.includes('set-up: ') ? 'mid-suite' : 'set-up');

const ROUND_TRIP_MS = 20;

/** Calls `then` once the run printed `line`. */
function onceSaid(child: ChildProcess, line: string, then: () => void): void {
  let out = '';
  const listen = (d: Buffer) => {
    out += d.toString();
    if (!out.includes(line)) return;
    child.stdout!.off('data', listen);
    then();
  };
  child.stdout!.on('data', listen);
}

const isRecordPost = (req: ProxiedRequest, res: ProxiedResponse) => req.method === 'POST' && req.url.includes('/data/') && res.status === 201;

/**
 * The five kills, their points drawn by `draw`. Two land exactly where a run leaks without the
 * ledger's intents: when the deployment has made a record (201) and its answer is still on the
 * way, in the set-up and mid-suite. Two land at a drawn second; one in teardown, at a DELETE.
 */
export function plan(draw: (lo: number, hi: number) => number): Kill[] {
  const atCreated = (n: number, phase: 'set-up' | 'mid-suite'): Kill => ({
    phase, signal: 'SIGKILL', suites: [], describe: `SIGKILL ${phase === 'set-up' ? 'in the set-up' : 'after the set-up'} as record no. ${n} is made, before its answer arrives`,
    arm: (child, kill) => {
      let armed = phase === 'set-up';
      if (!armed) onceSaid(child, 'set-up: ', () => { armed = true; });
      let made = 0;
      return { answer: (req, res) => { if (armed && isRecordPost(req, res) && ++made === n) kill(); } };
    },
  });
  const atSecond = (s: number, signal: NodeJS.Signals): Kill => ({
    phase: 'mid-suite', signal, suites: [], describe: `${signal} ${s} s after the set-up ended`,
    arm: (child, kill) => { onceSaid(child, 'set-up: ', () => setTimeout(kill, s * 1000)); return {}; },
  });
  const atDelete = (k: number): Kill => ({
    phase: 'teardown', signal: 'SIGKILL', suites: ['rostering'], describe: `SIGKILL at the teardown's DELETE no. ${k} (rostering suites)`,
    arm: (child, kill) => {
      let began = false;
      onceSaid(child, 'teardown: deleting', () => { began = true; });
      let deletes = 0;
      return { request: (req) => { if (began && req.method === 'DELETE' && ++deletes === k) kill(); } };
    },
  });
  return [atCreated(draw(5, 40), 'set-up'), atCreated(draw(50, 400), 'mid-suite'), atSecond(draw(5, 40), 'SIGINT'), atSecond(draw(20, 60), 'SIGKILL'), atDelete(draw(1, 30))];
}

export async function killAcceptance(h: KillHarness, seed: number): Promise<number> {
  const problems: string[] = [];
  const before = await h.digest();
  console.log(`kill acceptance, seed ${seed} (npm run strength -- --kills ${seed} draws the same points); digest before: ${before}`);
  const first = await h.run('kills-first', { suites: [], roundTripMs: 0, storeDigest: true });
  console.log(`first run: verdict ${first.verdict ?? 'none'}, ${first.passed} passed, ${first.failed.length} failed (${(first.ms / 1000).toFixed(0)} s)`);
  if (!first.verdict || first.failed.length || first.errors.length) problems.push(`the first run did not finish cleanly: ${[...first.failed, ...first.errors].slice(0, 3).join('; ')}`);
  const draw = drawer(seed);
  for (const [i, k] of plan(draw).entries()) {
    let killedAt: string | undefined;
    let output = '';
    let child: ChildProcess | undefined;
    let watch: Watch = {};
    const kill = () => {
      if (killedAt || !child || child.exitCode !== null) return;
      killedAt = phaseOf(output);
      try { process.kill(-child.pid!, k.signal); } catch { /* gone */ }
    };
    const r = await h.run(`kills-${i + 1}`, {
      suites: k.suites, roundTripMs: ROUND_TRIP_MS, storeDigest: false,
      started: (c) => { child = c; c.stdout!.on('data', (d: Buffer) => { output += d.toString(); }); watch = k.arm(c, kill); },
      watch: { request: (req) => watch.request?.(req), answer: (req, res) => watch.answer?.(req, res) },
    });
    // What this run's set-up removed of the earlier runs' records, and found already gone (404: its DELETE had reached the deployment before a kill).
    const removal = /removed (\d+) records? earlier runs left[^;\n]*(?:; (\d+) already gone)?/.exec(r.log);
    const removed = `${removal?.[1] ?? '0'}${removal?.[2] ? ` (and found ${removal[2]} already gone)` : ''}`;
    const landed = killedAt === k.phase;
    if (!killedAt) problems.push(`kill ${i + 1} (${k.describe}) never fired: the run ended first`);
    else if (!landed) problems.push(`kill ${i + 1} (${k.describe}) landed in ${killedAt}, not ${k.phase}`);
    const setupFailed = /preflight failed|could not delete|Error in global setup/i.exec(r.log);
    if (setupFailed && killedAt !== 'set-up') problems.push(`run ${i + 1}'s set-up failed: ${setupFailed[0]}`);
    console.log(`kill ${i + 1}: ${k.describe}: ${killedAt ? `killed in ${killedAt}` : 'NOT killed'} after ${(r.ms / 1000).toFixed(1)} s; its set-up removed ${removed} record(s) earlier runs left; the ledger now holds ${h.ledgerLeft()}`);
  }
  const cleanup = await h.cleanup();
  console.log(`npm run cleanup (exit ${cleanup.code}):\n${cleanup.output.trim().split('\n').map((l) => `  ${l}`).join('\n')}`);
  if (cleanup.code !== 0) problems.push(`cleanup exited ${cleanup.code}`);
  const after = await h.digest();
  console.log(`digest after cleanup: ${after === before ? 'equal to the one before the first run' : `DIFFERENT: ${after}`}`);
  if (after !== before) problems.push('the digest after cleanup differs from the one before the first run');
  if (h.ledgerLeft()) problems.push(`the ledger still holds ${h.ledgerLeft()} entries after cleanup`);
  const clean = await h.run('kills-clean', { suites: [], roundTripMs: 0, storeDigest: true });
  console.log(`clean run: verdict ${clean.verdict ?? 'none'} (first run: ${first.verdict ?? 'none'}), ${clean.passed} passed, ${clean.failed.length} failed (${(clean.ms / 1000).toFixed(0)} s)`);
  if (clean.verdict !== first.verdict || clean.failed.length || clean.errors.length) problems.push(`the clean run's verdict ${clean.verdict ?? 'none'} (${clean.failed.length} failed, ${clean.errors.length} errors) is not the first run's ${first.verdict ?? 'none'}`);
  const final = await h.digest();
  if (final !== before) problems.push('the clean run changed the digest');
  for (const p of problems) console.log(`  MISS  ${p}`);
  console.log(`kill acceptance: ${problems.length ? `${problems.length} miss(es)` : 'met'} (seed ${seed})`);
  return problems.length ? 1 : 0;
}
