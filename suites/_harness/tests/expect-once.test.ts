/** expectToBe: Playwright's toBe, asked only when the values differ (expect-once.ts). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { expectToBe } from '../expect-once.js';

test('equal values pass without building the message; NaN is NaN, as for toBe', () => {
  let built = 0;
  expectToBe(201, 201, () => `${++built}`);
  expectToBe(Number.NaN, Number.NaN, () => `${++built}`);
  assert.equal(built, 0);
});

test("different values fail as toBe fails, with the message; -0 is not 0, as for toBe", () => {
  assert.throws(() => expectToBe(400, 201, () => 'status of /x'), (e: Error) => /status of \/x/.test(e.message) && /Expected: 201/.test(e.message) && /Received: 400/.test(e.message));
  assert.throws(() => expectToBe<unknown>('1', 1), /Expected: 1/);
  assert.throws(() => expectToBe(-0, 0), /toBe/);
});
