import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { afterEach, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { portBlocks } from '../ports.js';
import { LAUNCH_ENV, READY_LINE, type LaunchedProcess } from './launch-plan.js';

/**
 * The launcher of the embedded deployments (launch.ts), with small HTTP servers standing in for
 * references: ready only once every process answers; a process that dies, or a port already
 * answering, fails the launch; a signal stops every process it started.
 */
const root = fileURLToPath(new URL('../../', import.meta.url));
const ports = portBlocks();

/** A process that answers on `port` after `delayMs`, and exits 0 on SIGTERM (or `code` after `exitAfterMs`). */
function server(name: string, port: number, o: { delayMs?: number; exitAfterMs?: number; code?: number } = {}): LaunchedProcess {
  const script = `setTimeout(() => require('node:http').createServer((q, s) => s.end('ok')).listen(${port}, '127.0.0.1'), ${o.delayMs ?? 0});`
    + (o.exitAfterMs !== undefined ? `setTimeout(() => process.exit(${o.code ?? 3}), ${o.exitAfterMs});` : '')
    + `process.on('SIGTERM', () => process.exit(0));`;
  return { name, argv: [process.execPath, '-e', script], env: {}, readyUrl: `http://127.0.0.1:${port}/` };
}

/** Launchers still running after a test, killed with all they started (a failed test leaves none). */
const groups = new Set<number>();
afterEach(() => {
  for (const pid of groups) try { process.kill(-pid, 'SIGKILL'); } catch { /* gone already */ }
  groups.clear();
});

function launch(plan: LaunchedProcess[]) {
  // In a process group of its own, as Playwright starts it: the group is what afterEach kills.
  const child = spawn(process.execPath, ['--import', 'tsx', 'tools/embedded/launch.ts'], { cwd: root, env: { ...process.env, [LAUNCH_ENV]: JSON.stringify(plan) }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  groups.add(child.pid!);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => { stdout += d.toString(); });
  child.stderr.on('data', (d: Buffer) => { stderr += d.toString(); });
  // Bounded: a launcher that never exits fails the test instead of holding it.
  const exited = new Promise<number | null | 'still running'>((resolve) => {
    const timer = setTimeout(() => resolve('still running'), 15_000);
    child.on('exit', (code) => { clearTimeout(timer); resolve(code); });
  });
  const ready = async () => { while (!stdout.includes(READY_LINE) && child.exitCode === null) await new Promise((r) => setTimeout(r, 20)); return stdout.includes(READY_LINE); };
  return { child, exited, ready, output: () => ({ stdout, stderr }) };
}

const answers = (url: string) => fetch(url).then((r) => r.status === 200, () => false);

test('says it is ready only once every process answers, and a signal stops them all', async () => {
  const base = await ports(2);
  const plan = [server('quick', base), server('slow', base + 1, { delayMs: 600 })];
  const started = Date.now();
  const l = launch(plan);
  assert.equal(await l.ready(), true, JSON.stringify(l.output()));
  assert.ok(Date.now() - started >= 600, 'ready before the slow process answered');
  assert.deepEqual(await Promise.all(plan.map((p) => answers(p.readyUrl))), [true, true]);
  l.child.kill('SIGTERM');
  assert.equal(await l.exited, 0);
  assert.deepEqual(await Promise.all(plan.map((p) => answers(p.readyUrl))), [false, false]);
});

test('a process that exits on its own fails the launch and stops the others', async () => {
  const base = await ports(2);
  const plan = [server('lasting', base), server('dying', base + 1, { delayMs: 5_000, exitAfterMs: 300, code: 7 })];
  const l = launch(plan);
  assert.equal(await l.exited, 1);
  assert.equal(await l.ready(), false);
  assert.match(l.output().stderr, /embedded dying exited \(code 7\); stopping the others/);
  assert.equal(await answers(plan[0].readyUrl), false);
});

test('a command that cannot be started fails the launch and stops the others', async () => {
  const base = await ports(1);
  const plan = [server('lasting', base, { delayMs: 5_000 }), { name: 'missing', argv: ['/nonexistent/node'], env: {}, readyUrl: `http://127.0.0.1:${base}/missing` }];
  const l = launch(plan);
  assert.equal(await l.exited, 1);
  assert.match(l.output().stderr, /embedded missing could not start \(spawn \/nonexistent\/node ENOENT\); stopping the others/);
});

test('a port that already answers is refused before anything starts', async () => {
  const base = await ports(2);
  const squatter: Server = createServer((_, res) => res.end('someone else')).listen(base + 1, '127.0.0.1');
  await new Promise((resolve) => squatter.once('listening', resolve));
  try {
    const plan = [server('first', base), server('second', base + 1)];
    const l = launch(plan);
    assert.equal(await l.exited, 1);
    assert.match(l.output().stderr, new RegExp(`already in use: http://127.0.0.1:${base + 1}/`));
    assert.equal(await answers(plan[0].readyUrl), false, 'a process was started');
  } finally {
    squatter.close();
  }
});
