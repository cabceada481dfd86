import assert from 'node:assert/strict';
import { test } from 'node:test';
import { boundedCopy } from './bounded-copy.js';

/** A refused body read for its errors in bounded work (issue 23 finding 2). */

test('within the budget the copy is the document', () => {
  const doc = { a: [1, 2, { b: [3] }], c: 'x', d: null };
  assert.deepEqual(boundedCopy(doc, 100), { copy: doc, cut: false });
  assert.notEqual(boundedCopy(doc, 100).copy, doc, 'a copy');
});

test('past the budget every array keeps its first item, so paths hold and no required array is emptied', () => {
  const doc = { early: Array.from({ length: 10 }, (_, i) => i), late: [{ x: [7, 8] }, { x: [9] }], name: 'n' };
  const { copy, cut } = boundedCopy(doc, 5);
  assert.equal(cut, true);
  assert.deepEqual(copy, { early: [0, 1, 2], late: [{ x: [7] }], name: 'n' });
});

test('the copy of 1.4 million items holds about the budget, and a member named __proto__ is data', () => {
  const { copy } = boundedCopy({ items: Array.from({ length: 1_400_000 }, () => ({})) }, 2000) as { copy: { items: unknown[] } };
  assert.ok(copy.items.length <= 2000 && copy.items.length >= 1990, String(copy.items.length));
  const proto = boundedCopy(JSON.parse('{"__proto__": {"polluted": true}}'), 10).copy as Record<string, unknown>;
  assert.equal(Object.getPrototypeOf(proto), Object.prototype);
  assert.deepEqual(Object.getOwnPropertyDescriptor(proto, '__proto__')!.value, { polluted: true });
});
