import { expect } from '@playwright/test';

/**
 * `expect(actual, message).toBe(expected)` for the harness's hottest checks (every created
 * record, every problem answer): Playwright makes each expect a step, with a stack trace
 * captured and source-mapped, which cost about a fifth of a worker's CPU in a conformance run.
 * Here the comparison (Object.is, as toBe's) runs first, and expect only when it fails, so a
 * failure reads exactly as before; a message that is costly to build is given as a function.
 */
export function expectToBe<T>(actual: T, expected: T, message?: string | (() => string)): void {
  if (Object.is(actual, expected)) return;
  expect(actual, typeof message === 'function' ? message() : message).toBe(expected);
}
