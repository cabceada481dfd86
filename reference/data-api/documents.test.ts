/**
 * GET answers a record's kept text (renderedJson) only while it is the text of what is stored:
 * the same bytes as serialising render(record), and a new text once the document, `_etag` or
 * `_lastModifiedDate` changes (a write, a rollback), for every record read, however many.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { stringifyExact } from '../http/exact-json.js';
import type { StoredRecord } from '../store/store.js';
import { render, renderedJson } from './documents.js';

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
