/**
 * What one test says about each rule, and a rule's verdict from all of them (decisions 34, 39).
 *
 * A test speaks for its primary rule with every assertion outside a check, and for any declared
 * rule through its `check()` steps. A failed check fails its own rule only; a failure outside the
 * checks (an assertion, a timeout) fails the primary rule. A cleanup that could not delete the
 * test's records is no failure of the test: they are deleted after it (sweeper.ts). A
 * rule whose catalog entry asks for evidence passes only from a test that recorded it. A test the
 * run stopped before it finished (interrupted, or never started) neither passes nor fails its
 * primary rule: the rule is unfinished, so untested, unless another test failed it; the checks it
 * completed still count.
 */
import { CHECK_ANNOTATION, EVIDENCE_ANNOTATION, EXERCISES_ANNOTATION, evidenceRule, parseCheck, type CheckRecord } from '../check-record.js';
import type { Verdict } from './types.js';

/** The annotation of a test not applicable because the judged data standard lacks what it is about (standard-applicability.ts). */
export const NOT_IN_STANDARD = 'not-in-standard';
/** The annotations naming a declaration of the target file a test relied on (the report's `needs`) and the one it lacked (`lacking`): capabilities.ts needs(). */
export const NEEDS_ANNOTATION = 'needs';
export const LACKING_ANNOTATION = 'lacking';

export type Contribution = 'pass' | 'fail' | 'not-applicable' | 'known-deviation' | 'unfinished';

export interface TestFacts {
  outcome: 'passed' | 'failed' | 'timedOut' | 'skipped' | 'interrupted';
  /** Annotations declared on the test and added while it ran. */
  annotations: { type: string; description?: string }[];
  /** How many errors the run recorded for the test. */
  errorCount: number;
  /** Why the test was skipped as not applicable, if it was. */
  notApplicable?: string;
  /** The test was selected but never started (outcome 'interrupted'). */
  notRun?: boolean;
}

export interface RuleContribution {
  rule: string;
  role: 'primary' | 'checked';
  verdict: Contribution;
  /** The checks of this rule in the test. */
  checks: CheckRecord[];
  /** Why the contribution is not a plain pass or fail. */
  reason?: string;
}

/** Rules that pass only with evidence: id → what must have happened. */
export type EvidenceRequirements = ReadonlyMap<string, string>;

export function contributions(t: TestFacts, evidenceRequired: EvidenceRequirements, deviates: (rule: string) => boolean): RuleContribution[] {
  const primary = t.annotations.find((a) => a.type === 'rule')?.description;
  if (!primary) return [];
  const declared = [primary, ...t.annotations.filter((a) => a.type === EXERCISES_ANNOTATION).map((a) => a.description!)];
  const checks = t.annotations.filter((a) => a.type === CHECK_ANNOTATION).map((a) => parseCheck(a.description ?? '')).filter((c): c is CheckRecord => !!c);
  const evidence = new Set(t.annotations.filter((a) => a.type === EVIDENCE_ANNOTATION).map((a) => evidenceRule(a.description ?? '')));
  if (t.outcome === 'skipped') {
    // Not applicable to every rule it declares (a rule whose tests all skip is not applicable).
    return t.notApplicable ? declared.map((rule) => ({ rule, role: rule === primary ? 'primary' : 'checked', verdict: 'not-applicable', checks: [], reason: t.notApplicable })) : [];
  }
  const failedChecks = checks.filter((c) => c.outcome === 'fail').length;
  // Each failed check accounts for exactly one error of the test; any other error (or a timeout)
  // is the primary rule's. An interruption is the run's doing, not the deployment's: Playwright
  // ends the test without an error (Ctrl-C, --max-failures, a global timeout).
  const interrupted = t.outcome === 'interrupted';
  const failedOutside = !interrupted && t.outcome !== 'passed' && (t.outcome !== 'failed' || t.errorCount > failedChecks);
  const stopper = checks.find((c) => c.stopped);
  const out: RuleContribution[] = [];
  for (const rule of declared) {
    const own = checks.filter((c) => c.rule === rule);
    const isPrimary = rule === primary;
    if (!isPrimary && !own.length) continue; // exercised only: no verdict from this test
    let verdict: Contribution;
    let reason: string | undefined;
    if (own.some((c) => c.outcome === 'fail') || (isPrimary && failedOutside)) verdict = 'fail';
    else if (isPrimary && interrupted) {
      verdict = 'unfinished';
      reason = t.notRun ? 'not run: the run stopped before this test started' : 'not finished: the run was interrupted during this test';
    } else if (isPrimary && stopper && stopper.rule !== rule) {
      verdict = 'not-applicable';
      reason = `not finished: the test stopped at the failed check of ${stopper.rule}`;
    } else if (own.length && own.every((c) => c.outcome === 'not-applicable')) {
      verdict = 'not-applicable';
      reason = own.map((c) => c.detail ?? c.title).join('; ');
    } else if (evidenceRequired.has(rule) && !evidence.has(rule)) {
      verdict = 'not-applicable';
      reason = `not exercised: ${evidenceRequired.get(rule)}`;
    } else verdict = 'pass';
    if (verdict === 'fail' && deviates(rule)) verdict = 'known-deviation';
    out.push({ rule, role: isPrimary ? 'primary' : 'checked', verdict, checks: own, ...(reason ? { reason } : {}) });
  }
  return out;
}

/**
 * A rule fails if any test failed it outside a known deviation; is a known deviation if its
 * failures all fall under one; is untested if one of its tests did not finish (its condition may
 * be broken exactly where that test would have looked: a rule about every resource is not proven
 * by the resources that ran); passes if a test passed it; is not applicable if every test said
 * so; otherwise (no test, or none that ran) untested.
 */
export function ruleVerdict(cs: { verdict: Contribution }[]): Verdict {
  if (!cs.length) return 'untested';
  if (cs.some((c) => c.verdict === 'fail')) return 'fail';
  if (cs.some((c) => c.verdict === 'known-deviation')) return 'known-deviation';
  if (cs.some((c) => c.verdict === 'unfinished')) return 'untested';
  if (cs.some((c) => c.verdict === 'pass')) return 'pass';
  return 'not-applicable';
}
