/** reports/conformance.json: the verdict per rule of one run against one target. */
export interface ConformanceReport {
  /** @TJS-type integer */
  schemaVersion: 1;
  /** `dataStandard`: the data standard the target was judged by (its resources, keys, widths and lengths; decision 44). */
  target: { name: string; dataApiBaseUrl: string; dataStandard?: string };
  suiteVersion: string;
  /** sha256 of the rule catalog and the interface descriptions (of the judged standard) the run was judged against. */
  specHash: string;
  /** @format date-time */
  timestamp: string;
  summary: Summary;
  rules: RuleResult[];
  /** The target's known-deviations file as applied in this run. */
  deviations: {
    /** Entries that matched at least one test. */
    applied: DeviationEntry[];
    /** Entries past their expiry date: they no longer apply. */
    expired: DeviationEntry[];
    /** Unexpired entries that matched no test of the run. */
    unmatched: DeviationEntry[];
  };
  /** Against an earlier report of the target (CONFORMANCE_BASELINE), when one was given. */
  comparison?: Comparison;
  /**
   * Reserved organization ids the deployment already held (this run's set-up; a merge of shards
   * does not carry them): never written over, so the tests reading their data were not applicable.
   */
  heldIds?: HeldId[];
}

/** A reserved id the deployment already held, and what held it. */
export interface HeldId {
  /** The target file's field naming the id (`rostering.organizations.lea1`). */
  field: string;
  /** The routing flow whose own data API holds it; absent: the target's data API. */
  flow?: string;
  /** What holds it, as the console said (`is already the deployment's school "…"`). */
  heldBy: string;
}

/** A run against its baseline (reporter/baseline.ts): rule ids by how their verdict moved. */
export interface Comparison {
  baseline: { file: string; target: string; timestamp: string; verdict: string };
  /** Passed in the baseline, fail now. */
  regressed: string[];
  /** Did not pass in the baseline, pass now. */
  newlyPassing: string[];
  /** Passed in the baseline, untested or not applicable now. */
  noLongerJudged: string[];
}

export interface DeviationEntry {
  test?: string;
  rule?: string;
  reason: string;
  expires: string;
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
  byFamily: { [family: string]: Counts };
  /** unfinished: tests interrupted by the run, or selected and never started; their rules cannot pass from them. */
  tests: { passed: number; failed: number; skipped: number; unfinished?: number };
  /** Why the run stopped before its tests, when it did (a failed setup, or `preflight failed: <target field>: …`); the HTML report shows it as "not run: …". */
  aborted?: string;
  /** On a merge of sharded runs: the shards (1-based) no blob report came from. Their tests were never listed, so the verdict is at best incomplete. */
  missingShards?: number[];
}

export interface RuleResult {
  id: string;
  level: 'MUST' | 'SHOULD';
  service: 'data-api' | 'rostering';
  family: string;
  statement: string;
  source: { document: string; section: string };
  /** The rule in the specification that ships with the project, relative to its root: `spec/specification/data.etag.md#<id>`. */
  specification: string;
  verdict: Verdict;
  tests: TestResult[];
  /** Why the rule cannot be observed over HTTP (catalog), when so. */
  untestable?: string;
  /** Why the rule cannot apply to the data standard judged (what it is about is not in it), when so: not applicable, and no bar to a complete verdict. */
  notInStandard?: string;
  /** What a test must bring about before the rule can pass (catalog), when the rule asks for evidence. */
  evidence?: string;
}

/** What one test says about one rule. */
export interface TestResult {
  /** `file › describe › title` */
  title: string;
  file: string;
  /** @TJS-type integer */
  line: number;
  /** How the test ended as a whole (a SHOULD check failing fails the test, not a MUST rule). */
  outcome: 'passed' | 'failed' | 'timedOut' | 'skipped' | 'interrupted';
  /** primary: the rule the test exists for (every assertion outside a check is its); checked: a rule the test checks in check steps. */
  role: 'primary' | 'checked';
  /** What the test says about this rule (unfinished: the run stopped before the test finished; the rule stays untested unless another test fails it). */
  verdict: 'pass' | 'fail' | 'not-applicable' | 'known-deviation' | 'unfinished';
  /** Why the verdict is not a plain pass or fail (not applicable, not exercised, not finished, not run). */
  reason?: string;
  /** The test's checks of this rule, in order. */
  checks?: CheckResult[];
  /** Why a skipped test does not apply. */
  notApplicable?: string;
  /** The target-file declarations the test relied on or lacked (`capabilities.snapshotAdmin`; `a or b` where either does). */
  needs?: string[];
  /** The declaration whose absence made the test not applicable. */
  lacking?: string;
  /** The test is not applicable because the judged data standard lacks what it is about. */
  notInStandard?: boolean;
  /** First lines of the failure (when this test fails this rule). */
  error?: string;
  /** The deviation entry the failure falls under. */
  knownDeviation?: DeviationEntry;
  /** For failures: the last HTTP exchanges of the test, credentials redacted. */
  evidence?: Exchange[];
  /** For failures: commands that replay those requests (tokens replaced by $TOKEN). */
  reproduce?: string[];
}

/** One rule-scoped assertion step of a test. */
export interface CheckResult {
  title: string;
  outcome: 'pass' | 'fail' | 'not-applicable';
  /** A failed MUST check ends its test. */
  stopped?: boolean;
  /** The failure's first lines, or why the check did not apply. */
  detail?: string;
}

export interface Exchange {
  method: string;
  url: string;
  requestHeaders: { [name: string]: string };
  requestBody?: string;
  /** @TJS-type integer */
  status: number;
  responseHeaders: { [name: string]: string };
  responseBody?: string;
}
