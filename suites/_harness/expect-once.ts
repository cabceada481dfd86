import { expect } from '@playwright/test';

/**
 * `expect(actual, message).toBe(expected)` with a message built only on failure, for the
 * harness's hottest checks (every created record, every problem answer), whose messages read the
 * answer's text. The suites' expect (expect.ts) already skips Playwright's step for a passing
 * toBe, but its message is built before the call; here a costly message is given as a function.
 */
export function expectToBe<T>(actual: T, expected: T, message?: string | (() => string)): void {
  if (Object.is(actual, expected)) return;
  expect(actual, typeof message === 'function' ? message() : message).toBe(expected);
}
