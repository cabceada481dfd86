import { readFileSync } from 'node:fs';
import type { Comparison, ConformanceReport, Verdict } from './types.js';

/**
 * A regression gate for vendors not yet conformant (issue #24 point 6): a run compared with an
 * earlier report of the same target (CONFORMANCE_BASELINE=<conformance.json>) lists the rules that
 * regressed (passed before, fail now), those newly passing, and those no longer judged (passed
 * before, untested or not applicable now: not a failure, but nothing this run proves).
 * CONFORMANCE_GATE=regressions then makes the exit code say only whether anything regressed.
 */
export const BASELINE_ENV = 'CONFORMANCE_BASELINE';
export const GATE_ENV = 'CONFORMANCE_GATE';

/** A baseline file that cannot serve: one line naming the file and why. */
export class BaselineError extends Error {}

type Baseline = Pick<ConformanceReport, 'timestamp' | 'target' | 'rules'> & { summary: Pick<ConformanceReport['summary'], 'verdict'> };

export function loadBaseline(file: string): Baseline {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new BaselineError(`${BASELINE_ENV}: ${file} cannot be read as JSON (${String((err as Error).message).split('\n')[0]})`);
  }
  const b = parsed as Partial<Baseline> | null;
  const rulesOk = Array.isArray(b?.rules) && b.rules.every((r) => typeof r?.id === 'string' && typeof r?.verdict === 'string');
  if (!b || !rulesOk || typeof b.summary?.verdict !== 'string' || typeof b.target?.name !== 'string') {
    throw new BaselineError(`${BASELINE_ENV}: ${file} is not a conformance report (reports/conformance.json of an earlier run)`);
  }
  return b as Baseline;
}

export function compareWithBaseline(report: Pick<ConformanceReport, 'rules'>, baseline: Baseline, file: string): Comparison {
  const before = new Map<string, Verdict>(baseline.rules.map((r) => [r.id, r.verdict]));
  const regressed: string[] = [];
  const newlyPassing: string[] = [];
  const noLongerJudged: string[] = [];
  for (const r of report.rules) {
    const was = before.get(r.id);
    if (was === 'pass' && r.verdict === 'fail') regressed.push(r.id);
    else if (was === 'pass' && (r.verdict === 'untested' || r.verdict === 'not-applicable')) noLongerJudged.push(r.id);
    else if (was !== undefined && was !== 'pass' && r.verdict === 'pass') newlyPassing.push(r.id);
  }
  return {
    baseline: { file, target: baseline.target.name, timestamp: baseline.timestamp, verdict: baseline.summary.verdict },
    regressed, newlyPassing, noLongerJudged,
  };
}

/** Console lines for a comparison: counts, then each regressed rule by id. */
export function comparisonLines(c: Comparison, targetName: string): string[] {
  const lines = [`conformance: against ${c.baseline.file} (${c.baseline.verdict}, ${c.baseline.timestamp}): ${c.regressed.length} regressed, ${c.newlyPassing.length} newly passing, ${c.noLongerJudged.length} passing before and not judged now`];
  if (c.baseline.target !== targetName) lines.push(`conformance: the baseline is of target ${c.baseline.target}, this run of ${targetName}`);
  for (const id of c.regressed) lines.push(`  regressed: ${id}`);
  return lines;
}

/**
 * The exit status under CONFORMANCE_GATE=regressions: failed when a rule regressed, or when the
 * run itself proves nothing (aborted before its tests), passed otherwise, whatever the verdict.
 */
export function gateStatus(c: Comparison | undefined, aborted: boolean): 'passed' | 'failed' {
  if (!c || aborted) return 'failed';
  return c.regressed.length ? 'failed' : 'passed';
}
