import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import type { FullConfig, FullResult, Reporter, Suite, TestCase, TestError, TestResult as PwResult } from '@playwright/test/reporter';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { specificationLink } from '../../../spec/generate/specification.js';
import { loadCatalog } from '../catalog.js';
import { covers, deviationFor, isExpired } from '../deviations.js';
import { curlOf } from '../evidence.js';
import { renderHtml } from './html.js';
import { renderJunit } from './junit.js';
import { BASELINE_ENV, BaselineError, GATE_ENV, compareWithBaseline, comparisonLines, gateStatus, loadBaseline } from './baseline.js';
import { fromMetadata, missingShards, runMetadata, type RunMetadata } from './run-metadata.js';
import { selectionOf } from '../selection.js';
import { unlockLines } from './unlock.js';
import { heldIds } from './held-ids.js';
import type { ConformanceReport, Counts, Exchange, RuleResult, TestResult } from './types.js';
import { LACKING_ANNOTATION, NEEDS_ANNOTATION, NOT_IN_STANDARD, contributions, ruleVerdict } from './verdict.js';

/** `playwright merge-reports`, which runs this reporter over gathered shards (no TARGET, no selection, its own exit). */
const MERGING = process.argv.includes('merge-reports');

/**
 * Writes reports/conformance.json, conformance.html and conformance-junit.xml: one verdict per
 * catalog rule, from what the tests say about it (verdict.ts: the primary rule's assertions and
 * every rule's checks). Uses only the reporter API, so it works the same on a
 * merged report.
 */
export default class ConformanceReporter implements Reporter {
  private readonly outputDir: string;
  private rootDir = process.cwd();
  private readonly results = new Map<TestCase, PwResult>();
  private tests: TestCase[] = [];
  private run: RunMetadata | undefined;

  constructor(options: { outputDir?: string } = {}) {
    // CONFORMANCE_REPORTS_DIR also reaches a reporter named on the command line (the strength tool's).
    this.outputDir = options.outputDir ?? process.env.CONFORMANCE_REPORTS_DIR ?? 'reports';
  }

  onBegin(config: FullConfig, suite: Suite): void {
    this.rootDir = projectRoot(config.configFile ? dirname(config.configFile) : process.cwd());
    this.tests = suite.allTests();
    // From the config's metadata: on a merge, the shards' target, not this process's TARGET.
    const recorded = fromMetadata(config.metadata);
    if (!recorded) console.log('conformance: the run recorded no target in its metadata; reporting the target named by TARGET');
    this.run = recorded ?? runMetadata();
    this.selection = MERGING ? undefined : selectionOf(process.argv);
    this.shards = MERGING ? missingShards(config.metadata) : undefined;
    const file = process.env[BASELINE_ENV];
    try {
      if (file) this.baseline = { file, report: loadBaseline(file) };
    } catch (err) {
      if (!(err instanceof BaselineError)) throw err;
      this.baselineProblem = err.message;
      console.log(`conformance: ${err.message}`);
    }
  }

  /** On a merge: the shards' total and those missing from it (run-metadata.ts). */
  private shards?: { total: number; missing: number[] };

  /** What the command line selected, when it ran part of the suites (selection.ts). */
  private selection?: string;

  /** The earlier report to compare with (CONFORMANCE_BASELINE), or why it cannot serve. */
  private baseline?: { file: string; report: ReturnType<typeof loadBaseline> };
  private baselineProblem?: string;

  /** Errors outside any test (a failed global setup or preflight): the report says why. */
  private readonly outsideErrors: string[] = [];

  onError(error: TestError): void {
    this.outsideErrors.push(stripAnsi(error.message ?? String(error.value ?? 'error')).replace(/^Error: /, '').split('\n').slice(0, 12).join('\n'));
  }

  onTestEnd(test: TestCase, result: PwResult): void {
    this.results.set(test, result);
  }

  /**
   * Writes the reports, and makes the run's exit code follow the verdict (decisions #31): 0 for
   * conformant, even with SHOULD failures (warnings), 1 otherwise. CONFORMANCE_STRICT=1 (npm
   * test) also fails on any failing test, as a project's own CI must.
   */
  async onEnd(result: FullResult): Promise<{ status: FullResult['status'] } | undefined> {
    const status = this.finish(result);
    // `playwright merge-reports` ignores a reporter's status and calls process.exit(0): a merged
    // sharded run exits by its merged verdict (or gate) all the same, set as the process exits.
    if (MERGING) {
      const code = (status?.status ?? result.status) === 'passed' ? 0 : 1;
      process.once('exit', () => { process.exitCode = code; });
    }
    return status;
  }

