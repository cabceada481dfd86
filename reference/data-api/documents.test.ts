/**
 * GET answers a record's kept text (renderedJson) only while it is the text of what is stored:
 * the same bytes as serialising render(record), and a new text once the document, `_etag` or
 * `_lastModifiedDate` changes (a write, a rollback), for every record read, however many.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { stringifyExact } from '../http/exact-json.js';
import type { StoredRecord } from '../store/store.js';
import fc from 'fast-check';
import { canonical, render, renderedJson, sameDocument } from './documents.js';

const record = (n: number): StoredRecord => ({
  id: `${n}`.padStart(32, '0'), resource: 'school', doc: { schoolId: n, nameOfInstitution: `School ${n}`, big: 9007199254740993n },
  key: `[${n}]`, etag: `e${n}`, lastModified: '2026-11-27T00:00:00.000Z', changeVersion: n, created: n,
});

test('the kept text is the serialised rendering, big integers exact', () => {
  const r = record(1);
  assert.equal(renderedJson(r), stringifyExact(render(r)));
  assert.match(renderedJson(r), /"big":9007199254740993/);
});

test('a new document, etag or last-modified date gives a new text', () => {
  const r = record(2);
  renderedJson(r);
  r.doc = { ...r.doc, nameOfInstitution: 'Renamed' };
  assert.match(renderedJson(r), /Renamed/);
  r.etag = 'e2b';
  assert.match(renderedJson(r), /"_etag":"e2b"/);
  r.lastModified = '2026-11-28T00:00:00.000Z';
  assert.match(renderedJson(r), /2026-11-28/);
  // A rollback: the earlier values back, in new objects.
  Object.assign(r, { doc: { ...record(2).doc }, etag: 'e2', lastModified: '2026-11-27T00:00:00.000Z' });
  assert.equal(renderedJson(r), stringifyExact(render(r)));
});

test('past the limit of kept texts every record is still answered as stored', () => {
  const records = Array.from({ length: 12_000 }, (_, i) => record(100 + i));
  for (const r of records) renderedJson(r);
  for (const r of [records[0], records[5_000], records[11_999]]) {
    r.etag = `${r.etag}-changed`;
    assert.equal(renderedJson(r), stringifyExact(render(r)));
  }
});

/** The same members in another order, and every collection's items in another order. */
function shuffled(v: unknown, rnd: () => number): unknown {
  if (Array.isArray(v)) return v.map((x) => shuffled(x, rnd)).map((x) => [rnd(), x] as const).sort((p, q) => p[0] - q[0]).map(([, x]) => x);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, shuffled(x, rnd)] as const).sort(() => rnd() - 0.5));
  return v;
}

test('two documents are the same exactly when their canonical texts are: member and item order aside, big integers exact', () => {
  const value = fc.oneof(fc.jsonValue({ maxDepth: 4 }), fc.bigInt({ min: 2n ** 60n, max: 2n ** 64n }));
  const doc = fc.dictionary(fc.string({ maxLength: 4 }), fc.oneof(value, fc.array(value, { maxLength: 4 }), fc.array(fc.dictionary(fc.constantFrom('a', 'b', 'c'), value), { maxLength: 4 })));
  fc.assert(fc.property(doc, doc, fc.integer(), (a, b, seed) => {
    let s = seed;
    const rnd = () => ((s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    assert.equal(sameDocument(a, shuffled(a, rnd)), true);
    assert.equal(sameDocument(a, b), canonical(a) === canonical(b));
    assert.equal(sameDocument(b, a), canonical(a) === canonical(b));
  }), { numRuns: 2_000 });
  assert.equal(sameDocument({ n: 9007199254740993n }, { n: 9007199254740992n }), false);
  assert.equal(sameDocument({ l: [{ a: 1 }, { a: 2 }] }, { l: [{ a: 2 }, { a: 1 }] }), true);
  assert.equal(sameDocument({ l: [{ a: 1 }, { a: 1 }] }, { l: [{ a: 1 }, { a: 2 }] }), false);
  assert.equal(sameDocument({ a: 1 }, { a: 1, b: 2 }), false);
  assert.equal(sameDocument({ a: true }, { a: 'true' }), false);
});
