import { test } from '@playwright/test';

/** Tests per group: a quarter of the binding cost below, and at most a few seconds per group at 40 ms. */
export const GROUP_SIZE = 4;

/**
 * Defines the tests of each item (usually one test per resource of the model) in anonymous
 * groups of GROUP_SIZE items, each group run in order by one worker, the groups in parallel.
 *
 * Why: for every group it runs, Playwright's worker binds the test's whole file anew, cloning
 * every test of the file and hashing each one's id (bindFileSuiteToProject). With fullyParallel
 * each test is a group of its own, so a file of n tests costs n² clones and hashes: 7.7 % of a
 * worker's CPU in a whole 4.0 run, where validation/required.spec.ts alone has 503 tests. In
 * groups of four that is a quarter.
 *
 * Nothing else changes: an anonymous describe adds nothing to a test's title (its id, its
 * report, a known deviation naming it), every test is still its own test with its own
 * fixtures, and in the default mode a failed test does not skip the rest of its group (the
 * group goes on in a new worker, as any test after a failure does).
 */
export function inGroups<T>(items: readonly T[], define: (item: T) => void): void {
  for (let i = 0; i < items.length; i += GROUP_SIZE) {
    test.describe(() => {
      test.describe.configure({ mode: 'default' });
      for (const item of items.slice(i, i + GROUP_SIZE)) define(item);
    });
  }
}