  /** Writes the reports and says the run's status (undefined: Playwright's own). */
  private finish(result: FullResult): { status: FullResult['status'] } | undefined {
    const report = buildReport(this.tests, this.results, this.rootDir, this.run ?? runMetadata());
    if (this.outsideErrors.length && !this.results.size) report.summary.aborted = this.outsideErrors.join('\n');
    if (this.shards?.missing.length) {
      // Their tests were never listed, so their rules may read as judged by the other shards'
      // tests alone: no complete verdict without them (a failure elsewhere still fails).
      report.summary.missingShards = this.shards.missing;
      if (report.summary.verdict === 'conformant') report.summary.verdict = 'incomplete';
      console.log(`conformance: shard${this.shards.missing.length === 1 ? '' : 's'} ${this.shards.missing.join(', ')} of ${this.shards.total} sent no blob report (killed, or its upload failed): ${this.shards.missing.length === 1 ? 'its' : 'their'} tests are not in this merge, so the verdict is at best incomplete`);
    } else if (MERGING && this.outsideErrors.length) {
      console.log(`conformance: a shard stopped outside its tests: ${this.outsideErrors[0].split('\n')[0]} (its tests are unfinished, their rules untested)`);
    }
    if (this.baseline) report.comparison = compareWithBaseline(report, this.baseline.report, this.baseline.file);
    const held = heldIds();
    if (held.length) report.heldIds = held;
    assertValid(report, this.rootDir);
    mkdirSync(this.outputDir, { recursive: true });
    writeFileSync(join(this.outputDir, 'conformance.json'), `${JSON.stringify(report, null, 2)}\n`);
    // The page links each rule into spec/specification/, relative to where the page is written.
    writeFileSync(join(this.outputDir, 'conformance.html'), renderHtml(report, relative(resolve(this.outputDir), this.rootDir) || '.'));
    writeFileSync(join(this.outputDir, 'conformance-junit.xml'), renderJunit(report));
    const must = report.summary.byLevel.MUST;
    if (report.summary.aborted) console.log(`conformance: not run: ${report.summary.aborted.split('\n')[0]}`);
    const { unfinished } = report.summary.tests;
    if (unfinished) console.log(`conformance: ${unfinished} test(s) did not finish (the run stopped before them): their rules are untested, not passed`);
    console.log(`conformance: ${report.summary.verdict} — MUST ${must.pass} pass, ${must.fail} fail, ${must['not-applicable']} n/a, ${must.untested} untested → ${join(this.outputDir, 'conformance.html')}`);
    if (report.summary.verdict === 'incomplete' && !this.selection) for (const line of unlockLines(report)) console.log(line);
    if (report.comparison) for (const line of comparisonLines(report.comparison, report.target.name)) console.log(line);
    const gate = process.env[GATE_ENV];
    if (gate) {
      // The exit code says only whether anything regressed (reporter/baseline.ts), not the verdict.
      if (gate !== 'regressions') console.log(`conformance: ${GATE_ENV}=${gate} is no gate this harness knows (regressions)`);
      else if (!report.comparison) console.log(`conformance: ${GATE_ENV}=regressions needs a usable ${BASELINE_ENV}${this.baselineProblem ? '' : ' (none given)'}`);
      const aborted = !!report.summary.aborted || result.status === 'interrupted' || result.status === 'timedout';
      return { status: gate === 'regressions' ? gateStatus(report.comparison, aborted) : 'failed' };
    }
    if (result.status === 'interrupted' || result.status === 'timedout') return undefined;
    if (this.selection && report.summary.verdict !== 'conformant') return this.selectionStatus(report);
    if (report.summary.verdict !== 'conformant') return { status: 'failed' };
    return process.env.CONFORMANCE_STRICT === '1' ? undefined : { status: 'passed' };
  }

  /**
   * A run of part of the suites cannot make the deployment conformant (its other rules are
   * untested), so the verdict stays incomplete; the exit code then says whether every MUST rule
   * the selection judged passed, for a vendor checking one rule (`--grep @<rule>`).
   */
  private selectionStatus(report: ConformanceReport): { status: FullResult['status'] } {
    const judged = report.rules.filter((r) => r.tests.length);
    // As in verdictOf: a rule about what the judged standard lacks neither passes nor holds the selection back.
    const must = judged.filter((r) => r.level === 'MUST' && !r.notInStandard && !r.untestable);
    const passing = must.filter((r) => r.verdict === 'pass').length;
    console.log(`conformance: the selection (${this.selection}) judged ${judged.length} rule(s): MUST ${passing} of ${must.length} pass; the deployment's verdict needs the whole run`);
    const failedTests = report.summary.tests.failed > 0 && process.env.CONFORMANCE_STRICT === '1';
    // SHOULD rules warn, as in a whole run: a selection judging only SHOULD rules exits 0.
    return { status: judged.length && passing === must.length && !report.summary.aborted && !failedTests ? 'passed' : 'failed' };
  }

