import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import type { FullConfig, FullResult, Reporter, Suite, TestCase, TestResult as PwResult } from '@playwright/test/reporter';
import { loadCatalog } from '../catalog.js';
import { target } from '../target.js';
import { renderHtml } from './html.js';
import type { ConformanceReport, Counts, RuleResult, TestResult, Verdict } from './types.js';

/**
 * Writes reports/conformance.json and conformance.html: one verdict per catalog rule, from the
 * outcomes of the tests tagged with it. Uses only the reporter API, so it works the same on a
 * merged report.
 */
export default class ConformanceReporter implements Reporter {
  private readonly outputDir: string;
  private rootDir = process.cwd();
  private readonly results = new Map<TestCase, PwResult>();
  private tests: TestCase[] = [];

  constructor(options: { outputDir?: string } = {}) {
    this.outputDir = options.outputDir ?? 'reports';
  }

  onBegin(config: FullConfig, suite: Suite): void {
    this.rootDir = config.configFile ? dirname(config.configFile) : process.cwd();
    this.tests = suite.allTests();
  }

  onTestEnd(test: TestCase, result: PwResult): void {
    this.results.set(test, result);
  }

  onEnd(_result: FullResult): void {
    const report = buildReport(this.tests, this.results, this.rootDir);
    mkdirSync(this.outputDir, { recursive: true });
    writeFileSync(join(this.outputDir, 'conformance.json'), `${JSON.stringify(report, null, 2)}\n`);
    writeFileSync(join(this.outputDir, 'conformance.html'), renderHtml(report));
    const must = report.summary.byLevel.MUST;
    console.log(`conformance: ${report.summary.verdict} — MUST ${must.pass} pass, ${must.fail} fail, ${must['not-applicable']} n/a, ${must.untested} untested → ${join(this.outputDir, 'conformance.html')}`);
  }

  printsToStdio(): boolean {
    return false;
  }
}

const emptyCounts = (): Counts => ({ pass: 0, fail: 0, 'not-applicable': 0, 'known-deviation': 0, untested: 0 });

export function buildReport(tests: TestCase[], results: Map<TestCase, PwResult>, rootDir: string): ConformanceReport {
  const catalog = loadCatalog();
  const byRule = new Map<string, TestResult[]>();
  let passed = 0, failed = 0, skipped = 0;
  for (const test of tests) {
    const result = results.get(test);
    if (!result) continue;
    const outcome = result.status;
    if (outcome === 'passed') passed++;
    else if (outcome === 'skipped') skipped++;
    else failed++;
    const na = test.annotations.find((a) => a.type === 'not-applicable') ?? result.annotations.find((a) => a.type === 'not-applicable');
    const entry: TestResult = {
      title: test.titlePath().filter(Boolean).slice(1).join(' › '),
      file: relative(rootDir, test.location.file),
      line: test.location.line,
      outcome,
      ...(na ? { notApplicable: na.description ?? 'not applicable' } : {}),
      ...(result.error?.message ? { error: stripAnsi(result.error.message).split('\n').slice(0, 12).join('\n') } : {}),
    };
    for (const a of test.annotations) if (a.type === 'rule' && a.description) (byRule.get(a.description) ?? byRule.set(a.description, []).get(a.description)!).push(entry);
  }

  const rules: RuleResult[] = [...catalog.values()].map((r) => {
    const ts = byRule.get(r.id) ?? [];
    return { id: r.id, level: r.level, service: r.service, family: r.family, statement: r.statement, source: r.source, verdict: verdictOf(ts), tests: ts };
  });
  const byLevel = { MUST: emptyCounts(), SHOULD: emptyCounts() };
  const byFamily: Record<string, Counts> = {};
  for (const r of rules) {
    byLevel[r.level][r.verdict]++;
    (byFamily[r.family] ??= emptyCounts())[r.verdict]++;
  }
  const verdict = byLevel.MUST.fail ? 'not-conformant' : byLevel.MUST.untested || byLevel.MUST['known-deviation'] ? 'incomplete' : 'conformant';
  return {
    schemaVersion: 1,
    target: { name: target.name, dataApiBaseUrl: target.dataApi.baseUrl },
    suiteVersion: (JSON.parse(readFileSync(join(rootDir, 'package.json'), 'utf8')) as { version: string }).version,
    specHash: specHash(rootDir),
    timestamp: new Date().toISOString(),
    summary: { verdict, byLevel, byFamily, tests: { passed, failed, skipped } },
    rules,
  };
}

/** A rule fails if any of its tests failed; passes if one passed and none failed. */
function verdictOf(tests: TestResult[]): Verdict {
  if (!tests.length) return 'untested';
  if (tests.some((t) => t.outcome !== 'passed' && t.outcome !== 'skipped')) return 'fail';
  if (tests.some((t) => t.outcome === 'passed')) return 'pass';
  if (tests.every((t) => t.notApplicable)) return 'not-applicable';
  return 'untested';
}

function specHash(rootDir: string): string {
  const hash = createHash('sha256');
  for (const dir of ['spec/rules', 'spec/openapi']) {
    for (const f of readdirSync(join(rootDir, dir)).sort()) hash.update(f).update(readFileSync(join(rootDir, dir, f)));
  }
  return hash.digest('hex');
}

const stripAnsi = (s: string) => s.replace(/\u001b\[[0-9;]*m/g, '');
