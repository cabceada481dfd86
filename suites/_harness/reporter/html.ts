import type { Comparison, ConformanceReport, DeviationEntry, RuleResult, TestResult } from './types.js';

/** A self-contained page (no external assets): verdict, counts, failing rules first with evidence. */
const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const ORDER: Record<string, number> = { fail: 0, untested: 1, 'known-deviation': 2, 'not-applicable': 3, pass: 4 };

function evidence(t: TestResult): string {
  if (!t.evidence?.length) return '';
  const exchanges = t.evidence.map((e, i) => `<details class="exchange"><summary>${esc(e.method)} ${esc(e.url)} → ${e.status}</summary>` +
    `<pre>${esc(Object.entries(e.requestHeaders).map(([k, v]) => `${k}: ${v}`).join('\n'))}${e.requestBody ? `\n\n${esc(e.requestBody)}` : ''}</pre>` +
    `<pre>${e.status}\n${esc(Object.entries(e.responseHeaders).map(([k, v]) => `${k}: ${v}`).join('\n'))}${e.responseBody ? `\n\n${esc(e.responseBody)}` : ''}</pre>` +
    `<p>Reproduce:</p><pre class="curl">${esc(t.reproduce?.[i] ?? '')}</pre></details>`).join('');
  return `<div class="evidence">${exchanges}</div>`;
}

const CHECK_WORD = { pass: 'pass', fail: 'FAIL', 'not-applicable': 'n/a' } as const;

/** The test's checks of the rule: which assertions held, which failed and why. */
function checkList(t: TestResult): string {
  if (!t.checks?.length) return '';
  return `<ul class="checks">${t.checks.map((c) => `<li class="check ${c.outcome}"><b>${CHECK_WORD[c.outcome]}</b> ${esc(c.title)}${c.stopped ? ' (the test stopped here)' : ''}${c.detail && c.outcome !== 'pass' ? `<pre>${esc(c.detail)}</pre>` : ''}</li>`).join('')}</ul>`;
}

function testItem(t: TestResult): string {
  const why = t.reason ?? t.notApplicable;
  const note = why ? ` (${esc(why)})` : t.knownDeviation ? ` — known deviation: ${esc(t.knownDeviation.reason)} (until ${esc(t.knownDeviation.expires)})` : '';
  const role = t.role === 'checked' ? ' <span class="role">checked by</span>' : '';
  const error = t.error && !t.checks?.some((c) => c.outcome === 'fail') ? `<pre>${esc(t.error)}</pre>` : '';
  return `<li class="${t.verdict}" data-verdict="${t.verdict}">${role}<code>${esc(t.file)}:${t.line}</code> ${esc(t.title)} — <b>${t.verdict}</b>${note}${checkList(t)}${error}${evidence(t)}</li>`;
}

const deviationList = (title: string, list: DeviationEntry[]) =>
  list.length ? `<h3>${title}</h3><ul>${list.map((d) => `<li>${esc(d.test ?? d.rule ?? '')} — ${esc(d.reason)} (until ${esc(d.expires)})</li>`).join('')}</ul>` : '';

function ruleRow(r: RuleResult, root: string): string {
  const tests = r.tests.map(testItem).join('');
  return `<tr class="${r.verdict}" data-verdict="${r.verdict}"><td><span class="chip ${r.verdict}">${r.verdict}</span></td><td>${r.level}</td><td><a class="rule" href="${esc(`${root}/${r.specification}`)}"><code>${esc(r.id)}</code></a><div class="stmt">${esc(r.statement)}</div><div class="src">${esc(r.source.document)} — ${esc(r.source.section)}</div>${r.untestable ? `<div class="src">Not observable over HTTP: ${esc(r.untestable)}</div>` : ''}${tests ? `<ul>${tests}</ul>` : ''}</td></tr>`;
}

