import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { REPO_ROOT } from '../../tools/child-reference.js';

/**
 * `--data-standard` (issue #22 point 2): the standard `npm start` serves, over the configuration
 * file's `dataStandard`. One the reference does not know stops start-up as every other
 * configuration error does, exit 2 and one line naming the setting and what it allows, before
 * anything listens.
 */
const MAIN = fileURLToPath(new URL('../main.ts', import.meta.url));

function env(): NodeJS.ProcessEnv {
  const e = { ...process.env };
  for (const name of ['REFERENCE_CONFIG', 'ROSTERING_PORT', 'NODE_TEST_CONTEXT', 'NODE_OPTIONS']) delete e[name];
  // Free ports (a defect that lets a refused start listen then fails after the timeout).
  e.REFERENCE_PORT = '0';
  return e;
}

function start(...args: string[]): { status: number | null; lines: string[] } {
  const run = spawnSync(process.execPath, ['--import', 'tsx', MAIN, ...args], { cwd: REPO_ROOT, env: env(), encoding: 'utf8', timeout: 120_000 });
  return { status: run.status, lines: `${run.stdout}${run.stderr}`.trim().split('\n') };
}

/** Starts main.ts with the arguments and returns the `dataModels` its discovery document names, and its ready line. */
async function dataModelsOf(...args: string[]): Promise<{ dataModels: unknown; ready: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN, ...args], { cwd: REPO_ROOT, env: env(), stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stderr.setEncoding('utf8').on('data', (s: string) => { output += s; });
  try {
    const base = await new Promise<string>((resolve, reject) => {
      child.stdout.setEncoding('utf8').on('data', (s: string) => {
        output += s;
        const url = /^data API\s+(http:\/\/\S+)/m.exec(output)?.[1];
        if (url) resolve(url);
      });
      child.once('exit', (code) => reject(new Error(`exited (${code}) before it was ready:\n${output}`)));
    });
    const { dataModels } = (await (await fetch(`${base}/`)).json()) as { dataModels: unknown };
    return { dataModels, ready: /^data API.*$/m.exec(output)![0] };
  } finally {
    child.kill('SIGTERM');
  }
}

test('--data-standard chooses the standard served, over the configuration file\'s', async () => {
  const alone = await dataModelsOf('--empty', '--data-standard', '6.1');
  assert.deepEqual(alone.dataModels, [{ name: 'Core', version: '6.1.0', informationalVersion: 'The Ed-Fi Data Model 6.1' }]);
  assert.match(alone.ready, /\(ready in \d+ ms, Data Standard 6\.1\)$/, 'the ready line says which standard is served');
  // The --name=value form too (it was ignored, and the default 4.0 served without a word).
  assert.match((await dataModelsOf('--empty', '--data-standard=5.2')).ready, /Data Standard 5\.2\)$/);
  const dir = mkdtempSync(join(tmpdir(), 'data-standard-flag-'));
  try {
    const config = join(dir, 'config.json');
    writeFileSync(config, JSON.stringify({ port: 0, rosteringPort: 0, dataStandard: '5.2', clients: [{ key: 'k', secret: 's' }] }));
    assert.deepEqual((await dataModelsOf('--config', config, '--data-standard', '4.0')).dataModels, [{ name: 'Core', version: '4.0.0', informationalVersion: 'The Ed-Fi Data Model 4.0' }]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('an unknown --data-standard stops start-up with exit 2 and one line naming the standards there are', () => {
  for (const args of [['--data-standard', '7.0'], ['--data-standard=7.0']]) {
    assert.deepEqual(start('--empty', ...args), {
      status: 2,
      lines: ['invalid configuration: /dataStandard must be equal to one of the allowed values: 4.0, 5.2, 6.1'],
    }, args.join(' '));
  }
});

test('an unknown option, or an option without its value, stops start-up with exit 2 and one line naming it and the usage', () => {
  for (const [args, named] of [[['--data-standar', '5.2'], '--data-standar'], [['--data-standard'], '--data-standard'], [['--empty', 'extra'], 'extra']] as const) {
    const { status, lines } = start(...args);
    assert.equal(status, 2, args.join(' '));
    assert.equal(lines.length, 1, lines.join('\n'));
    assert.ok(lines[0].includes(named) && lines[0].endsWith('usage: npm start -- [--config file.json | --empty] [--data-standard 4.0|5.2|6.1] [--recover]'), lines[0]);
  }
});
