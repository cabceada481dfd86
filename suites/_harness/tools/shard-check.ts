/**
 * `npm run test:shards`: proves that a sharded run merged with `playwright merge-reports` gives
 * the same conformance report as one unsharded run (same rules, verdicts, tests and outcomes).
 * Runs the suites three times against the embedded reference; takes a few minutes.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { ConformanceReport } from '../reporter/types.js';

const shards = Number(process.argv.find((a) => a.startsWith('--shards='))?.split('=')[1] ?? 2);
const run = (args: string[], env: Record<string, string> = {}) =>
  execFileSync('npx', ['playwright', ...args], { stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, ...env } });

/** What must agree: the target, and per rule its verdict and the outcome of each of its tests. */
function essence(file: string): string[] {
  const r = JSON.parse(readFileSync(file, 'utf8')) as ConformanceReport;
  return [`target ${JSON.stringify(r.target)}`, ...r.rules.map((x) => `${x.id} ${x.verdict} ${x.tests.map((t) => `${t.title}=${t.outcome}`).sort().join(' | ')}`).sort()];
}

console.log('unsharded run …');
run(['test', '--reporter=dot,./suites/_harness/reporter/conformance-reporter.ts']);
const whole = essence('reports/conformance.json');

rmSync('reports/blob', { recursive: true, force: true });
mkdirSync('reports/blob/all', { recursive: true });
for (let i = 1; i <= shards; i++) {
  console.log(`shard ${i}/${shards} …`);
  try {
    run(['test', `--shard=${i}/${shards}`, '--reporter=blob'], { PLAYWRIGHT_BLOB_OUTPUT_DIR: `reports/blob/${i}` });
  } catch {
    // A failing test fails the shard's exit code; the merged report tells.
  }
  for (const f of readdirSync(`reports/blob/${i}`)) cpSync(join(`reports/blob/${i}`, f), join('reports/blob/all', f));
}
console.log('merging …');
run(['merge-reports', '--config', 'suites/merge.config.ts', 'reports/blob/all']);
const merged = essence('reports/conformance.json');

const onlyWhole = whole.filter((x) => !merged.includes(x));
const onlyMerged = merged.filter((x) => !whole.includes(x));
if (onlyWhole.length || onlyMerged.length) {
  console.log('the merged report differs from the unsharded one:');
  for (const x of onlyWhole) console.log(`  unsharded: ${x.slice(0, 200)}`);
  for (const x of onlyMerged) console.log(`  merged:    ${x.slice(0, 200)}`);
  process.exit(1);
}
console.log(`merged report of ${shards} shards equals the unsharded report (${whole.length} rules)`);
