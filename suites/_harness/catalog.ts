import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Rule, RuleCatalogFile } from '../../spec/types/rule.js';

/** The rule catalog (spec/rules/*.rules.json), loaded once. */
const dir = fileURLToPath(new URL('../../spec/rules/', import.meta.url));

export function loadCatalog(): Map<string, Rule & { service: RuleCatalogFile['service'] }> {
  const rules = new Map<string, Rule & { service: RuleCatalogFile['service'] }>();
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.rules.json')).sort()) {
    const catalog = JSON.parse(readFileSync(`${dir}${file}`, 'utf8')) as RuleCatalogFile;
    for (const rule of catalog.rules) rules.set(rule.id, { ...rule, service: catalog.service });
  }
  return rules;
}

export const catalog = loadCatalog();
