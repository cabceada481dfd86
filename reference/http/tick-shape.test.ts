/**
 * tick-shape.ts keeps process.nextTick on its fast path through full garbage collections (issue
 * #25: 8 % of a GET by id's server CPU). Judged by V8's own account, never by a clock: a child
 * process with --trace-deopt runs bursts of nextTick calls with full collections between them,
 * and counts the times V8 threw nextTick's optimized code away because the shapes it relied on
 * had been collected ("weak objects"). Without the module that happens; with it, never.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const MODULE = fileURLToPath(new URL('./tick-shape.ts', import.meta.url));

const BURSTS = `
const keep = process.argv[1] === 'keep';
if (keep) await import(${JSON.stringify(MODULE)});
const burst = (n) => new Promise((done) => { const spin = () => (--n > 0 ? process.nextTick(spin) : done()); spin(); });
for (let round = 0; round < 6; round++) {
  await burst(100000);
  await new Promise((r) => setTimeout(r, 10));
  for (let i = 0; i < 3; i++) globalThis.gc();
}
if (keep) {
  const { keptTickEntry } = await import(${JSON.stringify(MODULE)});
  console.log('kept entry with callback:', typeof keptTickEntry()?.callback);
}
`;

function collectedShapeDeopts(mode: 'keep' | 'plain'): { deopts: number; output: string } {
  // Optimized on the main thread (no concurrent recompilation): on a loaded machine a background
  // compile could land after the bursts, and the control would then see nothing to throw away.
  const flags = ['--import', 'tsx', '--expose-gc', '--trace-deopt', '--no-concurrent-recompilation'];
  const output = execFileSync(process.execPath, [...flags, '--input-type=module', '-e', BURSTS, mode], { encoding: 'utf8', maxBuffer: 64 << 20 });
  const deopts = output.split('\n').filter((l) => l.includes('SharedFunctionInfo nextTick') && l.includes('reason: weak objects')).length;
  return { deopts, output };
}

test('without the kept entry, full collections throw nextTick’s optimized code away (the condition is real)', () => {
  assert.ok(collectedShapeDeopts('plain').deopts >= 1, 'no collected-shape deoptimization of nextTick: the module may no longer be needed on this Node');
});

test('with the kept entry, they never do, and the entry is a nextTick queue entry', () => {
  const { deopts, output } = collectedShapeDeopts('keep');
  assert.equal(deopts, 0);
  assert.match(output, /kept entry with callback: function/);
});
