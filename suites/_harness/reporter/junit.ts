import type { ConformanceReport, RuleResult, TestResult } from './types.js';

/**
 * reports/conformance-junit.xml: one test case per rule, in two suites, `MUST rules` and `SHOULD
 * rules`, so a CI dashboard shows which rule failed and gates on the first suite alone.
 * Playwright's own junit.xml stays beside it (one case per test, checks as properties). A failed
 * rule's message names each failing test and, within it, each failing check of that rule.
 */
const xml = (s: string) => s.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!)
  // Characters XML 1.0 cannot carry at all (a response body may hold them).
  .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '');

function failures(r: RuleResult): string {
  return r.tests.filter((t) => t.verdict === 'fail').map((t) => {
    const checks = (t.checks ?? []).filter((c) => c.outcome === 'fail').map((c) => `  check: ${c.title}\n    ${(c.detail ?? '').split('\n').join('\n    ')}`);
    return `${t.title} (${t.file}:${t.line})\n${checks.length ? checks.join('\n') : `  ${(t.error ?? 'failed').split('\n').join('\n  ')}`}`;
  }).join('\n');
}

const why = (t: TestResult) => t.reason ?? t.notApplicable ?? t.knownDeviation?.reason ?? '';

function testCase(r: RuleResult): string {
  const open = `<testcase classname="${xml(`${r.service}.${r.family}`)}" name="${xml(r.id)}">`;
  const properties = `<properties><property name="level" value="${r.level}"/><property name="verdict" value="${r.verdict}"/><property name="statement" value="${xml(r.statement)}"/></properties>`;
  let body = '';
  if (r.verdict === 'fail') body = `<failure message="${xml(`${r.level} rule failed: ${r.id}`)}" type="${r.level}">${xml(failures(r))}</failure>`;
  else if (r.verdict !== 'pass') {
    const reasons = [...new Set(r.tests.map(why).filter(Boolean))].join('; ') || r.untestable || 'no test ran';
    body = `<skipped message="${xml(`${r.verdict}: ${reasons}`)}"/>`;
  }
  return `${open}${properties}${body}</testcase>`;
}

export function renderJunit(report: ConformanceReport): string {
  const suite = (level: 'MUST' | 'SHOULD') => {
    const rules = report.rules.filter((r) => r.level === level);
    const c = report.summary.byLevel[level];
    const skipped = c['not-applicable'] + c.untested + c['known-deviation'];
    return `<testsuite name="${level} rules" tests="${rules.length}" failures="${c.fail}" errors="0" skipped="${skipped}" timestamp="${xml(report.timestamp)}">\n${rules.map(testCase).join('\n')}\n</testsuite>`;
  };
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="conformance of ${xml(report.target.name)}: ${report.summary.verdict}">\n${suite('MUST')}\n${suite('SHOULD')}\n</testsuites>\n`;
}
