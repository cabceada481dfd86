/**
 * `npm run rules:coverage`: which catalog rules have at least one test of their own, that is a
 * test whose primary rule it is (a rule a test only exercises or checks beside its own does not
 * count: issue 20, decision 34). Prints exactly
 * `rules covered: N/M` (M: the rules observable over HTTP), then the uncovered ids, then the
 * rules the catalog declares untestable with their reason. With --gate (or
 * RULES_COVERAGE_GATE=1) it exits non-zero when a rule is uncovered, or when a test names a rule
 * declared untestable. Tests are found by `playwright test --list`, so only tests Playwright
 * would really run count.
 */
import { execFileSync } from 'node:child_process';
import { catalog } from '../catalog.js';

interface ListedSuite { specs?: { tests?: { annotations?: { type: string; description?: string }[] }[] }[]; suites?: ListedSuite[] }

const out = execFileSync('npx', ['playwright', 'test', '--list', '--reporter=json'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, env: { ...process.env, FORCE_COLOR: '0' } });
const report = JSON.parse(out.slice(out.indexOf('{'))) as { suites: ListedSuite[] };
const covered = new Set<string>();
const walk = (s: ListedSuite) => {
  for (const spec of s.specs ?? []) for (const t of spec.tests ?? []) for (const a of t.annotations ?? []) if (a.type === 'rule' && a.description) covered.add(a.description);
  for (const child of s.suites ?? []) walk(child);
};
report.suites.forEach(walk);

const service = process.argv.find((a) => a.startsWith('--service='))?.split('=')[1];
const inScope = [...catalog.values()].filter((r) => !service || r.service === service);
const rules = inScope.filter((r) => !r.untestable);
const uncovered = rules.filter((r) => !covered.has(r.id));
// A test naming a rule the catalog calls untestable is a contradiction: one of them is wrong.
const contradicted = inScope.filter((r) => r.untestable && covered.has(r.id));
console.log(`rules covered: ${rules.length - uncovered.length}/${rules.length}`);
for (const r of uncovered) console.log(r.id);
const declared = inScope.filter((r) => r.untestable);
if (declared.length) console.log(`declared untestable: ${declared.length}`);
for (const r of declared) console.log(`  ${r.id}: ${r.untestable}`);
for (const r of contradicted) console.log(`tested although declared untestable: ${r.id}`);
if ((process.argv.includes('--gate') || process.env.RULES_COVERAGE_GATE === '1') && (uncovered.length || contradicted.length)) process.exit(1);
