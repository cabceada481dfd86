import assert from 'node:assert/strict';
import { test } from 'node:test';
import { phasesLine, phasesOf, type JsonResults } from './phases.js';

/**
 * The remote certification's phases line (phases.ts) divides the figure: what it reads must be
 * the results' own times, from every nested suite, and its parts must add up to the run.
 */
const at = (s: number) => new Date(Date.UTC(2026, 11, 3, 19, 0, 0) + s * 1000).toISOString();
const results: JsonResults = {
  stats: { startTime: at(0), duration: 80_000 },
  suites: [
    { specs: [{ tests: [{ results: [{ startTime: at(11), duration: 2_000 }] }] }] },
    { suites: [{ specs: [{ tests: [{ results: [{ startTime: at(12), duration: 66_000 }, { startTime: at(40), duration: 500 }] }] }] }] },
    // A skipped test has no time of its own: it neither starts nor ends the tests' phase.
    { specs: [{ tests: [{ results: [{ duration: 0 }] }] }] },
  ],
};

test('the first start, the last end and the slot-seconds come from every result of every nested suite', () => {
  assert.deepEqual(phasesOf(results), { beforeFirst: 11, tests: 67, afterLast: 2, slotSeconds: 68.5 });
});

test('the set-up seconds come from the global set-up\'s log line, and from no other', () => {
  assert.equal(phasesOf(results, 'workers: 16\nset-up: 2.6 s (preflight 0.5 s)\n')?.setUp, 2.6);
  assert.equal(phasesOf(results, 'set-up: 2 s (preflight 0.5 s)')?.setUp, 2);
  assert.equal(phasesOf(results, "teardown: 0.8 s\nreset-up: 3 s")?.setUp, undefined);
});

test('the line gives each phase, the slot-seconds and the workers busy on average', () => {
  assert.equal(phasesLine(phasesOf(results, 'set-up: 2.6 s (x)'), 16),
    'phases: 11.0 s before the first test (the set-up 2.6 s of it); the tests 67.0 s (69 slot-seconds, 1.0 of 16 workers busy on average); 2.0 s after the last');
});

test('the command\'s own start is what its figure adds to Playwright\'s duration', () => {
  assert.equal(phasesOf(results, '', 82_500)?.toPlaywright, 2.5);
  assert.match(phasesLine(phasesOf(results, '', 82_500), 16), /^phases: 2\.5 s to Playwright's start, then 11\.0 s before the first test; /);
});

test('a run without a timed test has no phases', () => {
  assert.equal(phasesOf({ stats: { startTime: at(0), duration: 1_000 }, suites: [] }), undefined);
  assert.equal(phasesOf({ suites: [] }), undefined);
  assert.equal(phasesLine(undefined, 16), 'phases: no test ran, nothing to divide');
});
