import { existsSync, readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';

/**
 * What the machine gave a remote certification (issue #24 point 5: its figure goes "with the
 * machine's load"). On two cores the run is bounded by CPU as much as by the round trip: the
 * suites' workers, the embedded deployments and the delay proxy share the cores, so the
 * CPU-seconds a run used, divided by the cores, are a time no worker count can go below on this
 * machine. The load average when the tool started (before it started the deployments, whose
 * start would count in it) says whether something else shared them.
 *
 * Linux only (/proc); elsewhere nothing is measured and the line says so.
 */

/** Clock ticks per second of /proc's times: USER_HZ, 100 on every Linux architecture Node runs on. */
const TICKS_PER_SECOND = 100;

/**
 * User and system CPU-seconds of a /proc/<pid>/stat line, its own and its reaped children's. The
 * command name (field 2) is in parentheses and may hold spaces and parentheses itself, so the
 * fields are counted from the last `)`.
 */
export function statTimes(stat: string): { own: number; children: number } {
  const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // rest[0] is field 3 (state): utime, stime, cutime, cstime are fields 14 to 17.
  const field = (n: number) => Number(rest[n - 3]);
  return { own: (field(14) + field(15)) / TICKS_PER_SECOND, children: (field(16) + field(17)) / TICKS_PER_SECOND };
}

const statOf = (pid: number | 'self') => {
  const file = `/proc/${pid}/stat`;
  return existsSync(file) ? statTimes(readFileSync(file, 'utf8')) : undefined;
};

/** The one-minute load average as this module was loaded: at the tool's start. */
const LOAD_AT_START = loadavg()[0];

/** CPU-seconds so far: this process (the runner and its proxy), its reaped children (the suites' run, once it ended), and the deployments it still runs. */
export interface CpuMark { runner: number; reaped: number; deployments: number }

/** Undefined without /proc. */
export function cpuMark(deploymentPids: readonly number[]): CpuMark | undefined {
  const self = statOf('self');
  if (!self) return undefined;
  const deployments = deploymentPids.reduce((sum, pid) => sum + (statOf(pid)?.own ?? 0), 0);
  return { runner: self.own, reaped: self.children, deployments };
}

/** The line printed before the figure: the cores, the load at the start, and the CPU the run used by whom. */
export function cpuLine(before: CpuMark | undefined, after: CpuMark | undefined, cores = availableParallelism(), load = LOAD_AT_START): string {
  if (!before || !after) return `machine: ${cores} cores; CPU not measured here (no /proc)`;
  const suites = after.reaped - before.reaped;
  const deployments = after.deployments - before.deployments;
  const runner = after.runner - before.runner;
  const total = suites + deployments + runner;
  const s = (n: number) => n.toFixed(0);
  return `machine: ${cores} cores, load average ${load.toFixed(2)} when the tool started; it used ${s(total)} CPU-seconds (suites ${s(suites)}, deployments ${s(deployments)}, delay proxy and runner ${s(runner)}): at least ${(total / cores).toFixed(1)} s on ${cores} cores, whatever the workers`;
}
