/**
 * A node:test reporter that prints one summary line at the end of a run:
 * `unit tests: 250 passed, 0 failed, 2 skipped in 31 files (95 s); …`. npm test pairs it with
 * the dot reporter (failures in full). What the tests themselves print is mostly provoked on
 * purpose (a reference answering a deliberately broken request logs it): it is counted here and
 * written, each line labelled with its test file, to TEST_SUMMARY_LOG, not printed.
 * Usage: --test-reporter=./suites/_harness/tools/test-summary-reporter.mjs (label: TEST_SUMMARY_LABEL).
 * Plain JavaScript: node loads test reporters before any --import hook (tsx) applies.
 */

import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, relative } from 'node:path';

/** @param {AsyncIterable<{ type: string, data: { file?: string, nesting?: number, message?: string | number } }>} source */
export default async function* summary(source) {
  const files = new Set();
  /** @type {Record<string, number>} */
  const counts = {};
  let outputLines = 0;
  /** Each file's longest top-level test, for the log: where the unit-test time goes. */
  const fileMs = new Map();
  const log = process.env.TEST_SUMMARY_LOG;
  if (log) { mkdirSync(dirname(log), { recursive: true }); writeFileSync(log, ''); }
  for await (const e of source) {
    if (e.data?.file) files.add(e.data.file);
    if (e.type === 'test:stderr' || e.type === 'test:stdout') {
      const lines = String(e.data.message ?? '').split('\n').filter(Boolean);
      outputLines += lines.length;
      if (log) appendFileSync(log, lines.map((l) => `${relative(process.cwd(), e.data.file ?? '')}: ${l}\n`).join(''));
    }
    if ((e.type === 'test:pass' || e.type === 'test:fail') && e.data.nesting === 0 && e.data.file) {
      const ms = Number(e.data.details?.duration_ms ?? 0);
      fileMs.set(e.data.file, Math.max(fileMs.get(e.data.file) ?? 0, ms));
    }
    // The run's totals come as the last top-level diagnostics: `pass 250`, `duration_ms 95000.1`.
    if (e.type === 'test:diagnostic' && e.data.nesting === 0) {
      const [key, value] = String(e.data.message).split(' ');
      if (value !== undefined && /^\d+(\.\d+)?$/.test(value)) counts[key] = Number(value);
    }
  }
  if (log && fileMs.size) {
    const slowest = [...fileMs].sort((a, b) => b[1] - a[1]).map(([f, ms]) => `  ${(ms / 1000).toFixed(1).padStart(6)} s  ${relative(process.cwd(), f)}\n`);
    appendFileSync(log, `files by their longest test:\n${slowest.join('')}`);
  }
  const label = process.env.TEST_SUMMARY_LABEL ?? 'tests';
  const parts = [`${counts.pass ?? 0} passed`, `${counts.fail ?? 0} failed`,
    ...(counts.cancelled ? [`${counts.cancelled} cancelled`] : []), ...(counts.skipped ? [`${counts.skipped} skipped`] : []), ...(counts.todo ? [`${counts.todo} todo`] : [])];
  const output = outputLines ? `; the tests wrote ${outputLines} line${outputLines === 1 ? '' : 's'} of their own (expected: provoked faults and servers' logs)${log ? `, kept in ${log}` : ''}` : '';
  yield `\n${label}: ${parts.join(', ')} in ${files.size} file${files.size === 1 ? '' : 's'} (${Math.round((counts.duration_ms ?? 0) / 1000)} s)${output}\n`;
}
