import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import { cpuLine, cpuMark, statTimes } from './cpu.js';

/**
 * The remote certification's CPU line (cpu.ts) is read beside its figure: its times must be
 * /proc's own fields, however the command name is spelt, and the line must add them up as it
 * says.
 */
const stat = (comm: string) => `4242 (${comm}) S 1 4242 4242 0 -1 4194560 1000 0 0 0 250 75 1200 300 20 0 11 0 5000 100000 2000`;

test('reads utime, stime, cutime and cstime (fields 14 to 17) in seconds of 100 ticks', () => {
  assert.deepEqual(statTimes(stat('node')), { own: 3.25, children: 15 });
});

test('counts the fields from the last parenthesis, whatever the command name holds', () => {
  assert.deepEqual(statTimes(stat('node (worker) 2')), { own: 3.25, children: 15 });
  assert.deepEqual(statTimes(stat(') S 9 9 9')), { own: 3.25, children: 15 });
});

test('the line gives the load at the start, each share of the CPU used and their sum over the cores', () => {
  const line = cpuLine({ runner: 10, reaped: 5, deployments: 20 }, { runner: 18, reaped: 85, deployments: 43 }, 2, 0.42);
  assert.equal(line, 'machine: 2 cores, load average 0.42 when the tool started; it used 111 CPU-seconds (suites 80, deployments 23, delay proxy and runner 8): at least 55.5 s on 2 cores, whatever the workers');
  assert.equal(cpuLine(undefined, undefined, 2), 'machine: 2 cores; CPU not measured here (no /proc)');
});

test('a reaped child\'s CPU shows among the children, a running one\'s by its pid', { skip: !existsSync('/proc/self/stat') && 'no /proc here' }, () => {
  const before = cpuMark([process.pid])!;
  // 0.3 CPU-seconds, by the CPU clock (a loaded machine stretches the wall clock), in a child that
  // ends (reaped by spawnSync) and in this process.
  const burn = 'const used = () => { const u = process.cpuUsage(); return u.user + u.system; }; const from = used(); while (used() - from < 300_000);';
  spawnSync(process.execPath, ['-e', burn]);
  const used = () => { const u = process.cpuUsage(); return u.user + u.system; };
  for (const from = used(); used() - from < 300_000;);
  const after = cpuMark([process.pid])!;
  assert.ok(after.reaped - before.reaped >= 0.2, `reaped ${after.reaped - before.reaped}`);
  assert.ok(after.deployments - before.deployments >= 0.2, `by pid ${after.deployments - before.deployments}`);
});
