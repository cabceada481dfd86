import { test, type TestDetails, type TestInfo } from '@playwright/test';
import { expect } from './expect.js';
import { catalog } from './catalog.js';
import { CHECK_ANNOTATION, EVIDENCE_ANNOTATION, EXERCISES_ANNOTATION, formatCheck, formatEvidence, type CheckRecord } from './check-record.js';

/**
 * Tags a test with the rules it concerns: `test(title, rule('data.etag.if-none-match-match-304'), body)`.
 * The first id is the rule the test exists for (its *primary* rule): its level is the test's level
 * tag (`@must` or `@should`), and every assertion of the test outside a `check()` belongs to it.
 * The others are rules the test exercises: they get a verdict from this test only through its
 * `check()` steps (decision 34). Every id is a tag of its own and so is its family, so
 * `--grep @<rule-id>` runs one rule and `--grep @data.etag` one family. An unknown id throws while
 * the suite loads, so a test can never cite a rule that is not in the catalog.
 */
export function rule(primary: string, ...exercised: string[]): TestDetails {
  const ids = [primary, ...exercised];
  const tags = new Set<string>();
  let level = '';
  for (const id of ids) {
    const r = catalog.get(id);
    if (!r) throw new Error(`rule(): unknown rule id '${id}' (not in spec/rules/*.rules.json)`);
    if (id === primary) {
      level = r.level;
      tags.add(`@${r.level.toLowerCase()}`);
    }
    tags.add(`@${id.split('.').slice(0, 2).join('.')}`);
    tags.add(`@${id}`);
  }
  if (new Set(ids).size !== ids.length) throw new Error(`rule(): '${primary}' names a rule twice`);
  return {
    tag: [...tags],
    // The level rides along as an annotation too: JUnit carries annotations as properties, so CI
    // dashboards can tell a MUST failure from a SHOULD one.
    annotation: [
      { type: 'level', description: level },
      { type: 'rule', description: primary },
      ...exercised.map((id) => ({ type: EXERCISES_ANNOTATION, description: id })),
    ],
  };
}

let inCheck = false;

/**
 * One assertion, or a few that together check one statement, owned by one rule (decision 34):
 * its failure fails that rule and no other. A failed MUST check ends the test (what follows may
 * depend on it); a failed SHOULD check is recorded and the test goes on, so a wording or shape
 * difference never hides the MUST checks after it. The rule must be one the test declares with
 * `rule(…)`. Returns the body's value, or undefined when a SHOULD check failed.
 *
 * Inside a check use `expect`, not `expect.soft`: the check is already soft where it should be.
 */
export async function check<T>(ruleId: string, title: string, body: () => T | Promise<T>): Promise<T | undefined> {
  const info = test.info();
  const level = declaredLevel(info, ruleId, title);
  if (inCheck) throw new Error(`check(): '${title}' is inside another check; checks do not nest`);
  const errorsBefore = info.errors.length;
  inCheck = true;
  let failure: unknown;
  let value: T | undefined;
  try {
    // Run as it is, not as a step: a step captures a stack trace and sends the runner two
    // messages, about 4 % of a worker's CPU for the many checks that pass. A failed check alone
    // is a step of Playwright's report, so its tree still names the rule and title that failed.
    value = await body();
  } catch (err) {
    failure = err;
  } finally {
    inCheck = false;
  }
  if (failure !== undefined) await test.step(`${ruleId} — ${title}`, () => { throw failure; }, { box: true }).catch(() => undefined);
  if (info.errors.length !== errorsBefore) {
    // Soft errors would be counted as failures outside any check: say so rather than misattribute.
    throw new Error(`check(): '${title}' used expect.soft; inside a check use expect`);
  }
  if (failure === undefined) {
    record(info, { rule: ruleId, title, outcome: 'pass' });
    return value;
  }
  const detail = firstLines(failure);
  if (level === 'MUST') {
    record(info, { rule: ruleId, title, outcome: 'fail', stopped: true, detail });
    throw failure;
  }
  record(info, { rule: ruleId, title, outcome: 'fail', detail });
  // One error for the failed check (the reporter counts them), and the test goes on.
  expect.soft(() => { throw failure; }, `${ruleId} — ${title}`).not.toThrow();
  return undefined;
}

/**
 * Whether the running test declares `ruleId` (as its primary rule or one it exercises) and is not
 * inside a check step: a shared helper then checks that rule's part with `check()` and leaves it
 * alone in tests about other rules (decision 34).
 */
export function declares(ruleId: string): boolean {
  if (inCheck) return false;
  return test.info().annotations.some((a) => (a.type === 'rule' || a.type === EXERCISES_ANNOTATION) && a.description === ruleId);
}

/**
 * A part of a test that could not be exercised on this target: the rule gets "not applicable"
 * with the reason from this test, never a pass.
 */
export function checkNotApplicable(ruleId: string, title: string, reason: string): void {
  const info = test.info();
  declaredLevel(info, ruleId, title);
  record(info, { rule: ruleId, title, outcome: 'not-applicable', detail: reason });
}

/**
 * Says that the test really brought about the condition of a rule whose catalog entry requires
 * evidence (an expired token presented, say). Without it, a passing test leaves such a rule not
 * applicable (decision 39).
 */
export function exercised(ruleId: string, what: string): void {
  const info = test.info();
  declaredLevel(info, ruleId, what);
  info.annotations.push({ type: EVIDENCE_ANNOTATION, description: formatEvidence(ruleId, what) });
}

function declaredLevel(info: TestInfo, ruleId: string, title: string): 'MUST' | 'SHOULD' {
  const r = catalog.get(ruleId);
  if (!r) throw new Error(`check(): unknown rule id '${ruleId}'`);
  if (/[\r\n]/.test(title)) throw new Error(`check(): a title is one line ('${title.slice(0, 40)}…')`);
  const declared = info.annotations.some((a) => (a.type === 'rule' || a.type === EXERCISES_ANNOTATION) && a.description === ruleId);
  if (!declared) throw new Error(`check(): '${ruleId}' is not declared by this test's rule(…); add it there`);
  return r.level;
}

function record(info: TestInfo, c: CheckRecord): void {
  info.annotations.push({ type: CHECK_ANNOTATION, description: formatCheck(c) });
}

const firstLines = (err: unknown) => (err instanceof Error ? err.message : String(err))
  .replace(/\u001b\[[0-9;]*m/g, '').split('\n').slice(0, 8).join('\n').slice(0, 1500);
