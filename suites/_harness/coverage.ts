/**
 * `npm run rules:coverage`: which catalog rules have at least one test. Prints exactly
 * `rules covered: N/M`, then the uncovered ids. With --gate (or RULES_COVERAGE_GATE=1) it exits
 * non-zero when a rule is uncovered. Tests are found by `playwright test --list`, so only tests
 * Playwright would really run count.
 */
import { execFileSync } from 'node:child_process';
import { catalog } from './catalog.js';

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
const rules = [...catalog.values()].filter((r) => !service || r.service === service);
const uncovered = rules.filter((r) => !covered.has(r.id));
console.log(`rules covered: ${rules.length - uncovered.length}/${rules.length}`);
for (const r of uncovered) console.log(r.id);
if ((process.argv.includes('--gate') || process.env.RULES_COVERAGE_GATE === '1') && uncovered.length) process.exit(1);