  printsToStdio(): boolean {
    return false;
  }
}

/** The folder holding package.json at or above `dir` (a merge config may live in suites/). */
function projectRoot(dir: string): string {
  for (let d = dir; ; d = dirname(d)) {
    if (existsSync(join(d, 'package.json'))) return d;
    if (dirname(d) === d) return dir;
  }
}

const emptyCounts = (): Counts => ({ pass: 0, fail: 0, 'not-applicable': 0, 'known-deviation': 0, untested: 0 });

export function buildReport(tests: TestCase[], results: Map<TestCase, PwResult>, rootDir: string, run: RunMetadata): ConformanceReport {
  const catalog = loadCatalog();
  const evidenceRequired = new Map([...catalog.values()].filter((r) => r.evidence).map((r) => [r.id, r.evidence!]));
  const deviations = run.deviations;
  const matched = new Set<object>();
  const byRule = new Map<string, TestResult[]>();
  let passed = 0, failed = 0, skipped = 0, unfinished = 0;
  for (const test of tests) {
    // A selected test without a result never started: the run stopped first (Ctrl-C,
    // --max-failures, a global timeout). Its rules cannot pass from it (verdict.ts).
    const result = results.get(test) ?? notStarted();
    const notRun = !results.has(test);
    const outcome = result.status;
    if (outcome === 'passed') passed++;
    else if (outcome === 'skipped') skipped++;
    else if (outcome === 'interrupted') unfinished++;
    else failed++;
    const annotations = [...test.annotations, ...result.annotations.filter((a) => !test.annotations.includes(a))];
    const na = annotations.find((a) => a.type === 'not-applicable');
    const nis = annotations.some((a) => a.type === NOT_IN_STANDARD);
    const needed = annotations.filter((a) => a.type === NEEDS_ANNOTATION).map((a) => a.description!);
    const lacking = annotations.find((a) => a.type === LACKING_ANNOTATION)?.description;
    // file › describe … › title (the project name, if any, is not part of it)
    const title = [relative(rootDir, test.location.file), ...test.titlePath().slice(3)].filter(Boolean).join(' › ');
    const deviationOf = (rule: string) => deviationFor(deviations, title, rule);
    const facts = { outcome, annotations, errorCount: result.errors.length, ...(na ? { notApplicable: na.description ?? 'not applicable' } : {}), ...(notRun ? { notRun } : {}) };
    // Every error of the test, a few lines each (a failure outside the checks may follow others).
    const error = result.errors.map((e) => stripAnsi(e.message ?? String(e.value ?? 'error')).split('\n').slice(0, 8).join('\n')).join('\n\n') || undefined;
    const exchanges = outcome === 'failed' || outcome === 'timedOut' ? exchangesOf(result) : [];
    const said = contributions(facts, evidenceRequired, (rule) => !!deviationOf(rule));
    // An entry "matches" a test it names or a rule the test speaks for, whether or not it failed.
    for (const d of deviations) if (!isExpired(d) && said.some((c) => covers(d, title, c.rule))) matched.add(d);
    for (const c of said) {
      const failing = c.verdict === 'fail' || c.verdict === 'known-deviation';
      const deviation = c.verdict === 'known-deviation' ? deviationOf(c.rule) : undefined;
      const failedChecks = c.checks.filter((k) => k.outcome === 'fail');
      const entry: TestResult = {
        title, file: relative(rootDir, test.location.file), line: test.location.line, outcome,
        role: c.role, verdict: c.verdict,
        ...(c.reason ? { reason: c.reason } : {}),
        ...(c.checks.length ? { checks: c.checks.map(({ rule: _rule, ...k }) => k) } : {}),
        ...(na ? { notApplicable: na.description ?? 'not applicable' } : {}),
        ...(na && nis ? { notInStandard: true } : {}),
        ...(needed.length ? { needs: needed } : {}),
        ...(na && lacking ? { lacking } : {}),
        // The failure shown is this rule's: its failed checks, else the test's own error.
        ...(failing && (failedChecks.length ? { error: failedChecks.map((k) => `${k.title}: ${k.detail ?? ''}`).join('\n') } : error ? { error } : {})),
        ...(deviation ? { knownDeviation: deviation } : {}),
        ...(failing && exchanges.length ? { evidence: exchanges, reproduce: exchanges.map(curlOf) } : {}),
      };
      (byRule.get(c.rule) ?? byRule.set(c.rule, []).get(c.rule)!).push(entry);
    }
  }

  const rules: RuleResult[] = [...catalog.values()].map((r) => {
    const ts = byRule.get(r.id) ?? [];
    // A rule the catalog declares unobservable over HTTP is not applicable, with its reason.
    const verdict = r.untestable ? 'not-applicable' : ruleVerdict(ts);
    // Not applicable only because the judged standard lacks what the rule is about (decision 44).
    const outsideStandard = verdict === 'not-applicable' && ts.some((t) => t.notInStandard) && ts.every((t) => t.verdict !== 'not-applicable' || t.notInStandard)
      ? ts.find((t) => t.notInStandard)!.notApplicable : undefined;
    return {
      id: r.id, level: r.level, service: r.service, family: r.family, statement: r.statement, source: r.source, specification: specificationLink(r), verdict, tests: ts,
      ...(r.untestable ? { untestable: r.untestable } : {}), ...(outsideStandard ? { notInStandard: outsideStandard } : {}), ...(r.evidence ? { evidence: r.evidence } : {}),
    };
  });
  const byLevel = { MUST: emptyCounts(), SHOULD: emptyCounts() };
  const byFamily: Record<string, Counts> = {};
  for (const r of rules) {
    byLevel[r.level][r.verdict]++;
    (byFamily[r.family] ??= emptyCounts())[r.verdict]++;
  }
  const verdict = verdictOf(rules);
  return {
    schemaVersion: 1,
    target: run.target,
    suiteVersion: (JSON.parse(readFileSync(join(rootDir, 'package.json'), 'utf8')) as { version: string }).version,
    specHash: specHash(rootDir, run.target.dataStandard),
    timestamp: new Date().toISOString(),
    summary: { verdict, byLevel, byFamily, tests: { passed, failed, skipped, ...(unfinished ? { unfinished } : {}) } },
    rules,
    deviations: {
      applied: deviations.filter((d) => matched.has(d)),
      expired: deviations.filter((d) => isExpired(d)),
      unmatched: deviations.filter((d) => !isExpired(d) && !matched.has(d)),
    },
  };
}

