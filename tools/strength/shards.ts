/**
 * `npm run strength -- --shards [n]`: the acceptance of issue #24 point 2, against the embedded
 * deployments through one proxy (the URLs every run's target names):
 *
 * 1. one unsharded run, the reference verdict;
 * 2. n shards at the same time, one CONFORMANCE_RUN_ID, each with its own blob report; their merge
 *    must equal the unsharded run rule by rule and test by test (as `npm run test:shards` checks
 *    for shards one after another), exit 0, every shard without an error outside its tests (shard 1
 *    checks the store digest once every shard is done: shards.ts);
 * 3. n shards again, shard 2 killed once its tests run: the merge must say *incomplete* and exit 1,
 *    shard 1 must still end (taking shard 2 for killed), and `npm run cleanup` must bring the store
 *    back to the digest it had before the first run.
 */
import type { ChildProcess } from 'node:child_process';
import type { ConformanceReport } from '../../suites/_harness/reporter/types.js';

export interface ShardRunOptions {
  shard?: { current: number; total: number };
  runId?: string;
  storeDigest: boolean;
  started?: (child: ChildProcess) => void;
}

export interface ShardHarness {
  /** A Playwright run of every suite; its conformance report (none when it wrote none) and its errors outside tests. */
  run(name: string, o: ShardRunOptions): Promise<{ report?: ConformanceReport; errors: string[]; log: string }>;
  /** Merges the blob reports of these runs: the merge's exit code and its conformance report. */
  merge(name: string, runs: string[]): Promise<{ code: number; report?: ConformanceReport; output: string }>;
  digest(): Promise<string>;
  cleanup(): Promise<{ code: number; output: string }>;
}

/**
 * What must agree between two reports: per rule its verdict and each of its tests' outcome (the
 * target's name differs by construction: each run here has a target file of its own).
 */
export function essence(r: ConformanceReport): string[] {
  return [...r.rules.map((x) => `${x.id} ${x.verdict} ${x.tests.map((t) => `${t.title}=${t.outcome}`).sort().join(' | ')}`).sort()];
}

/** Lines of `a` not in `b` and of `b` not in `a`, a few of each. */
export function differences(a: string[], b: string[], max = 10): string[] {
  const inB = new Set(b);
  const inA = new Set(a);
  return [...a.filter((x) => !inB.has(x)).slice(0, max).map((x) => `unsharded: ${x.slice(0, 240)}`), ...b.filter((x) => !inA.has(x)).slice(0, max).map((x) => `merged:    ${x.slice(0, 240)}`)];
}

/** Kills a run's process group once its log shows the tests began, after `afterMs`. */
export function killWhenTesting(afterMs: number, killed: () => void): (child: ChildProcess) => void {
  return (child) => {
    let seen = false;
    child.stdout?.on('data', (d: Buffer) => {
      if (seen || !/set-up: /.test(d.toString())) return;
      seen = true;
      setTimeout(() => {
        try { process.kill(-child.pid!, 'SIGKILL'); killed(); } catch { /* ended already */ }
      }, afterMs);
    });
  };
}

export async function shardAcceptance(h: ShardHarness, total: number): Promise<number> {
  const misses: string[] = [];
  const miss = (what: string) => { misses.push(what); console.log(`  MISS ${what}`); };
  const before = await h.digest();
  console.log(`shards acceptance, ${total} shards; digest before: ${before}`);

  const whole = await h.run('shards-whole', { storeDigest: true });
  if (!whole.report) return fail(['the unsharded run wrote no conformance report']);
  console.log(`unsharded: ${whole.report.summary.verdict}${whole.errors.length ? `, errors: ${whole.errors.join('; ')}` : ''}`);

  // Every shard at once, as CI runs them.
  const runId = `sh${Date.now().toString(36)}`;
  const started = Date.now();
  const shards = await Promise.all(Array.from({ length: total }, (_, i) => h.run(`shards-${i + 1}`, { shard: { current: i + 1, total }, runId, storeDigest: i === 0 })));
  console.log(`${total} shards at the same time: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  shards.forEach((s, i) => { if (s.errors.length) miss(`shard ${i + 1} had errors outside its tests: ${s.errors.join('; ').slice(0, 400)}`); });
  const merged = await h.merge('shards-merged', shards.map((_, i) => `shards-${i + 1}`));
  if (!merged.report) miss('the merge wrote no conformance report');
  else {
    const diff = differences(essence(whole.report), essence(merged.report));
    if (diff.length) miss(`the merged report differs from the unsharded one:\n    ${diff.join('\n    ')}`);
    else console.log(`merged ${total} shards: ${merged.report.summary.verdict}, equal to the unsharded report (${merged.report.rules.length} rules)`);
  }
  const wholeCode = whole.report.summary.verdict === 'conformant' ? 0 : 1;
  if (merged.code !== wholeCode) miss(`the merge exited ${merged.code}, the unsharded verdict calls for ${wholeCode}`);
  const afterShards = await h.digest();
  if (afterShards !== before) miss(`the shards left the store changed: digest ${afterShards}, before ${before}`);

  // Shard 2 killed while its tests run.
  let killed = false;
  const killedId = `sk${Date.now().toString(36)}`;
  const again = await Promise.all(Array.from({ length: total }, (_, i) => h.run(`shards-killed-${i + 1}`, {
    shard: { current: i + 1, total }, runId: killedId, storeDigest: false,
    ...(i === 1 ? { started: killWhenTesting(15_000, () => { killed = true; }) } : {}),
  })));
  if (!killed) miss('shard 2 was not killed (it ended before)');
  if (!/took shard|stopped answering/.test(again[0].log)) miss('shard 1 did not say it took shard 2 for killed');
  if (again[0].errors.length) miss(`shard 1 had errors outside its tests: ${again[0].errors.join('; ').slice(0, 400)}`);
  const mergedKilled = await h.merge('shards-killed-merged', again.map((_, i) => `shards-killed-${i + 1}`));
  console.log(`merged with shard 2 killed: ${mergedKilled.report?.summary.verdict ?? 'no report'}, exit ${mergedKilled.code}; missing shards ${JSON.stringify(mergedKilled.report?.summary.missingShards ?? [])}`);
  if (mergedKilled.report?.summary.verdict !== 'incomplete') miss(`the merge with a killed shard says ${mergedKilled.report?.summary.verdict ?? 'nothing'}, not incomplete`);
  if (mergedKilled.code !== 1) miss(`the merge with a killed shard exited ${mergedKilled.code}, not 1`);
  const cleanup = await h.cleanup();
  console.log(cleanup.output.trim().split('\n').map((l) => `  ${l}`).join('\n'));
  const afterCleanup = await h.digest();
  if (afterCleanup !== before) miss(`after the killed shards and cleanup the store differs: digest ${afterCleanup}, before ${before}`);
  return fail(misses);
}

function fail(misses: string[]): number {
  console.log(misses.length ? `shards acceptance: ${misses.length} miss(es)` : 'shards acceptance: met');
  return misses.length ? 1 : 0;
}
