/**
 * The HTML conformance report as a person sees it, in a real headless Chromium (Debian's
 * package; `.ci/run` installs it). Checks the page `npm test` just wrote and a page rendered
 * from a report with a failure. Run after the conformance suites: `npm run test:report`.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import { chromium, type Browser } from '@playwright/test';
import { renderHtml } from '../reporter/html.js';
import type { ConformanceReport } from '../reporter/types.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

async function withPage<T>(file: string, fn: (page: import('@playwright/test').Page, requests: string[]) => Promise<T>): Promise<T> {
  assert.ok(existsSync(CHROMIUM), `no browser at ${CHROMIUM}: install Debian's chromium package (apt-get install chromium)`);
  const browser: Browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  try {
    const page = await browser.newPage();
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    await page.goto(`file://${resolve(file)}`);
    return await fn(page, requests);
  } finally {
    await browser.close();
  }
}

test('the report of this run shows its verdict, counts and every rule, with nothing fetched from elsewhere', async () => {
  const json = JSON.parse(readFileSync('reports/conformance.json', 'utf8')) as ConformanceReport;
  await withPage('reports/conformance.html', async (page, requests) => {
    assert.equal(await page.locator('#verdict').innerText(), json.summary.verdict);
    const must = await page.locator('#must-counts').innerText();
    assert.match(must, new RegExp(`pass ${json.summary.byLevel.MUST.pass}\\b`));
    assert.equal(await page.locator('table.rules tbody tr').count(), json.rules.length);
    assert.deepEqual(requests.filter((u) => !u.startsWith('file://')), [], 'the page is self-contained');
    // Every rule links to its anchor in the specification that ships with the project.
    const href = await page.locator('table.rules tbody tr a.rule').first().getAttribute('href');
    const [path, anchor] = new URL(href!, page.url()).href.replace(/^file:\/\//, '').split('#');
    assert.ok(readFileSync(decodeURIComponent(path), 'utf8').includes(`<a id="${anchor}"></a>`), `${href} names no anchor`);
    assert.equal(await page.locator('table.rules tbody tr a.rule').count(), json.rules.length);
    await page.screenshot({ path: 'reports/conformance.png', fullPage: false });
  });
});

test('a failing rule comes first and its evidence and curl line open on a click', async () => {
  const counts = { pass: 1, fail: 1, 'not-applicable': 0, 'known-deviation': 0, untested: 0 };
  const report: ConformanceReport = {
    schemaVersion: 1,
    target: { name: 'sample', dataApiBaseUrl: 'http://127.0.0.1:1/v7.3/api' },
    suiteVersion: '0.0.0', specHash: '0'.repeat(64), timestamp: new Date().toISOString(),
    summary: { verdict: 'not-conformant', byLevel: { MUST: counts, SHOULD: { ...counts, pass: 0, fail: 0 } }, byFamily: { etag: counts }, tests: { passed: 1, failed: 1, skipped: 0 } },
    rules: [
      { id: 'data.etag.a-passing-rule', level: 'MUST', service: 'data-api', family: 'etag', statement: 'Passes.', source: { document: 'seed', section: 'x' }, specification: 'spec/specification/data.etag.md#data.etag.a-passing-rule', verdict: 'pass', tests: [{ title: 't1', file: 'f.spec.ts', line: 1, outcome: 'passed', role: 'primary', verdict: 'pass' }] },
      {
        id: 'data.etag.z-failing-rule', level: 'MUST', service: 'data-api', family: 'etag', statement: 'Fails.', source: { document: 'seed', section: 'x' }, specification: 'spec/specification/data.etag.md#data.etag.z-failing-rule', verdict: 'fail',
        tests: [{
          title: 't2', file: 'f.spec.ts', line: 2, outcome: 'failed', role: 'primary', verdict: 'fail', error: 'expected 304, got 200',
          checks: [{ title: 'a matching If-None-Match gives 304', outcome: 'fail', stopped: true, detail: 'Expected: 304\nReceived: 200' }],
          evidence: [{ method: 'GET', url: 'http://127.0.0.1:1/x', requestHeaders: { Authorization: 'Bearer <redacted>' }, status: 200, responseHeaders: { etag: '"1"' }, responseBody: '{}' }],
          reproduce: ['curl -i -X GET \'http://127.0.0.1:1/x\' -H "Authorization: Bearer $TOKEN"'],
        }],
      },
    ],
    deviations: { applied: [], expired: [], unmatched: [] },
  };
  const file = join(mkdtempSync(join(tmpdir(), 'report-')), 'report.html');
  writeFileSync(file, renderHtml(report));
  await withPage(file, async (page) => {
    assert.equal(await page.locator('#verdict').innerText(), 'not-conformant');
    const first = page.locator('table.rules tbody tr').first();
    assert.equal(await first.getAttribute('data-verdict'), 'fail');
    // The rule's failed check is named under its test, with why it failed.
    assert.match(await first.locator('li.check.fail').innerText(), /FAIL a matching If-None-Match gives 304 \(the test stopped here\)\s+Expected: 304/);
    const curl = first.locator('pre.curl');
    assert.equal(await curl.isVisible(), false, 'evidence starts folded');
    await first.locator('details.exchange summary').click();
    assert.match(await curl.innerText(), /\$TOKEN/);
    assert.doesNotMatch(await page.content(), /Bearer [A-Za-z0-9_-]{20,}/, 'no token in the page');
  });
});