/**
 * The verdict about the deployment from its rules' verdicts (decisions #31): a MUST rule failed,
 * not conformant; else any MUST rule untested, under a known deviation, or not applicable because
 * the target lacks what its tests need, incomplete. Rules the catalog declares untestable, and
 * rules about what the judged standard does not have (decision 44), stand apart.
 */
export function verdictOf(rules: Pick<RuleResult, 'level' | 'verdict' | 'untestable' | 'notInStandard'>[]): ConformanceReport['summary']['verdict'] {
  const must = rules.filter((r) => r.level === 'MUST');
  if (must.some((r) => r.verdict === 'fail')) return 'not-conformant';
  const unchecked = must.some((r) => r.verdict === 'untested' || r.verdict === 'known-deviation' || (r.verdict === 'not-applicable' && !r.untestable && !r.notInStandard));
  return unchecked ? 'incomplete' : 'conformant';
}

/** The result a selected test that never started stands for: interrupted, with nothing recorded. */
const notStarted = (): PwResult => ({ status: 'interrupted', errors: [], annotations: [], attachments: [] }) as unknown as PwResult;

/** The last exchanges a failing test attached (see fixtures.ts), newest last. */
function exchangesOf(result: PwResult): Exchange[] {
  const a = result.attachments.find((x) => x.name === 'exchanges' && x.body);
  if (!a?.body) return [];
  try { return (JSON.parse(a.body.toString('utf8')) as Exchange[]).slice(-5); } catch { return []; }
}

/** The report must satisfy its own schema (generated from types.ts) before it is written. */
function assertValid(report: ConformanceReport, rootDir: string): void {
  const schema = JSON.parse(readFileSync(join(rootDir, 'spec/schemas/conformance-report.schema.json'), 'utf8')) as object;
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats.default(ajv);
  const validate = ajv.compile(schema);
  if (!validate(report)) throw new Error(`conformance report does not follow its schema: ${JSON.stringify(validate.errors?.slice(0, 5))}`);
}

function specHash(rootDir: string, standard: string | undefined): string {
  const hash = createHash('sha256');
  for (const dir of ['spec/rules', 'spec/openapi', ...(standard ? [`spec/openapi-standards/ds-${standard}`] : [])]) {
    for (const f of readdirSync(join(rootDir, dir)).sort()) hash.update(f).update(readFileSync(join(rootDir, dir, f)));
  }
  return hash.digest('hex');
}

const stripAnsi = (s: string) => s.replace(/\u001b\[[0-9;]*m/g, '');
