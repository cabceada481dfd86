/** The suites' expect (expect.ts): Playwright's verdict and message always, Playwright asked only when unsure. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { expect as playwrightExpect } from '@playwright/test';
import { withFastMatchers } from '../expect.js';

/** Playwright's expect, counting the calls that reach it. */
function counted() {
  let calls = 0;
  const base = new Proxy(playwrightExpect, { apply: (t, self, args) => { calls++; return Reflect.apply(t, self, args); } });
  return { expect: withFastMatchers(base), calls: () => calls };
}

/** What a matcher call does: passes, or throws with this message. */
function outcome(run: () => unknown): string {
  try {
    run();
    return 'pass';
  } catch (e) {
    return `fail: ${(e as Error).message}`;
  }
}

const values = fc.oneof(
  fc.constantFrom(0, -0, 1, Number.NaN, Infinity, '', 'a', 'ab', null, undefined, true, false, [], {}, [1, 2], { a: 1 }, { a: undefined }, /a/, /a/g),
  fc.jsonValue({ maxDepth: 2 }),
  fc.string({ maxLength: 4 }),
  fc.array(fc.integer({ min: -2, max: 2 }), { maxLength: 3 }),
);
const MATCHERS = ['toBe', 'toEqual', 'toHaveLength', 'toBeGreaterThan', 'toBeGreaterThanOrEqual', 'toBeLessThan', 'toBeLessThanOrEqual', 'toContain', 'toMatch', 'toBeDefined', 'toBeUndefined', 'toBeNull', 'toBeTruthy', 'toBeFalsy', 'toMatchObject'];
const NOT = ['toBe', 'toEqual', 'toBeUndefined', 'toBeNull', 'toContain'];

test('every matcher, plain and negated, passes or fails exactly as Playwright\'s, with its message', () => {
  const fast = counted().expect;
  fc.assert(fc.property(values, values, fc.constantFrom(...MATCHERS), fc.boolean(), fc.boolean(), (actual, expected, matcher, negated, withExpected) => {
    if (negated && !NOT.includes(matcher)) return;
    const call = (e: typeof playwrightExpect) => () => {
      const m = (negated ? e(actual, 'the message').not : e(actual, 'the message')) as unknown as Record<string, (...a: unknown[]) => unknown>;
      return withExpected ? m[matcher](expected) : m[matcher]();
    };
    assert.equal(outcome(call(fast)), outcome(call(playwrightExpect)), `${negated ? "not." : ""}${matcher}(${fc.stringify(expected)}) on ${fc.stringify(actual)}`);
  }), { numRuns: 3000 });
});

test('values equal but not the same (a copy of an item, of the whole) are judged as Playwright judges them', () => {
  const fast = counted().expect;
  const items = fc.array(fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constantFrom(Number.NaN, -0, undefined)), { minLength: 1, maxLength: 3 });
  fc.assert(fc.property(items, fc.nat(), fc.boolean(), fc.constantFrom(...MATCHERS), fc.boolean(), (actual, at, whole, matcher, negated) => {
    if (negated && !NOT.includes(matcher)) return;
    const expected = structuredClone(whole ? actual : actual[at % actual.length]);
    const call = (e: typeof playwrightExpect) => () => {
      const m = (negated ? e(actual).not : e(actual)) as unknown as Record<string, (...a: unknown[]) => unknown>;
      return m[matcher](expected);
    };
    assert.equal(outcome(call(fast)), outcome(call(playwrightExpect)), `${negated ? 'not.' : ''}${matcher}(${fc.stringify(expected)}) on ${fc.stringify(actual)}`);
  }), { numRuns: 3000 });
});

test('a passing matcher does not reach Playwright; a failing one does, once', () => {
  const { expect, calls } = counted();
  expect(201, 'status').toBe(201);
  expect({ a: [1, { b: 'x' }] }).toEqual({ a: [1, { b: 'x' }] });
  expect([]).toEqual([]);
  expect('urn:core:api:bad-request').toContain('bad-request');
  expect([1, 2, 3]).toHaveLength(3);
  expect(5).toBeGreaterThan(0);
  expect('a').not.toBe('b');
  expect('x2').toMatch(/x\d/);
  assert.equal(calls(), 0);
  assert.throws(() => expect(400, 'status of /x').toBe(201), (e: Error) => /status of \/x/.test(e.message) && /Expected: 201/.test(e.message));
  assert.equal(calls(), 1);
  // What the fast path does not decide is Playwright's: looser equality, other matchers, properties.
  expect({ a: 1, b: undefined }).toEqual({ a: 1 });
  expect({ a: 1, b: 2 }).toMatchObject({ a: 1 });
  assert.equal(calls(), 3);
  assert.equal(typeof expect.soft, 'function');
  assert.equal(expect.any, playwrightExpect.any);
});
