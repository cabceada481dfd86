import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { REPO_ROOT } from '../../tools/child-reference.js';

/**
 * `--data-standard` (issue #22 point 2): a standard the reference does not know stops start-up
 * as every other configuration error does, exit 2 and one line naming the setting and what it
 * allows, before anything listens (so no port is needed).
 */
const MAIN = fileURLToPath(new URL('../main.ts', import.meta.url));

function start(...args: string[]): { status: number | null; lines: string[] } {
  const env = { ...process.env };
  for (const name of ['REFERENCE_CONFIG', 'ROSTERING_PORT', 'NODE_TEST_CONTEXT', 'NODE_OPTIONS']) delete env[name];
  // Free ports, should a defect let it start (it is then killed after the timeout, and fails).
  env.REFERENCE_PORT = '0';
  const run = spawnSync(process.execPath, ['--import', 'tsx', MAIN, '--empty', ...args], { cwd: REPO_ROOT, env, encoding: 'utf8', timeout: 120_000 });
  return { status: run.status, lines: `${run.stdout}${run.stderr}`.trim().split('\n') };
}

test('an unknown --data-standard stops start-up with exit 2 and one line naming the standards there are', () => {
  for (const args of [['--data-standard', '7.0'], ['--data-standard']]) {
    assert.deepEqual(start(...args), {
      status: 2,
      lines: ['invalid configuration: /dataStandard must be equal to one of the allowed values: 4.0, 5.2, 6.1'],
    }, args.join(' '));
  }
});
