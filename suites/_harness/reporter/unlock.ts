import type { ConformanceReport, RuleResult } from './types.js';

/**
 * What to declare for a complete verdict (issue #24 point 4).
 *
 * Tests gate on the target file in one way (capabilities.ts `needs()`), which records in the
 * report each declaration a test relied on (`needs`) and the one whose absence made it not
 * applicable (`lacking`). Two listings come from that:
 * - after a run, `unlockLines()`: the MUST rules left not applicable, grouped by what their tests
 *   lacked, most rules first; other reasons (a condition not brought about) are counted apart;
 * - before a run, `npm run capabilities` (tools/capabilities.ts): the needs each rule's tests
 *   showed in complete runs (suites/_harness/needs.json) against what a target file declares.
 */
export function unlockLines(report: Pick<ConformanceReport, 'rules'>): string[] {
  const byNeed = new Map<string, Set<string>>();
  let other = 0;
  for (const rule of report.rules) {
    if (rule.level !== 'MUST' || rule.verdict !== 'not-applicable' || rule.untestable || rule.notInStandard) continue;
    const lacking = new Set(rule.tests.flatMap((t) => (t.lacking ? [t.lacking] : [])));
    if (!lacking.size) other++;
    for (const need of lacking) add(byNeed, need, rule.id);
  }
  if (!byNeed.size && !other) return [];
  const lines = listed(byNeed);
  if (other) lines.push(`  ${other} MUST rule(s) not applicable for other reasons (the report says why for each)`);
  return ['conformance: to reach a complete verdict, declare in the target file (README, "Providing each capability"):', ...lines];
}

/** Per rule, the declarations each of its tests needed (one list per test), from complete runs. */
export type RuleNeeds = Record<string, { level: 'MUST' | 'SHOULD'; tests: string[][] }>;

/** The needs of every rule in one or more reports (a test seen in several is merged by title). */
export function needsOf(reports: Pick<ConformanceReport, 'rules'>[]): RuleNeeds {
  const byRule = new Map<string, { level: 'MUST' | 'SHOULD'; tests: Map<string, Set<string>> }>();
  for (const report of reports) {
    for (const rule of report.rules) {
      const entry = byRule.get(rule.id) ?? byRule.set(rule.id, { level: rule.level, tests: new Map() }).get(rule.id)!;
      for (const t of rule.tests) {
        const set = entry.tests.get(t.title) ?? entry.tests.set(t.title, new Set()).get(t.title)!;
        for (const n of t.needs ?? []) set.add(n);
      }
    }
  }
  const out: RuleNeeds = {};
  for (const [id, { level, tests }] of [...byRule].sort((a, b) => a[0].localeCompare(b[0]))) {
    // Tests with the same needs say the same; a rule no test of which needs anything is left out.
    const distinct = [...new Set([...tests.values()].map((s) => JSON.stringify([...s].sort())))].map((j) => JSON.parse(j) as string[]);
    if (distinct.some((d) => d.length)) out[id] = { level, tests: distinct.sort((a, b) => a.length - b.length || a.join().localeCompare(b.join())) };
  }
  return out;
}

/**
 * Whether a target file declares `declaration`: a path through its objects (`rostering.flows.tenant`),
 * `a or b` when either will do; `<another than primary>` stands for any key but `primary`.
 * Present is all it can tell: a declared rostering client may still lack the claims a test wants
 * (the run's own closing list says so).
 */
export function declares(targetFile: unknown, declaration: string): boolean {
  return declaration.split(' or ').some((path) => {
    let at: unknown[] = [targetFile];
    for (const segment of path.split('.')) {
      at = at.flatMap((v) => {
        if (!v || typeof v !== 'object') return [];
        const o = v as Record<string, unknown>;
        const other = /^<another than (\w+)>$/.exec(segment);
        return other ? Object.keys(o).filter((k) => k !== other[1]).map((k) => o[k]) : [o[segment]];
      });
    }
    return at.some((v) => v !== undefined && v !== null && v !== false && !(Array.isArray(v) && !v.length));
  });
}

/**
 * Before a run: the MUST rules a target cannot make applicable (every one of their tests needs
 * something it lacks), then each declaration it lacks (one path; `a or b` counts for both) with
 * how many of those rules it would make applicable alone, and how many need it with others.
 */
export function lockedLines(needs: RuleNeeds, targetFile: unknown): string[] {
  const locked: { id: string; lacking: string[][][] }[] = [];
  for (const [id, rule] of Object.entries(needs)) {
    if (rule.level !== 'MUST') continue;
    // Per test, what it lacks: each need as its alternatives.
    const lacking = rule.tests.map((t) => t.filter((n) => !declares(targetFile, n)).map((n) => n.split(' or ')));
    if (!lacking.some((l) => !l.length)) locked.push({ id, lacking });
  }
  if (!locked.length) return [];
  const paths = [...new Set(locked.flatMap((r) => r.lacking.flat(2)))];
  const rows = paths.map((path) => {
    const alone = locked.filter((r) => r.lacking.some((t) => t.every((alternatives) => alternatives.includes(path)))).map((r) => r.id);
    // With others: in what a rule's tests that lack least lack (another test may need more besides).
    const withOthers = locked.filter((r) => !alone.includes(r.id) && least(r.lacking).some((t) => t.some((alternatives) => alternatives.includes(path)))).map((r) => r.id);
    return { path, alone, withOthers };
  }).filter((r) => r.alone.length + r.withOthers.length).sort((a, b) => b.alone.length - a.alone.length || b.withOthers.length - a.withOthers.length || a.path.localeCompare(b.path));
  const some = (ids: string[]) => `${ids.slice(0, 3).join(', ')}${ids.length > 3 ? ', …' : ''}`;
  return [`  ${locked.length} MUST rule(s) out of reach`, ...rows.map(({ path, alone, withOthers }) => `  ${path}: alone makes ${alone.length} applicable${alone.length ? ` (${some(alone)})` : ''}; with others ${withOthers.length}${withOthers.length ? ` (${some(withOthers)})` : ''}`)];
}

function least<T>(lists: T[][]): T[][] {
  const n = Math.min(...lists.map((l) => l.length));
  return lists.filter((l) => l.length === n);
}

function add(byNeed: Map<string, Set<string>>, need: string, rule: RuleResult['id']) {
  (byNeed.get(need) ?? byNeed.set(need, new Set()).get(need)!).add(rule);
}

const listed = (byNeed: Map<string, Set<string>>) => [...byNeed].sort((a, b) => b[1].size - a[1].size || a[0].localeCompare(b[0]))
  .map(([need, rules]) => `  ${need}: ${rules.size} MUST rule(s) (${[...rules].slice(0, 3).join(', ')}${rules.size > 3 ? ', …' : ''})`);
