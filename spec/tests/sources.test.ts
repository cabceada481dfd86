import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { test } from 'node:test';

/** Every rule's source ships with the project (spec/sources/) and has the section it names. */
const read = (p: string) => readFileSync(new URL(`../${p}`, import.meta.url), 'utf8');
const rules = readdirSync(new URL('../rules/', import.meta.url)).filter((f) => f.endsWith('.rules.json'))
  .flatMap((f) => (JSON.parse(read(`rules/${f}`)) as { rules: { id: string; source: { document: string; section?: string } }[] }).rules);

/** A heading line containing the words; for decisions, `<heading> #<n>` is a numbered item under it. */
function hasSection(text: string, section: string): boolean {
  const lines = text.split('\n');
  const heading = (words: string) => lines.some((l) => /^#{1,6} /.test(l) && l.includes(words));
  const numbered = /^(.*) #(\w+)$/.exec(section);
  if (numbered) return heading(numbered[1]) && lines.some((l) => l.startsWith(`${numbered[2]}. `));
  return heading(section);
}

test('every rule names a source document shipped in spec/sources and a section it has', () => {
  const docs = new Map<string, string>();
  const missing: string[] = [];
  for (const r of rules) {
    const { document, section } = r.source;
    if (!docs.has(document)) {
      try { docs.set(document, read(`sources/${document}`)); } catch { missing.push(`${r.id}: no spec/sources/${document}`); continue; }
    }
    if (section && !hasSection(docs.get(document)!, section)) missing.push(`${r.id}: ${document} has no section '${section}'`);
  }
  assert.deepEqual(missing, []);
});

test('the section check refuses a section the document does not have', () => {
  const text = '# Doc\n## Errors\n11. Order of checks\n### academicWeek\n';
  assert.equal(hasSection(text, 'Errors #11'), true);
  assert.equal(hasSection(text, 'academicWeek'), true);
  assert.equal(hasSection(text, 'Errors #12'), false);
  assert.equal(hasSection(text, 'Reads #11'), false);
  assert.equal(hasSection(text, 'assessment'), false);
});
