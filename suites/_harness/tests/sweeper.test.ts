/** The sweeper: a test's records deleted after it, awaited when the worker ends. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sweeperOf } from '../sweeper.js';

/** Deletions answered by hand, in any order. */
function manual() {
  const calls: { urls: string[]; done: () => void; fail: (e: Error) => void }[] = [];
  const remove = (created: { url: string }[]) => new Promise<void>((done, fail) => { calls.push({ urls: created.map((c) => c.url), done, fail }); });
  return { calls, remove };
}
const tick = () => new Promise((r) => setImmediate(r));

test('sweep returns before the deletion ends; swept waits for it', async () => {
  const { calls, remove } = manual();
  const s = sweeperOf();
  s.sweep(remove([{ url: 'a' }, { url: 'b' }]));
  assert.deepEqual(calls.map((c) => c.urls), [['a', 'b']]);
  let ended = false;
  const waiting = s.swept().then(() => { ended = true; });
  await tick();
  assert.equal(ended, false, 'swept ended before its deletion');
  calls[0].done();
  await waiting;
  assert.equal(ended, true);
});

test('swept waits for every deletion, those swept while it waits too', async () => {
  const { calls, remove } = manual();
  const s = sweeperOf();
  s.sweep(remove([{ url: 'a' }]));
  let ended = false;
  const waiting = s.swept().then(() => { ended = true; });
  s.sweep(remove([{ url: 'b' }]));
  calls[0].done();
  await tick();
  await tick();
  assert.equal(ended, false, 'swept ended with b still being deleted');
  calls[1].done();
  await waiting;
});

test('with nothing swept, swept ends at once', async () => {
  await sweeperOf().swept();
});

test('what could not be deleted is thrown by swept, every failure once, after the other deletions ended', async () => {
  const { calls, remove } = manual();
  const s = sweeperOf();
  s.sweep(remove([{ url: 'a' }]));
  s.sweep(remove([{ url: 'b' }]));
  s.sweep(remove([{ url: 'c' }]));
  calls[0].fail(new Error('cleanup could not delete: a → 409'));
  calls[2].fail(new Error('cleanup could not delete: c → 500'));
  let settled = false;
  const waiting = s.swept().finally(() => { settled = true; });
  await tick();
  assert.equal(settled, false, 'swept threw with b still being deleted');
  calls[1].done();
  await assert.rejects(waiting, (e: Error) => e.message === 'cleanup could not delete: a → 409\ncleanup could not delete: c → 500');
  await s.swept(); // thrown once: the next worker teardown does not repeat them
});
