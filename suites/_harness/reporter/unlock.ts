import type { ConformanceReport } from './types.js';

/**
 * What to declare for a complete verdict (issue #24 point 4): the MUST rules left not applicable
 * because the target file lacks a capability or a client role, grouped by what they need, most
 * rules first. Tests say what they need in one form (capabilities.ts: `needs capability <name>
 * in the target file`, `needs client '<role>' in the target file`); other reasons (a standard
 * without the resource, a condition not brought about) are counted apart.
 */
export function unlockLines(report: Pick<ConformanceReport, 'rules'>): string[] {
  const byNeed = new Map<string, Set<string>>();
  let other = 0;
  for (const rule of report.rules) {
    if (rule.level !== 'MUST' || rule.verdict !== 'not-applicable' || rule.untestable || rule.notInStandard) continue;
    const needs = new Set(rule.tests.flatMap((t) => {
      const m = /needs (capability \w+|client '[^']+') in the target file/.exec(t.notApplicable ?? '');
      return m ? [m[1]] : [];
    }));
    if (!needs.size) other++;
    for (const need of needs) (byNeed.get(need) ?? byNeed.set(need, new Set()).get(need)!).add(rule.id);
  }
  if (!byNeed.size && !other) return [];
  const lines = [...byNeed].sort((a, b) => b[1].size - a[1].size || a[0].localeCompare(b[0]))
    .map(([need, rules]) => `  ${need}: ${rules.size} MUST rule(s) (${[...rules].slice(0, 3).join(', ')}${rules.size > 3 ? ', …' : ''})`);
  if (other) lines.push(`  ${other} MUST rule(s) not applicable for other reasons (the report says why for each)`);
  return ['conformance: to reach a complete verdict, declare in the target file (README, "Providing each capability"):', ...lines];
}
