/**
 * The verdict per rule (decisions 34 and 39): a failed check fails its own rule only, a failure
 * outside the checks fails the primary rule, a rule asking for evidence never passes without it.
 * First on the reporter's logic alone, then on real Playwright runs of check-demo/checks.demo.ts.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { formatCheck, formatEvidence, type CheckRecord } from '../check-record.js';
import { renderJunit } from '../reporter/junit.js';
import type { ConformanceReport } from '../reporter/types.js';
import { contributions, ruleVerdict, type TestFacts } from '../reporter/verdict.js';

const MUST = 'data.delete.unknown-id-404';
const SHOULD = 'data.errors.detail-wording';
const EXPIRED = 'data.authentication.expired-token-401';
const evidence = new Map([[EXPIRED, 'an expired token presented and refused']]);
const noDeviation = () => false;

const facts = (outcome: TestFacts['outcome'], primary: string, exercised: string[], checks: CheckRecord[], errorCount: number, more: TestFacts['annotations'] = []): TestFacts => ({
  outcome, errorCount,
  annotations: [
    { type: 'rule', description: primary }, ...exercised.map((description) => ({ type: 'exercises', description })),
    ...checks.map((c) => ({ type: 'check', description: formatCheck(c) })), ...more,
  ],
});
const verdicts = (f: TestFacts) => Object.fromEntries(contributions(f, evidence, noDeviation).map((c) => [c.rule, c.verdict]));

test('a failed SHOULD check fails the SHOULD rule and leaves the MUST primary passing', () => {
  const f = facts('failed', MUST, [SHOULD], [{ rule: SHOULD, title: 'wording', outcome: 'fail', detail: 'x' }], 1);
  assert.deepEqual(verdicts(f), { [MUST]: 'pass', [SHOULD]: 'fail' });
});

test('an error beyond the failed checks fails the primary rule', () => {
  const f = facts('failed', MUST, [SHOULD], [{ rule: SHOULD, title: 'wording', outcome: 'fail' }], 2);
  assert.deepEqual(verdicts(f), { [MUST]: 'fail', [SHOULD]: 'fail' });
  assert.deepEqual(verdicts(facts('timedOut', MUST, [SHOULD], [{ rule: SHOULD, title: 'w', outcome: 'pass' }], 1)), { [MUST]: 'fail', [SHOULD]: 'pass' });
});

test('a test stopped by another rule\'s failed MUST check leaves its primary rule unfinished, not passed', () => {
  const other = 'data.delete.dependent-item-exists-409';
  const f = facts('failed', MUST, [other], [{ rule: other, title: '409', outcome: 'fail', stopped: true }], 1);
  const cs = contributions(f, evidence, noDeviation);
  assert.deepEqual(Object.fromEntries(cs.map((c) => [c.rule, c.verdict])), { [MUST]: 'not-applicable', [other]: 'fail' });
  assert.match(cs[0].reason ?? '', /stopped at the failed check of data\.delete\.dependent-item-exists-409/);
});

test('a rule only exercised, without a check of its own, gets no verdict from the test', () => {
  assert.deepEqual(verdicts(facts('passed', MUST, [SHOULD], [], 0)), { [MUST]: 'pass' });
  assert.equal(ruleVerdict([]), 'untested');
});

test('a rule whose only runnable test did not exercise its condition is not applicable, never pass', () => {
  const without = contributions(facts('passed', EXPIRED, [], [], 0), evidence, noDeviation);
  assert.equal(without[0].verdict, 'not-applicable');
  assert.match(without[0].reason ?? '', /not exercised: an expired token presented and refused/);
  assert.equal(ruleVerdict(without), 'not-applicable');
  const withIt = facts('passed', EXPIRED, [], [], 0, [{ type: 'evidence', description: formatEvidence(EXPIRED, 'refused a token 3 s past exp') }]);
  assert.equal(ruleVerdict(contributions(withIt, evidence, noDeviation)), 'pass');
  // Evidence does not excuse a failure.
  const failed = facts('failed', EXPIRED, [], [], 1, [{ type: 'evidence', description: formatEvidence(EXPIRED, 'sent') }]);
  assert.equal(ruleVerdict(contributions(failed, evidence, noDeviation)), 'fail');
});

test('a skipped test is not applicable to every rule it declares; a failure under a deviation is a known deviation', () => {
  const skipped: TestFacts = { ...facts('skipped', MUST, [SHOULD], [], 0), notApplicable: 'no second client' };
  assert.deepEqual(verdicts(skipped), { [MUST]: 'not-applicable', [SHOULD]: 'not-applicable' });
  const f = facts('failed', MUST, [SHOULD], [{ rule: SHOULD, title: 'w', outcome: 'fail' }], 1);
  const cs = contributions(f, evidence, (rule) => rule === SHOULD);
  assert.deepEqual(Object.fromEntries(cs.map((c) => [c.rule, c.verdict])), { [MUST]: 'pass', [SHOULD]: 'known-deviation' });
});

test('a rule fails when any test fails it, passes when one passes and none fails', () => {
  assert.equal(ruleVerdict([{ verdict: 'pass' }, { verdict: 'fail' }]), 'fail');
  assert.equal(ruleVerdict([{ verdict: 'pass' }, { verdict: 'not-applicable' }]), 'pass');
  assert.equal(ruleVerdict([{ verdict: 'not-applicable' }]), 'not-applicable');
  assert.equal(ruleVerdict([{ verdict: 'known-deviation' }, { verdict: 'pass' }]), 'known-deviation');
});

test('a test the run interrupted neither passes nor fails its primary rule, and the rule cannot pass from its other tests', () => {
  // Playwright ends an interrupted test (Ctrl-C, --max-failures, a global timeout) without an error.
  const cs = contributions(facts('interrupted', MUST, [SHOULD], [{ rule: SHOULD, title: 'wording', outcome: 'pass' }], 0), evidence, noDeviation);
  assert.deepEqual(Object.fromEntries(cs.map((c) => [c.rule, c.verdict])), { [MUST]: 'unfinished', [SHOULD]: 'pass' });
  assert.match(cs[0].reason ?? '', /not finished: the run was interrupted/);
  const notRun = contributions({ ...facts('interrupted', MUST, [], [], 0), notRun: true }, evidence, noDeviation);
  assert.match(notRun[0].reason ?? '', /not run: the run stopped before this test started/);
  // A check it completed and failed still fails its rule.
  assert.deepEqual(verdicts(facts('interrupted', MUST, [SHOULD], [{ rule: SHOULD, title: 'w', outcome: 'fail' }], 1)), { [MUST]: 'unfinished', [SHOULD]: 'fail' });
  assert.equal(ruleVerdict([{ verdict: 'pass' }, { verdict: 'unfinished' }]), 'untested');
  assert.equal(ruleVerdict([{ verdict: 'unfinished' }, { verdict: 'fail' }]), 'fail');
});

test('a real run stopped by --max-failures: the tests it never started leave their rules untested, not failed', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'check-demo-stopped-'));
  await promisify(execFile)(process.execPath, ['node_modules/@playwright/test/cli.js', 'test', '-c', 'suites/_harness/tests/check-demo/playwright.config.ts', '--max-failures=1'], {
    env: { ...process.env, CHECK_DEMO_REPORTS: dir, CONFORMANCE_STRICT: '', FORCE_COLOR: '0' },
  }).catch((err: { code?: number }) => assert.equal(err.code, 1, 'the demo run fails (its first test fails a SHOULD check on purpose)'));
  const report = JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as ConformanceReport;
  const verdict = (id: string) => report.rules.find((r) => r.id === id)!.verdict;
  // The first test ran; the run stopped at its failure (one worker), before the second test.
  assert.deepEqual([verdict('data.delete.existing-record-204'), verdict('data.errors.detail-wording')], ['pass', 'fail']);
  assert.deepEqual([verdict('data.delete.unknown-id-404'), verdict('data.delete.after-dependents-removed-204'), verdict('data.errors.bad-request-type')], ['untested', 'untested', 'untested']);
  assert.equal(report.summary.tests.unfinished, 11);
  assert.equal(report.summary.tests.failed, 1);
  assert.equal(report.summary.byLevel.MUST.fail, 0, 'no MUST rule failed: the verdict is incomplete, not not-conformant');
  assert.equal(report.summary.verdict, 'incomplete');
  assert.match(report.rules.find((r) => r.id === 'data.delete.unknown-id-404')!.tests[0].reason ?? '', /not run/);
});

test('real Playwright runs: checks, evidence and the rules they fail, in the JSON and JUnit reports', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'check-demo-'));
  await promisify(execFile)(process.execPath, ['node_modules/@playwright/test/cli.js', 'test', '-c', 'suites/_harness/tests/check-demo/playwright.config.ts'], {
    env: { ...process.env, CHECK_DEMO_REPORTS: dir, CONFORMANCE_STRICT: '', FORCE_COLOR: '0' },
  }).catch((err: { code?: number }) => assert.equal(err.code, 1, 'the demo run fails (some rules fail on purpose)'));
  const report = JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as ConformanceReport;
  const verdict = (id: string) => report.rules.find((r) => r.id === id)!.verdict;
  const expected: Record<string, string> = {
    // a SHOULD check fails, the MUST assertions around it hold
    'data.delete.existing-record-204': 'pass', 'data.errors.detail-wording': 'fail',
    // a failed MUST check stops the test and fails its rule only
    'data.delete.dependent-item-exists-409': 'fail', 'data.delete.unknown-id-404': 'not-applicable',
    // a failure outside the checks
    'data.delete.after-dependents-removed-204': 'fail', 'data.etag.etag-header-on-writes': 'pass',
    // evidence
    'data.authentication.expired-token-401': 'not-applicable', 'data.limits.token-lifetime': 'pass',
    // a check not applicable
    'data.upsert.new-key-201-location': 'pass', 'data.upsert.location-absolute-url': 'not-applicable',
    // expect.soft in a check, an undeclared rule: the primary fails, the other rule has no verdict
    'data.put.update-by-id-204': 'fail', 'data.put.id-in-body-ignored': 'untested',
    'data.put.key-change-not-supported-400': 'fail', 'data.put.key-change-allowed-when-updatable': 'untested',
    // expectProblem's content-type check belongs to the content-type rule, and only where declared
    'data.errors.bad-request-type': 'pass', 'data.errors.content-type-json-utf8': 'fail', 'data.validation.empty-body-400': 'not-applicable',
    // a failed test of a group (groups.ts) and the test after it in the same group
    'data.etag.if-match-mismatch-put-412': 'fail', 'data.etag.if-match-mismatch-delete-412': 'pass',
  };
  assert.deepEqual(Object.fromEntries(Object.keys(expected).map((id) => [id, verdict(id)])), expected);
  const wording = report.rules.find((r) => r.id === 'data.errors.detail-wording')!.tests[0];
  assert.equal(wording.role, 'checked');
  assert.match(wording.checks?.[0].detail ?? '', /Expected: "upstream words"/);
  const soft = report.rules.find((r) => r.id === 'data.put.update-by-id-204')!.tests[0];
  assert.match(soft.error ?? '', /used expect\.soft; inside a check use expect/);

  // The SHOULD failure let the test go on; the MUST failure stopped it.
  const demoNotes = JSON.stringify(JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8'), (k, v: unknown) => (k === 'snippet' || k === 'message' || k === 'stack' ? undefined : v)));
  assert.match(demoNotes, /went on after the SHOULD check/);
  assert.doesNotMatch(demoNotes, /ran past a failed MUST check/);

  // The JUnit report: one case per rule, the failing check named under its rule.
  const junit = readFileSync(join(dir, 'conformance-junit.xml'), 'utf8');
  assert.match(junit, /<testcase classname="data-api\.errors" name="data\.errors\.detail-wording">.*<failure message="SHOULD rule failed: data\.errors\.detail-wording" type="SHOULD">[^<]*check: the detail is worded as upstream words it/s);
  assert.match(junit, /name="data\.authentication\.expired-token-401">.*?<skipped message="not-applicable: not exercised: a token past its lifetime was presented and refused"\/>/s);
  assert.equal(renderJunit(report), junit);
});
