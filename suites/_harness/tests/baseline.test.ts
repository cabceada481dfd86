/**
 * The regression gate (issue #24 point 6): a run compared with an earlier report of its target
 * lists what regressed, what newly passes and what is no longer judged, and
 * CONFORMANCE_GATE=regressions exits 1 only on a regression (or on a run that proves nothing).
 * First on the comparison alone, then on real Playwright runs of check-demo/checks.demo.ts.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { BaselineError, compareWithBaseline, gateStatus, loadBaseline } from '../reporter/baseline.js';
import type { ConformanceReport, Verdict } from '../reporter/types.js';

const rules = (verdicts: Record<string, Verdict>) => Object.entries(verdicts).map(([id, verdict]) => ({ id, verdict }));
const baseline = (verdicts: Record<string, Verdict>) => ({ timestamp: 't0', target: { name: 'x', dataApiBaseUrl: 'u' }, summary: { verdict: 'incomplete' as const }, rules: rules(verdicts) as ConformanceReport['rules'] });

test('a rule that passed and fails now regressed; one that did not pass and passes now is newly passing; one that passed and is not judged now is named apart', () => {
  const before = baseline({ a: 'pass', b: 'fail', c: 'pass', d: 'untested', e: 'pass', f: 'pass', g: 'known-deviation' });
  const now = { rules: rules({ a: 'fail', b: 'pass', c: 'untested', d: 'pass', e: 'pass', f: 'not-applicable', g: 'fail', h: 'fail' }) as ConformanceReport['rules'] };
  const c = compareWithBaseline(now, before, 'old.json');
  assert.deepEqual([c.regressed, c.newlyPassing, c.noLongerJudged], [['a'], ['b', 'd'], ['c', 'f']]);
  assert.deepEqual(c.baseline, { file: 'old.json', target: 'x', timestamp: 't0', verdict: 'incomplete' });
  // The gate: a regression fails, none passes whatever the verdict, and a run that proves nothing fails.
  assert.equal(gateStatus(c, false), 'failed');
  const clean = compareWithBaseline({ rules: rules({ a: 'pass', b: 'fail' }) as ConformanceReport['rules'] }, before, 'old.json');
  assert.equal(gateStatus(clean, false), 'passed');
  assert.equal(gateStatus(clean, true), 'failed', 'an aborted run');
  assert.equal(gateStatus(undefined, false), 'failed', 'no usable baseline');
});

test('a baseline that is no conformance report is refused in one line naming the file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'baseline-'));
  const file = (name: string, text: string) => { const p = join(dir, name); writeFileSync(p, text); return p; };
  assert.throws(() => loadBaseline(file('bad.json', '{"rules": [')), (e: Error) => e instanceof BaselineError && /^CONFORMANCE_BASELINE: .*bad\.json cannot be read as JSON/.test(e.message));
  assert.throws(() => loadBaseline(file('other.json', '{"rules": [{"id": 1}]}')), (e: Error) => e instanceof BaselineError && /other\.json is not a conformance report/.test(e.message));
  assert.throws(() => loadBaseline(join(dir, 'missing.json')), BaselineError);
});

test('real Playwright runs: CONFORMANCE_GATE=regressions exits 1 on one injected regression and 0 against its own report, whatever the verdict', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'baseline-demo-'));
  const run = async (reports: string, env: Record<string, string>) => {
    const code = await promisify(execFile)(process.execPath, ['node_modules/@playwright/test/cli.js', 'test', '-c', 'suites/_harness/tests/check-demo/playwright.config.ts'], {
      env: { ...process.env, CHECK_DEMO_REPORTS: reports, CONFORMANCE_STRICT: '', FORCE_COLOR: '0', ...env },
    }).then(() => 0, (err: { code?: number }) => err.code ?? -1);
    return { code, report: JSON.parse(readFileSync(join(reports, 'conformance.json'), 'utf8')) as ConformanceReport };
  };
  const first = await run(join(dir, 'first'), {});
  assert.equal(first.code, 1, 'the demo is not conformant (some MUST rules fail on purpose)');
  assert.equal(first.report.comparison, undefined);
  const own = join(dir, 'own.json');
  writeFileSync(own, JSON.stringify(first.report));
  // The same run against its own report: nothing regressed, so the gate passes a non-conformant run.
  const same = await run(join(dir, 'same'), { CONFORMANCE_BASELINE: own, CONFORMANCE_GATE: 'regressions' });
  assert.equal(same.report.summary.verdict, 'not-conformant');
  assert.deepEqual([same.report.comparison?.regressed, same.code], [[], 0]);
  // One injected regression: a rule that fails in the demo is recorded as passing before.
  const failing = 'data.delete.dependent-item-exists-409';
  assert.equal(first.report.rules.find((r) => r.id === failing)?.verdict, 'fail');
  const injected = join(dir, 'injected.json');
  writeFileSync(injected, JSON.stringify({ ...first.report, rules: first.report.rules.map((r) => (r.id === failing ? { ...r, verdict: 'pass' } : r)) }));
  const regressed = await run(join(dir, 'regressed'), { CONFORMANCE_BASELINE: injected, CONFORMANCE_GATE: 'regressions' });
  assert.deepEqual([regressed.report.comparison?.regressed, regressed.code], [[failing], 1]);
  assert.match(readFileSync(join(dir, 'regressed', 'conformance.html'), 'utf8'), new RegExp(`<ul id="regressed"><li><code>${failing.replace(/\./g, '\\.')}</code>`));
  // The gate without a baseline proves nothing: exit 1.
  assert.equal((await run(join(dir, 'none'), { CONFORMANCE_GATE: 'regressions' })).code, 1);
});

test('real sharded runs: merge-reports exits by the merged verdict, and by the gate when one is set', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'baseline-shards-'));
  const cli = (args: string[], env: Record<string, string>) => promisify(execFile)(process.execPath, ['node_modules/@playwright/test/cli.js', ...args], {
    env: { ...process.env, CONFORMANCE_STRICT: '', FORCE_COLOR: '0', ...env },
  }).then(() => 0, (err: { code?: number }) => err.code ?? -1);
  for (const shard of ['1/2', '2/2']) {
    await cli(['test', '-c', 'suites/_harness/tests/check-demo/playwright.config.ts', `--shard=${shard}`, '--reporter=blob'], { PLAYWRIGHT_BLOB_OUTPUT_DIR: join(dir, 'blob'), PWTEST_BLOB_DO_NOT_REMOVE: '1', PLAYWRIGHT_BLOB_OUTPUT_NAME: `shard-${shard.replace('/', '-')}.zip` });
  }
  const merge = (reports: string, env: Record<string, string> = {}) => cli(['merge-reports', '--config', 'suites/_harness/tests/check-demo/merge.config.ts', join(dir, 'blob')], { CHECK_DEMO_REPORTS: reports, ...env });
  assert.equal(await merge(join(dir, 'merged')), 1, 'the merged demo is not conformant: exit 1, not merge-reports\' usual 0');
  const merged = JSON.parse(readFileSync(join(dir, 'merged', 'conformance.json'), 'utf8')) as ConformanceReport;
  assert.equal(merged.summary.verdict, 'not-conformant');
  assert.ok(merged.summary.tests.passed > 0 && merged.summary.tests.failed > 0, 'both shards\' tests are in the merge');
  assert.equal(merged.summary.missingShards, undefined, 'every shard reported');
  const own = join(dir, 'own.json');
  writeFileSync(own, JSON.stringify(merged));
  assert.equal(await merge(join(dir, 'gated'), { CONFORMANCE_BASELINE: own, CONFORMANCE_GATE: 'regressions' }), 0, 'nothing regressed against its own report');
  // Shard 2's blob report lost (a killed shard): the merge names it, and its verdict cannot be conformant.
  const partial = join(dir, 'partial');
  mkdirSync(partial);
  copyFileSync(join(dir, 'blob', 'shard-1-2.zip'), join(partial, 'shard-1-2.zip'));
  const cut = await cli(['merge-reports', '--config', 'suites/_harness/tests/check-demo/merge.config.ts', partial], { CHECK_DEMO_REPORTS: join(dir, 'cut') });
  const cutReport = JSON.parse(readFileSync(join(dir, 'cut', 'conformance.json'), 'utf8')) as ConformanceReport;
  assert.deepEqual([cutReport.summary.missingShards, cut], [[2], 1]);
  assert.notEqual(cutReport.summary.verdict, 'conformant');
  assert.match(readFileSync(join(dir, 'cut', 'conformance.html'), 'utf8'), /<p id="missing-shards">Missing from this merge \(no blob report\): shard 2\./);
});
