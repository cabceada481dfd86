import assert from 'node:assert/strict';
import { test } from 'node:test';
import { lineMap } from './line-map.js';

test('lineMap: unchanged text maps each line to itself; moved lines follow; changed lines map to nothing', () => {
  const same = lineMap('a\nb\nc', 'a\nb\nc');
  assert.deepEqual([1, 2, 3].map(same), [1, 2, 3]);
  // Two lines inserted after a, line c changed.
  const moved = lineMap('a\nb\nc\nd', 'a\nx\ny\nb\nC\nd');
  assert.deepEqual([1, 2, 3, 4].map(moved), [1, 4, undefined, 6]);
  // A line removed.
  assert.deepEqual([1, 2, 3].map(lineMap('a\nb\nc', 'a\nc')), [1, undefined, 2]);
});
