import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { ConformanceReport } from '../reporter/types.js';
import { rosteringSelected, selectionOf, selects } from '../selection.js';

/**
 * Which Playwright command lines run a suite family: embedded runs start the rostering servers
 * and the lowered-page-size deployment only for runs that include the suites using them, so a
 * wrong answer either leaves those suites without their servers or slows every small run.
 */
const cli = (...args: string[]) => ['/usr/bin/node', '/repo/node_modules/.bin/playwright', ...args];

test('a run without path filters selects every family, whatever its other options', () => {
  assert.equal(selects(cli('test'), /limits/), true);
  assert.equal(selects(cli('test', '--workers=2', '--grep', 'paging'), /limits/), true);
});

test('path filters select the families they name, as folders or as spec files', () => {
  assert.equal(selects(cli('test', 'suites/limits'), /limits/), true);
  assert.equal(selects(cli('test', 'suites/token', 'suites/limits/page-size.spec.ts'), /limits/), true);
  assert.equal(selects(cli('test', 'suites/token'), /limits/), false);
  assert.equal(selects(cli('test', 'suites/token', '--reporter=dot'), /rostering/), false);
  assert.equal(selects(cli('test', 'suites/rostering/'), /rostering/), true);
});

test('a process that is not a Playwright test run (a worker, a tool) selects everything', () => {
  assert.equal(selects(['/usr/bin/node', 'worker.js'], /limits/), true);
});

test('selectionOf names what a command line selects: grep, file filters, last-failed; nothing for the whole run', () => {
  assert.equal(selectionOf(cli('test')), undefined);
  assert.equal(selectionOf(cli('test', '--workers', '2', '-c', 'suites/x/playwright.config.ts', '--reporter=dot', '--max-failures=1', '--shard=1/2')), undefined, 'option values are no filters; a shard is judged by its merge');
  assert.equal(selectionOf(cli('test', '--grep', '@data.delete.unknown-id-404')), '--grep @data.delete.unknown-id-404');
  assert.equal(selectionOf(cli('test', '-g', 'paging', '--grep-invert=slow')), '-g paging --grep-invert=slow');
  assert.equal(selectionOf(cli('test', 'suites/token', 'etag')), 'suites/token etag');
  assert.equal(selectionOf(cli('test', '--last-failed')), '--last-failed');
  assert.equal(selectionOf(cli('merge-reports', 'blob')), undefined);
});

test('real Playwright runs: a selection exits 0 when every MUST rule it judged passes, 1 otherwise; the verdict stays incomplete', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'selection-demo-'));
  const run = async (name: string, grep: string) => {
    const reports = join(dir, name);
    const code = await promisify(execFile)(process.execPath, ['node_modules/@playwright/test/cli.js', 'test', '-c', 'suites/_harness/tests/check-demo/playwright.config.ts', '--grep', grep], {
      env: { ...process.env, CHECK_DEMO_REPORTS: reports, CONFORMANCE_STRICT: '', FORCE_COLOR: '0' },
    }).then(() => 0, (err: { code?: number }) => err.code ?? -1);
    return { code, verdict: (JSON.parse(readFileSync(join(reports, 'conformance.json'), 'utf8')) as ConformanceReport).summary.verdict };
  };
  assert.deepEqual(await run('passing', 'passes with it'), { code: 0, verdict: 'incomplete' }, 'data.limits.token-lifetime passes');
  assert.deepEqual(await run('failing', 'a failure outside the checks'), { code: 1, verdict: 'not-conformant' });
  assert.deepEqual(await run('not-applicable', 'does not pass without it'), { code: 1, verdict: 'incomplete' }, 'a MUST rule not exercised is no pass');
});

test('the rostering suites (and their fixed organization ids) are left out by a path filter without them or a --grep-invert matching their tags', () => {
  assert.equal(rosteringSelected(cli('test')), true);
  assert.equal(rosteringSelected(cli('test', 'suites/rostering')), true);
  assert.equal(rosteringSelected(cli('test', 'suites/etag')), false);
  for (const args of [['--grep-invert', '@roster'], ['--grep-invert=@roster'], ['-gv', '@roster\\.']]) assert.equal(rosteringSelected(cli('test', '--shard=1/2', ...args)), false, args.join(' '));
  for (const args of [['--grep-invert', '@data'], ['--grep-invert', '(']]) assert.equal(rosteringSelected(cli('test', ...args)), true, args.join(' '));
});
