import { test } from '@playwright/test';

/**
 * Tests per group: a sixteenth of the binding cost below, and a worker runs fewer groups, so it
 * loads fewer of the spec files (each worker loads, compiles and warms up every file it runs a
 * group of). Whole 4.0 run on the embedded reference with 24 workers, alternated on two cores:
 * 4 per group 119–124 CPU-seconds, 8 122–131, 16 107–112 (wall 72–77 s against 80–82 s); with the
 * default three workers 4 per group 45–50, 16 41–48. A group of 16 runs for about five seconds at
 * 40 ms, what the run's last group can add to its end.
 */
export const GROUP_SIZE = 16;

/**
 * Defines the tests of each item (usually one test per resource of the model) in anonymous
 * groups of GROUP_SIZE items, each group run in order by one worker, the groups in parallel.
 *
 * Why: for every group it runs, Playwright's worker binds the test's whole file anew, cloning
 * every test of the file and hashing each one's id (bindFileSuiteToProject). With fullyParallel
 * each test is a group of its own, so a file of n tests costs n² clones and hashes: 7.7 % of a
 * worker's CPU in a whole 4.0 run, where validation/required.spec.ts alone has 503 tests. In
 * groups of GROUP_SIZE that is a GROUP_SIZE-th.
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
