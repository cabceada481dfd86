/**
 * Prints the line coverage of reference/ measured while the conformance suites ran
 * (REFERENCE_COVERAGE=1 runs the reference under c8) and fails below the floor.
 * Usage: tsx tools/coverage-check.ts [--min=85]
 */
import { existsSync, readFileSync } from 'node:fs';

const file = 'reports/coverage/coverage-summary.json';
const min = Number(process.argv.find((a) => a.startsWith('--min='))?.split('=')[1] ?? 0);
if (!existsSync(file)) {
  console.error(`reference coverage: ${file} is missing (was the reference run under c8 and stopped with SIGTERM?)`);
  process.exit(1);
}
const total = (JSON.parse(readFileSync(file, 'utf8')) as { total: { lines: { pct: number; covered: number; total: number } } }).total.lines;
console.log(`reference coverage: ${total.pct}% of lines (${total.covered}/${total.total}), floor ${min}% → reports/coverage/index.html`);
if (total.pct < min) process.exit(1);