/** `root`: the project root relative to the page (each rule links into spec/specification/ there). */
export function renderHtml(report: ConformanceReport, root = '..'): string {
  const rules = [...report.rules].sort((a, b) => ORDER[a.verdict] - ORDER[b.verdict] || (a.level === b.level ? a.id.localeCompare(b.id) : a.level === 'MUST' ? -1 : 1));
  const counts = (c: Record<string, number>) => Object.entries(c).map(([k, v]) => `<span class="chip ${k}">${k} ${v}</span>`).join(' ');
  const families = Object.entries(report.summary.byFamily).sort().map(([f, c]) => `<tr><td>${esc(f)}</td><td>${counts(c as unknown as Record<string, number>)}</td></tr>`).join('');
  const section = (service: string, title: string) => {
    const rows = rules.filter((r) => r.service === service);
    return rows.length ? `<h2>${title}</h2><table class="rules"><thead><tr><th>Verdict</th><th>Level</th><th>Rule</th></tr></thead><tbody>${rows.map((r) => ruleRow(r, root)).join('')}</tbody></table>` : '';
  };
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Conformance: ${esc(report.target.name)}</title>
<style>
body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#222}
h1 .verdict{padding:.1em .5em;border-radius:.3em;color:#fff}
.verdict.conformant{background:#2a7}.verdict.not-conformant{background:#c33}.verdict.incomplete{background:#d90}
.chip{display:inline-block;padding:0 .4em;border-radius:.3em;font-size:12px;background:#eee}
.chip.pass{background:#cfe9d9}.chip.fail{background:#f6caca}.chip.untested{background:#fde9b8}.chip.not-applicable{background:#e3e3e3}
table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #ddd;padding:.3em;text-align:left;vertical-align:top}
.stmt{margin:.2em 0}.src{color:#777;font-size:12px}pre{background:#fff4f4;padding:.5em;white-space:pre-wrap}
pre.curl{background:#f4f4ff}details.exchange{margin:.3em 0}
.role{color:#777;font-size:12px}ul.checks{margin:.2em 0;padding-left:1.2em}li.check.fail b{color:#c33}li.check.pass b{color:#2a7}
</style></head><body>
<h1>Conformance of <code>${esc(report.target.name)}</code>: <span class="verdict ${report.summary.verdict}" id="verdict">${report.summary.verdict}</span></h1>
<p>${esc(report.target.dataApiBaseUrl)}${report.target.dataStandard ? ` · Data Standard ${esc(report.target.dataStandard)}` : ''} · suite ${esc(report.suiteVersion)} · spec ${esc(report.specHash.slice(0, 12))} · ${esc(report.timestamp)}</p>
<p>Tests: ${report.summary.tests.passed} passed, ${report.summary.tests.failed} failed, ${report.summary.tests.skipped} skipped.</p>${report.summary.aborted ? `<pre id="aborted">not run: ${esc(report.summary.aborted)}</pre>` : ''}${report.summary.missingShards?.length ? `<p id="missing-shards">Missing from this merge (no blob report): shard ${report.summary.missingShards.join(', ')}. Their tests are not in this report; the verdict cannot be conformant without them.</p>` : ''}
<h2>By level</h2><table><tr><td>MUST</td><td id="must-counts">${counts(report.summary.byLevel.MUST as unknown as Record<string, number>)}</td></tr><tr><td>SHOULD</td><td>${counts(report.summary.byLevel.SHOULD as unknown as Record<string, number>)}</td></tr></table>
<h2>By family</h2><table>${families}</table>
${report.comparison ? comparisonSection(report.comparison) : ''}
${section('data-api', 'Data API rules')}
${section('rostering', 'Rostering rules')}
<h2>Known deviations</h2>${report.deviations.applied.length + report.deviations.expired.length + report.deviations.unmatched.length ? '' : '<p>None declared.</p>'}
${deviationList('Applied', report.deviations.applied)}${deviationList('Expired (no longer applied)', report.deviations.expired)}${deviationList('Matching no test', report.deviations.unmatched)}
</body></html>
`;
}

/** The run against its baseline (CONFORMANCE_BASELINE): rules that regressed first. */
function comparisonSection(c: Comparison): string {
  const list = (id: string, title: string, ids: string[]) => `<h3>${title} (${ids.length})</h3>${ids.length ? `<ul id="${id}">${ids.map((r) => `<li><code>${esc(r)}</code></li>`).join('')}</ul>` : ''}`;
  return `<h2>Against the baseline</h2><p>${esc(c.baseline.file)}: ${esc(c.baseline.target)}, ${esc(c.baseline.verdict)}, ${esc(c.baseline.timestamp)}</p>
${list('regressed', 'Regressed: passed before, fail now', c.regressed)}${list('newly-passing', 'Newly passing', c.newlyPassing)}${list('no-longer-judged', 'Passed before, not judged now', c.noLongerJudged)}`;
}
