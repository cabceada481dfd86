import type { TestDetails } from '@playwright/test';
import { catalog } from './catalog.js';

/**
 * Tags a test with the rules it checks: `test(title, rule('data.etag.if-none-match-match-304'), body)`.
 * The first id is the rule the test exists for: its level is the test's level tag (`@must` or
 * `@should`). Every id is a tag of its own and so is its family, so `--grep @<rule-id>` runs
 * one rule and `--grep @data.etag` one family. An unknown id throws while the suite loads, so a
 * test can never cite a rule that is not in the catalog.
 */
export function rule(primary: string, ...incidental: string[]): TestDetails {
  const ids = [primary, ...incidental];
  const tags = new Set<string>();
  let level = '';
  for (const id of ids) {
    const r = catalog.get(id);
    if (!r) throw new Error(`rule(): unknown rule id '${id}' (not in spec/rules/*.rules.json)`);
    if (id === primary) {
      level = r.level;
      tags.add(`@${r.level.toLowerCase()}`);
    }
    tags.add(`@${id.split('.').slice(0, 2).join('.')}`);
    tags.add(`@${id}`);
  }
  return {
    tag: [...tags],
    // The level rides along as an annotation too: JUnit carries annotations as properties, so CI
    // dashboards can tell a MUST failure from a SHOULD one.
    annotation: [{ type: 'level', description: level }, ...ids.map((id) => ({ type: 'rule', description: id }))],
  };
}
