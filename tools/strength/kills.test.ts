/**
 * The killed-run acceptance's plan (kills.ts): the same seed draws the same points, the five
 * kills cover set-up, mid-suite (SIGKILL and SIGINT) and teardown, and each fires where it says.
 */
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import { test } from 'node:test';
import { drawer, phaseOf, plan } from './kills.js';
import type { ProxiedRequest, ProxiedResponse } from './proxy.js';

const fakeChild = () => Object.assign(new EventEmitter(), { stdout: new PassThrough(), exitCode: null, pid: 1 }) as unknown as ChildProcess;
const req = (method: string, url: string) => ({ method, url }) as ProxiedRequest;

test('a seed draws the same kill points, and another seed others; the five kills cover every phase and both signals', () => {
  const a = plan(drawer(7)).map((k) => k.describe);
  assert.deepEqual(plan(drawer(7)).map((k) => k.describe), a);
  assert.notDeepEqual(plan(drawer(8)).map((k) => k.describe), a);
  const kills = plan(drawer(7));
  assert.deepEqual(kills.map((k) => k.phase), ['set-up', 'mid-suite', 'mid-suite', 'mid-suite', 'teardown']);
  assert.deepEqual([...new Set(kills.map((k) => k.signal))].sort(), ['SIGINT', 'SIGKILL']);
});

test('the phase a run was in is read from what it printed', () => {
  assert.equal(phaseOf('Running 3296 tests using 2 workers\n'), 'set-up');
  assert.equal(phaseOf('set-up: 3.1 s (preflight 0.9 s)\n  ✓ 1 a test\n'), 'mid-suite');
  assert.equal(phaseOf('set-up: 3.1 s\n…\nteardown: deleting the rostering data\n'), 'teardown');
});

test('the set-up kill fires as the deployment makes its n-th record (201 to a POST), before the answer goes back; token requests and refusals not counted', () => {
  const kill = plan(drawer(7))[0];
  const n = Number(/record no\. (\d+)/.exec(kill.describe)![1]);
  let fired = 0;
  const watch = kill.arm(fakeChild(), () => { fired++; });
  const made = (url: string, status = 201) => watch.answer!(req('POST', url), { status } as ProxiedResponse);
  for (let i = 0; i < 50; i++) made('/v7.3/api/oauth/token', 200);
  for (let i = 0; i < 50; i++) made('/v7.3/api/data/v3/ed-fi/schools', 400);
  for (let i = 1; i < n; i++) made('/v7.3/api/data/v3/ed-fi/schools');
  assert.equal(fired, 0);
  made('/v7.3/api/data/v3/ed-fi/schools');
  assert.equal(fired, 1);
});

test('the mid-suite record kill counts only records made after the set-up ended', () => {
  const kill = plan(drawer(7))[1];
  assert.equal(kill.phase, 'mid-suite');
  const n = Number(/record no\. (\d+)/.exec(kill.describe)![1]);
  const child = fakeChild();
  let fired = 0;
  const watch = kill.arm(child, () => { fired++; });
  const made = () => watch.answer!(req('POST', '/v7.3/api/data/v3/ed-fi/schools'), { status: 201 } as ProxiedResponse);
  for (let i = 0; i < 500; i++) made();
  assert.equal(fired, 0, 'the set-up\'s records do not count');
  child.stdout!.emit('data', Buffer.from('set-up: 3.0 s (preflight 1.0 s)\n'));
  for (let i = 0; i < n; i++) made();
  assert.equal(fired, 1);
});

test('the teardown kill counts DELETEs only once the teardown said it began', () => {
  const kill = plan(drawer(7))[4];
  const k = Number(/DELETE no\. (\d+)/.exec(kill.describe)![1]);
  const child = fakeChild();
  let fired = 0;
  const watch = kill.arm(child, () => { fired++; });
  for (let i = 0; i < 100; i++) watch.request!(req('DELETE', '/v7.3/api/data/v3/ed-fi/schools/x'));
  assert.equal(fired, 0, 'the tests\' own DELETEs do not count');
  child.stdout!.emit('data', Buffer.from('teardown: deleting the rostering data\n'));
  for (let i = 0; i < k; i++) watch.request!(req('DELETE', '/v7.3/api/data/v3/ed-fi/schools/x'));
  assert.equal(fired, 1);
});
