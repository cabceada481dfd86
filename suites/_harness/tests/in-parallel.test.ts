/** inParallel: every item once, never more than the limit at a time, results in order. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { early, inParallel, settleAll } from '../in-parallel.js';

test('maps every item once, at most `limit` at a time, results in the items\' order', async () => {
  let running = 0;
  let most = 0;
  const seen: number[] = [];
  const out = await inParallel([5, 1, 4, 2, 3, 0, 6], 3, async (n, i) => {
    running++;
    most = Math.max(most, running);
    seen.push(i);
    await new Promise((r) => setImmediate(r));
    running--;
    return n * 10;
  });
  assert.deepEqual(out, [50, 10, 40, 20, 30, 0, 60]);
  assert.deepEqual(seen.sort(), [0, 1, 2, 3, 4, 5, 6]);
  assert.equal(most, 3);
});

test('no item, no call; a failure rejects', async () => {
  assert.deepEqual(await inParallel([], 4, async () => { throw new Error('called'); }), []);
  await assert.rejects(inParallel([1, 2], 2, async (n) => { if (n === 2) throw new Error('two'); return n; }), /two/);
});

test('early: a request failing before it is awaited is no unhandled rejection, and awaiting it throws its failure', async () => {
  const unhandled: unknown[] = [];
  const listen = (reason: unknown) => { unhandled.push(reason); };
  process.on('unhandledRejection', listen);
  try {
    const held = early(Promise.reject(new Error('refused')));
    await new Promise((r) => setTimeout(r, 20));
    assert.deepEqual(unhandled, []);
    await assert.rejects(held, /refused/);
    assert.equal(await early(Promise.resolve(7)), 7);
  } finally {
    process.off('unhandledRejection', listen);
  }
});

test('settleAll: results in order; a failure is thrown only once every task has ended, the first in order', async () => {
  assert.deepEqual(await settleAll([Promise.resolve(1), Promise.resolve(2)]), [1, 2]);
  let slowEnded = false;
  const slow = new Promise<number>((r) => setTimeout(() => { slowEnded = true; r(3); }, 30));
  await assert.rejects(settleAll([slow, Promise.reject(new Error('second')), Promise.reject(new Error('third'))]), /second/);
  assert.equal(slowEnded, true);
});
