/**
 * Where a remote certification's time went (issue #24 point 5), read from Playwright's JSON
 * results and the run's log: the wait before the first test (Playwright's start, the preflight,
 * the set-up, the workers' start), the tests themselves, and the teardown after the last. The
 * tests' part is also given in slot-seconds (the sum of every test's duration) and in workers
 * busy on average: at 40 ms from the deployment a run is bounded by the round trips its tests
 * wait on one after another (slot-seconds over workers) or by the machine's CPU (the CPU line,
 * cpu.ts), and this line tells which.
 */

interface JsonResult { startTime?: string; duration?: number }
interface JsonSuite { specs?: { tests: { results: JsonResult[] }[] }[]; suites?: JsonSuite[] }
export interface JsonResults { stats?: { startTime?: string; duration?: number }; suites?: JsonSuite[] }

export interface Phases {
  /** Seconds from the command's start to Playwright's own (its start, the configuration's loading), when the command's are known. */
  toPlaywright?: number;
  /** Seconds from Playwright's start to its first test's. */
  beforeFirst: number;
  /** Seconds from the first test's start to the last test's end. */
  tests: number;
  /** Seconds from the last test's end to the run's. */
  afterLast: number;
  /** The tests' durations added up, in seconds. */
  slotSeconds: number;
  /** The global set-up's own seconds, as its log line gives them (part of beforeFirst). */
  setUp?: number;
}

/**
 * The phases of a run, or undefined when it ran no test (or its results have no times).
 * `commandMs`: the whole command's milliseconds, as the figure gives them.
 */
export function phasesOf(results: JsonResults, log = '', commandMs?: number): Phases | undefined {
  const start = Date.parse(results.stats?.startTime ?? '');
  const duration = results.stats?.duration;
  if (Number.isNaN(start) || duration === undefined) return undefined;
  let first = Infinity;
  let last = -Infinity;
  let slot = 0;
  const walk = (s: JsonSuite) => {
    for (const r of (s.specs ?? []).flatMap((spec) => spec.tests.flatMap((t) => t.results))) {
      const at = Date.parse(r.startTime ?? '');
      if (Number.isNaN(at) || r.duration === undefined || r.duration < 0) continue;
      first = Math.min(first, at);
      last = Math.max(last, at + r.duration);
      slot += r.duration;
    }
    for (const child of s.suites ?? []) walk(child);
  };
  for (const s of results.suites ?? []) walk(s);
  if (first === Infinity) return undefined;
  const setUp = /^set-up: (\d+(?:\.\d+)?) s\b/m.exec(log)?.[1];
  return {
    ...(commandMs !== undefined ? { toPlaywright: Math.max(0, commandMs - duration) / 1000 } : {}),
    beforeFirst: (first - start) / 1000,
    tests: (last - first) / 1000,
    afterLast: Math.max(0, start + duration - last) / 1000,
    slotSeconds: slot / 1000,
    ...(setUp !== undefined ? { setUp: Number(setUp) } : {}),
  };
}

/** The line printed before the figure. */
export function phasesLine(p: Phases | undefined, workers: number | undefined): string {
  if (!p) return 'phases: no test ran, nothing to divide';
  const s = (n: number) => `${n.toFixed(1)} s`;
  const busy = workers && p.tests > 0 ? `, ${(p.slotSeconds / p.tests).toFixed(1)} of ${workers} workers busy on average` : '';
  const setUp = p.setUp !== undefined ? ` (the set-up ${s(p.setUp)} of it)` : '';
  const start = p.toPlaywright !== undefined ? `${s(p.toPlaywright)} to Playwright's start, then ` : '';
  return `phases: ${start}${s(p.beforeFirst)} before the first test${setUp}; the tests ${s(p.tests)} (${Math.round(p.slotSeconds)} slot-seconds${busy}); ${s(p.afterLast)} after the last`;
}
