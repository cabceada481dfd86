/** ranges.ts: printed positions become Stryker's ranges, which count columns from 0. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mutatePatterns, strykerRange } from './ranges.js';

test('a printed start column becomes the one before it; lines and the end stay', () => {
  assert.equal(strykerRange('200:7-200:62'), '200:6-200:62');
  assert.equal(mutatePatterns('reference/c.ts', ['200:7-200:62', '200:34-200:62']), 'reference/c.ts:200:6-200:62,reference/c.ts:200:33-200:62');
});

test('anything but line:column-line:column is refused', () => {
  for (const bad of ['200-201', '200:7', '200:7-200', 'a:1-2:3', '']) assert.throws(() => strykerRange(bad), /line:column-line:column/);
});
