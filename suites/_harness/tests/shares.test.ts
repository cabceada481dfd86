import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { SUITES_DIR, WEIGHTS, WORKERS_PER_SHARE, commandLineWorkers, shareFiles, shareProjects, specFiles } from '../shares.js';

/** Shares: every spec file in exactly one, balanced by weight, and only for runs with many workers. */
const files = specFiles();
const without = (env: NodeJS.ProcessEnv, ...names: string[]) => Object.fromEntries(Object.entries(env).filter(([k]) => !names.includes(k)));

test('the weights of every standard list every spec file, and only spec files', () => {
  assert.ok(files.length > 50, `spec files found: ${files.length}`);
  for (const [standard, weights] of Object.entries(WEIGHTS)) assert.deepEqual(Object.keys(weights).sort(), files, standard);
});

test('every spec file is in exactly one share, for any number of shares', () => {
  for (let count = 2; count <= 8; count++) {
    const shares = shareFiles(files, count);
    assert.equal(shares.length, count);
    assert.deepEqual(shares.flat().sort(), files, `${count} shares`);
    assert.ok(shares.every((s) => s.length > 0), `${count} shares: none empty`);
  }
  // A file the table does not list yet still runs.
  assert.deepEqual(shareFiles([...files, 'new/new.spec.ts'], 4).flat().sort(), [...files, 'new/new.spec.ts'].sort());
});

test('shares weigh about the same by the weights of the standard judged (heaviest within a tenth of the lightest, four shares)', () => {
  for (const [standard, table] of Object.entries(WEIGHTS)) {
    const weights = shareFiles(files, 4, table).map((s) => s.reduce((n, f) => n + table[f], 0));
    assert.ok(Math.max(...weights) <= 1.1 * Math.min(...weights), `${standard}: share weights ${weights.join(', ')}`);
  }
  // 6.1 weighs int64 heavily, 4.0 hardly: their shares differ.
  assert.notDeepEqual(shareProjects(20, files, '6.1')!.map((p) => p.testMatch.map(String)), shareProjects(20, files, '4.0')!.map((p) => p.testMatch.map(String)));
});

test('one pool below two shares of workers; above, the workers split among the shares, all of them used', () => {
  assert.equal(shareProjects(1, files), undefined);
  assert.equal(shareProjects(3, files), undefined);
  assert.equal(shareProjects(2 * WORKERS_PER_SHARE - 1, files), undefined);
  const twenty = shareProjects(20, files)!;
  assert.deepEqual(twenty.map((p) => [p.name, p.workers]), [['share 1 of 4', 5], ['share 2 of 4', 5], ['share 3 of 4', 5], ['share 4 of 4', 5]]);
  assert.deepEqual(shareProjects(23, files)!.map((p) => p.workers), [6, 6, 6, 5]);
  assert.deepEqual(shareProjects(10, files)!.map((p) => p.workers), [5, 5]);
  // Each pattern matches its file's absolute path and no other spec file's, nor a same-named file deeper down.
  const matched = files.map((f) => twenty.flatMap((p) => p.testMatch.filter((m) => m.test(join(SUITES_DIR, f)))).length);
  assert.deepEqual(matched, files.map(() => 1));
  assert.ok(!twenty.some((p) => p.testMatch.some((m) => m.test(join(SUITES_DIR, 'rostering', files[0])))));
});

test('the command line\'s workers are read as Playwright reads them (a percentage is left to the decision)', () => {
  assert.equal(commandLineWorkers(['node', 'cli.js', 'test', '--workers', '8']), 8);
  assert.equal(commandLineWorkers(['node', 'cli.js', 'test', '--workers=12']), 12);
  assert.equal(commandLineWorkers(['node', 'cli.js', 'test', '-j', '20']), 20);
  assert.equal(commandLineWorkers(['node', 'cli.js', 'test', '--workers=50%']), undefined);
  assert.equal(commandLineWorkers(['node', 'cli.js', 'test']), undefined);
});

test('Playwright lists the same tests in shares as in one pool', () => {
  const root = fileURLToPath(new URL('../../../', import.meta.url));
  const list = (workers: number) => {
    const r = spawnSync(process.execPath, ['node_modules/@playwright/test/cli.js', 'test', '--list', `--workers=${workers}`], { cwd: root, encoding: 'utf8', env: without(process.env, 'CONFORMANCE_SHARE_WORKERS', 'CONFORMANCE_WORKERS_DECISION') });
    assert.equal(r.status, 0, r.stderr);
    const lines = r.stdout.split('\n').filter((l) => l.startsWith('  '));
    return { lines, total: /Total: (\d+) tests in (\d+) files/.exec(r.stdout)?.slice(1) };
  };
  const pool = list(1);
  const shared = list(20);
  assert.ok(shared.lines.every((l) => /^ {2}\[share [1-4] of 4\] › /.test(l)), shared.lines.find((l) => !/^ {2}\[share/.test(l)));
  assert.deepEqual(shared.total, pool.total);
  assert.deepEqual(shared.lines.map((l) => l.replace(/^ {2}\[share \d of 4\] › /, '  ')).sort(), pool.lines.sort());
});
