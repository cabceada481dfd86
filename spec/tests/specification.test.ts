import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { buildSpecification, sectionLine, specificationLink } from '../generate/specification.js';
import type { RuleCatalogFile } from '../types/rule.js';

/** The shipped specification: an anchor per rule, every link inside the repository, every source line its section. */
const root = fileURLToPath(new URL('../../', import.meta.url));
const docs = buildSpecification(root);
const rules = readdirSync(join(root, 'spec/rules')).filter((f) => f.endsWith('.rules.json'))
  .flatMap((f) => (JSON.parse(readFileSync(join(root, 'spec/rules', f), 'utf8')) as RuleCatalogFile).rules);

test('every rule has exactly one anchor, in its family\'s document, with its level and statement', () => {
  for (const r of rules) {
    const [file, anchor] = specificationLink(r).split('#');
    const doc = docs[file];
    assert.ok(doc, `${r.id}: no ${file}`);
    const all = Object.values(docs).join('\n').split(`<a id="${anchor}"></a>`).length - 1;
    assert.equal(all, 1, `${r.id}: ${all} anchors`);
    const section = doc.slice(doc.indexOf(`<a id="${anchor}"></a>`)).split('\n## ')[0];
    assert.ok(section.includes(`**${r.level}**`) && section.includes(r.statement.replace(/\r?\n/g, ' ').trim()), r.id);
  }
});

test('every link of the specification names a file inside the repository, and a source line starts its section', () => {
  for (const [file, text] of Object.entries(docs)) {
    for (const [, target] of text.matchAll(/\]\(([^)]+)\)/g)) {
      assert.ok(!/^[a-z]+:/i.test(target), `${file}: link out of the repository: ${target}`);
      const [path, fragment] = target.split('#');
      const resolved = join(root, dirname(file), path);
      assert.ok(!relative(root, resolved).startsWith('..'), `${file}: ${target} leaves the repository`);
      assert.ok(existsSync(resolved) || path in docs || `${dirname(file)}/${path}` in docs, `${file}: ${target} does not exist`);
      if (fragment?.startsWith('L')) assert.ok(Number(fragment.slice(1)) <= readFileSync(resolved, 'utf8').split('\n').length, `${file}: ${target} past the end`);
    }
  }
});

test('the section line is the heading, or the numbered item under it; absent sections have none', () => {
  const text = '# Doc\n## Errors\n1. first\n11. Order of checks\n## Reads\n11. other\n';
  assert.equal(sectionLine(text, 'Errors'), 2);
  assert.equal(sectionLine(text, 'Errors #11'), 4);
  assert.equal(sectionLine(text, 'Reads #11'), 6);
  assert.equal(sectionLine(text, 'Errors #12'), undefined);
  assert.equal(sectionLine(text, 'Writes'), undefined);
});
