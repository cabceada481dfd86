import { test } from 'node:test';
import assert from 'node:assert/strict';
import { selects } from '../selection.js';

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
