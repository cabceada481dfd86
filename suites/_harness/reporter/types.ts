/** reports/conformance.json: the verdict per rule of one run against one target. */
export interface ConformanceReport {
  /** @TJS-type integer */
  schemaVersion: 1;
  target: { name: string; dataApiBaseUrl: string };
  suiteVersion: string;
  /** sha256 of the rule catalog and the interface descriptions the run was judged against. */
  specHash: string;
  /** @format date-time */
  timestamp: string;
  summary: Summary;
  rules: RuleResult[];
}

export type Verdict = 'pass' | 'fail' | 'not-applicable' | 'known-deviation' | 'untested';

export interface Counts {
  pass: number;
  fail: number;
  'not-applicable': number;
  'known-deviation': number;
  untested: number;
}

export interface Summary {
  /** conformant: every MUST rule passes; not-conformant: a MUST rule fails; incomplete: otherwise. */
  verdict: 'conformant' | 'not-conformant' | 'incomplete';
  byLevel: { MUST: Counts; SHOULD: Counts };
  byFamily: Record<string, Counts>;
  tests: { passed: number; failed: number; skipped: number };
}

export interface RuleResult {
  id: string;
  level: 'MUST' | 'SHOULD';
  service: 'data-api' | 'rostering';
  family: string;
  statement: string;
  source: { document: string; section: string };
  verdict: Verdict;
  tests: TestResult[];
}

export interface TestResult {
  /** `file › describe › title` */
  title: string;
  file: string;
  /** @TJS-type integer */
  line: number;
  outcome: 'passed' | 'failed' | 'timedOut' | 'skipped' | 'interrupted';
  /** Why a skipped test does not apply. */
  notApplicable?: string;
  /** First lines of the failure. */
  error?: string;
}
