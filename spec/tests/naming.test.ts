import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { NEUTRAL_NAMES, UPSTREAM_NAMES, renameDocument, schemaPrefixOf } from '../naming/profiles.js';

/**
 * The generated interface descriptions are written in the seed's neutral names; a deployment
 * with upstream's names serves them renamed. The renamed documents must be whole: every path
 * under the new segment, every schema renamed with its references, no neutral name left over.
 */
// The documents of the seed's standard, 4.0 (every standard's are renamed the same way).
const documents = ['resources', 'descriptors'].map((n) => JSON.parse(readFileSync(new URL(`../openapi-standards/ds-4.0/${n}.json`, import.meta.url), 'utf8')) as { paths: Record<string, unknown>; components: { schemas: Record<string, unknown> } });

test('schema prefixes follow the data model name as upstream derives them', () => {
  assert.equal(schemaPrefixOf('Ed-Fi'), 'edFi_');
  assert.equal(schemaPrefixOf('Core'), 'core_');
});

test('neutral names leave a document as generated', () => {
  for (const d of documents) assert.equal(renameDocument(d, NEUTRAL_NAMES), d);
});

test('upstream names rename paths, schemas, references and extensions, and leave nothing neutral or dangling', () => {
  for (const d of documents) {
    const renamed = renameDocument(d, UPSTREAM_NAMES);
    const text = JSON.stringify(renamed);
    assert.equal(Object.keys(renamed.paths).length, Object.keys(d.paths).length);
    assert.ok(Object.keys(renamed.paths).every((p) => p.startsWith('/ed-fi/')), 'every path under /ed-fi/');
    const modelSchemas = (names: string[], prefix: string) => names.filter((s) => s.startsWith(prefix)).length;
    assert.equal(modelSchemas(Object.keys(renamed.components.schemas), 'edFi_'), modelSchemas(Object.keys(d.components.schemas), 'core_'), 'every model schema edFi_');
    for (const neutral of ['"/core/', '"core_', '#/components/schemas/core_', '"x-Core-']) assert.ok(!text.includes(neutral), `no ${neutral} left`);
    assert.ok(text.includes('"x-Ed-Fi-isIdentity":true'));
    for (const [, ref] of text.matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)) assert.ok(ref in renamed.components.schemas, `dangling $ref ${ref}`);
  }
  assert.ok('/ed-fi/schools' in renameDocument(documents[0], UPSTREAM_NAMES).paths);
});
