/**
 * pathOf finds a resource's path entry by one lookup in an index of the document's paths: it
 * must find what a scan of every path for the first one ending with the entry found.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { pathOf, type OpenApiDocument } from '../interface-description.js';
import { target } from '../target.js';

const segment = target.dataApi.namespaceSegment;

/** The scan pathOf replaced: the first path, in order, ending with the entry without case. */
function scanned(doc: OpenApiDocument, endpoint: string, suffix: string) {
  const want = `/${segment}/${endpoint}${suffix}`.toLowerCase();
  const key = Object.keys(doc.paths).find((k) => k.toLowerCase().endsWith(want));
  return key ? doc.paths[key] : undefined;
}

const docOf = (keys: string[]): OpenApiDocument => ({ info: { version: '1' }, paths: Object.fromEntries(keys.map((k, i) => [k, { get: { responses: { [String(200 + i)]: {} } } }])) });

test('finds the first path ending with the entry, whatever the prefix, the case, or the segment repeated', () => {
  const doc = docOf([`/data/v3/${segment}/schools`, `/data/v3/${segment}/schools/{id}`, `/x/${segment.toUpperCase()}/Students`, `/${segment}/${segment}/sessions`, `/other/${segment}/sessions`]);
  assert.equal(pathOf(doc, 'schools'), doc.paths[`/data/v3/${segment}/schools`]);
  assert.equal(pathOf(doc, 'schools', '/{id}'), doc.paths[`/data/v3/${segment}/schools/{id}`]);
  assert.equal(pathOf(doc, 'students'), doc.paths[`/x/${segment.toUpperCase()}/Students`]);
  assert.equal(pathOf(doc, 'sessions'), doc.paths[`/${segment}/${segment}/sessions`], 'the first of two paths ending alike');
  assert.equal(pathOf(doc, `${segment}/sessions`), doc.paths[`/${segment}/${segment}/sessions`], 'an ending that starts at an earlier segment');
  assert.equal(pathOf(doc, 'staffs'), undefined);
  assert.equal(pathOf(doc, 'chools'), undefined, 'a path ending with the name but not at a segment boundary');
});

test('agrees with a scan of every path, for any paths and entries', () => {
  const word = fc.constantFrom('a', 'b', 'A', segment, segment.toUpperCase(), '{id}', 'deletes');
  const path = fc.array(word, { minLength: 1, maxLength: 5 }).map((w) => `/${w.join('/')}`);
  fc.assert(fc.property(fc.uniqueArray(path, { maxLength: 12 }), fc.array(word, { minLength: 1, maxLength: 3 }), fc.constantFrom('', '/{id}', '/deletes'), (keys, endpoint, suffix) => {
    const doc = docOf(keys);
    assert.equal(pathOf(doc, endpoint.join('/'), suffix), scanned(doc, endpoint.join('/'), suffix));
  }), { numRuns: 2000 });
});
