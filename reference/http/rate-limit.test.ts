import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Buckets } from './rate-limit.js';

/** Token buckets on a clock the test steps: every figure is exact, whatever the machine's speed. */
test('a bucket: burst at once, refilled at the rate, waits in whole seconds, a debt of at most one more burst', () => {
  let now = 0;
  const b = new Buckets({ requestsPerSecond: 0.5, burst: 2 }, () => now);
  assert.equal(b.wait('k'), 0);
  assert.equal(b.counted('k'), false, 'nothing counted yet');
  b.take('k');
  assert.equal(b.counted('k'), true);
  b.take('k');
  assert.equal(b.wait('k'), 2, 'one token at 0.5/s: two seconds');
  now += 1000;
  assert.equal(b.wait('k'), 1);
  now += 1000;
  assert.equal(b.wait('k'), 0);
  for (let i = 0; i < 10; i++) b.take('k');
  assert.equal(b.wait('k'), 6, 'counted down to minus the burst, no further: (1 - -2) / 0.5');
  now += 10_000;
  assert.equal(b.counted('k'), false, 'refilled to the burst');
  assert.equal(b.wait('other'), 0, 'keys are apart');
});

test('give returns what take counted; a clock going back refills nothing', () => {
  let now = 5_000;
  const b = new Buckets({ requestsPerSecond: 1, burst: 1 }, () => now);
  b.take('k');
  assert.equal(b.wait('k'), 1);
  b.give('k');
  assert.equal(b.wait('k'), 0);
  b.give('k');
  assert.equal(b.counted('k'), false, 'never above the burst');
  b.give('unknown');
  assert.equal(b.counted('unknown'), false);
  b.take('k');
  now -= 60_000;
  assert.equal(b.wait('k'), 1, 'an earlier time gives no tokens');
});

test('the number of keys kept is bounded; the oldest is forgotten first', () => {
  const b = new Buckets({ requestsPerSecond: 1, burst: 1 }, () => 0, 2);
  b.take('a');
  b.take('b');
  b.take('c');
  assert.equal(b.counted('a'), false, 'forgotten');
  assert.equal(b.counted('b'), true);
  assert.equal(b.counted('c'), true);
});
