/**
 * Sharded runs (issue #24 point 2): each shard's number travels in the run's metadata, so the
 * merge of their blob reports knows which shard sent none (its tests are then not even listed).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { missingShards, shardMetadata, shardOf } from '../reporter/run-metadata.js';

test('a run\'s shard is read from --shard=x/y or --shard x/y, and nothing else', () => {
  assert.deepEqual(shardOf(['test', '--shard=2/3']), { current: 2, total: 3 });
  assert.deepEqual(shardOf(['test', '--shard', '1/4', '--workers=2']), { current: 1, total: 4 });
  for (const argv of [['test'], ['test', '--shard'], ['test', '--shard=2'], ['test', '--shard=a/b']]) assert.equal(shardOf(argv), undefined, argv.join(' '));
});

test('a merged config names the shards that reported; the missing are the others up to the total', () => {
  // As Playwright merges blob reports' configs: every key of every shard's metadata, the last value winning.
  const merged = (...shards: [number, number][]) => Object.assign({ conformance: {} }, ...shards.map(([current, total]) => shardMetadata({ current, total })));
  assert.deepEqual(missingShards(merged([1, 3], [3, 3])), { total: 3, missing: [2] });
  assert.deepEqual(missingShards(merged([1, 2], [2, 2])), { total: 2, missing: [] });
  assert.equal(missingShards(merged()), undefined, 'an unsharded run names no shard');
  assert.deepEqual(shardMetadata(undefined), {});
});
