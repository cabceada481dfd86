/**
 * Tests whose outcomes verdict.test.ts knows in advance: each scenario uses rules of its own, so
 * the report's verdict for those rules shows what the reporter made of it. Not a conformance
 * suite (no deployment): only the mechanics of check(), checkNotApplicable() and exercised().
 */
import type { HttpResponse } from '../../http.js';
import { expect, test } from '@playwright/test';
import { check, checkNotApplicable, exercised, rule } from '../../rules.js';
import { expectProblem } from '../../problem.js';
import { inGroups } from '../../groups.js';

test('a SHOULD check fails, the MUST assertions around it hold', rule('data.delete.existing-record-204', 'data.errors.detail-wording'), async () => {
  expect(1).toBe(1);
  await check('data.errors.detail-wording', 'the detail is worded as upstream words it', () => expect('other words').toBe('upstream words'));
  test.info().annotations.push({ type: 'demo', description: 'went on after the SHOULD check' });
  expect(2).toBe(2);
});

test('a failed MUST check stops the test and fails its rule only', rule('data.delete.unknown-id-404', 'data.delete.dependent-item-exists-409'), async () => {
  await check('data.delete.dependent-item-exists-409', 'answers 409', () => expect(200).toBe(409));
  test.info().annotations.push({ type: 'demo', description: 'ran past a failed MUST check' });
});

test('a failure outside the checks fails the primary rule, not the rule checked', rule('data.delete.after-dependents-removed-204', 'data.etag.etag-header-on-writes'), async () => {
  await check('data.etag.etag-header-on-writes', 'an ETag header', () => expect('"1"').toBeTruthy());
  expect(404).toBe(204);
});

test('a rule that asks for evidence does not pass without it', rule('data.authentication.expired-token-401'), async () => {
  expect(401).toBe(401);
});

test('a rule that asks for evidence passes with it', rule('data.limits.token-lifetime'), async () => {
  exercised('data.limits.token-lifetime', 'a token waited out past its lifetime was refused');
  expect(401).toBe(401);
});

test('a check that cannot be exercised is not applicable', rule('data.upsert.new-key-201-location', 'data.upsert.location-absolute-url'), async () => {
  checkNotApplicable('data.upsert.location-absolute-url', 'an absolute Location', 'the target declares no public base URL');
  expect(201).toBe(201);
});

test('expect.soft inside a check is refused, and fails the primary rule', rule('data.put.update-by-id-204', 'data.put.id-in-body-ignored'), async () => {
  await check('data.put.id-in-body-ignored', 'uses a soft assertion', () => { expect.soft(1).toBe(2); });
});

test('a check of a rule the test does not declare is refused', rule('data.put.key-change-not-supported-400'), async () => {
  await check('data.put.key-change-allowed-when-updatable', 'undeclared', () => undefined);
});

/** A bad-request problem served as application/problem+json (not the seed's application/json; charset=utf-8). */
const problemJson = {
  status: () => 400, url: () => 'http://demo.test/academicWeeks', headers: () => ({ 'content-type': 'application/problem+json' }),
  text: async () => JSON.stringify({ type: 'urn:core:api:bad-request', title: 'Bad Request', status: 400, detail: "See 'errors'.", correlationId: 'demo', errors: ['empty body'] }),
} as unknown as HttpResponse;

test('expectProblem leaves the content type to its own rule in a test about another rule', rule('data.errors.bad-request-type'), async () => {
  await expectProblem(problemJson, 'bad-request');
});

test('expectProblem checks the content type as the seed states it when the test declares that rule', rule('data.validation.empty-body-400', 'data.errors.content-type-json-utf8'), async () => {
  await expectProblem(problemJson, 'bad-request');
});

// Groups as the generated suites make them (groups.ts), in a parallel scope as fullyParallel makes
// every file: a test that fails does not take the rest of its group with it (a serial group would
// leave the second rule untested).
test.describe(() => {
  test.describe.configure({ mode: 'parallel' });
  inGroups(['data.etag.if-match-mismatch-put-412', 'data.etag.if-match-mismatch-delete-412'], (id) => {
    test(`in a group of tests, ${id}`, rule(id), () => {
      expect(id, 'the group\'s first test fails').not.toBe('data.etag.if-match-mismatch-put-412');
    });
  });
});
