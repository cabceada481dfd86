import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checksummedLine } from './checksummed-lines.js';
import { decodeState, describeLost, encodeState, StoreFileError, type PersistedState } from './state-file.js';

/**
 * The state file's integrity (issue 23 point 5): one checksummed line per record and change
 * event after a counting header, so that any changed byte, and a file cut short, is caught at
 * start-up in the line it hit, and recovery drops and names exactly what was lost.
 */
const record = (n: number) => ({ id: `id${n}`, resource: 'gradeLevelDescriptor', doc: { codeValue: `C${n}`, shortDescription: `about ${n}` }, key: `["c${n}"]`, etag: String(n), lastModified: '2026-01-01T00:00:00.000Z', changeVersion: n, created: n });
const state: PersistedState = {
  generation: 3,
  version: 12,
  descriptorIds: 4,
  collections: {
    gradeLevelDescriptor: { records: [record(1), record(2), record(3)], deletes: [{ id: 'id9', changeVersion: 9, key: '["c9"]', keyValues: { codeValue: 'C9' } }], keyChanges: [] },
    school: { records: [{ ...record(5), resource: 'school' }], deletes: [], keyChanges: [{ id: 'id5', changeVersion: 5, oldKeyValues: { schoolId: 1 }, newKeyValues: { schoolId: 2 } }] },
  },
};
const text = encodeState(state);
const FILE = '/srv/store.json';
const lines = text.split('\n');

test('a state file reads back as the state it was written from, one line per record and event after the header', () => {
  assert.equal(lines.length, 1 + 6 + 1, 'header, 4 records, 1 delete, 1 key change, final newline');
  const { state: read, lost, legacy } = decodeState(FILE, text, false);
  assert.deepEqual(JSON.parse(JSON.stringify(read)), JSON.parse(JSON.stringify(state)));
  assert.equal(lost.size, 0);
  assert.equal(legacy, false);
});

test('one changed byte anywhere in a record (its key, its content) stops loading, naming the file and line', () => {
  for (const [from, to, line] of [['"key":"[\\"c2\\"]"', '"key":"[\\"d2\\"]"', 3], ['about 3', 'abouT 3', 4], ['"changeVersion":9', '"changeVersion":8', 5]] as const) {
    const damaged = text.replace(from, to);
    assert.notEqual(damaged, text);
    assert.throws(() => decodeState(FILE, damaged, false), (err: Error) => err instanceof StoreFileError && err.message.includes(FILE) && err.message.includes(`damaged at line ${line} (byte `) && err.message.includes('--recover') && !err.message.includes('about'));
  }
});

test('recovery drops the damaged lines and counts the records lost by resource', () => {
  const damaged = text.replace('about 3', 'abouT 3').replace('"schoolId":2', '"schoolId":3');
  const { state: read, lost } = decodeState(FILE, damaged, true);
  assert.deepEqual(read.collections.gradeLevelDescriptor.records.map((r) => r.id), ['id1', 'id2']);
  assert.deepEqual(read.collections.school.keyChanges, []);
  assert.deepEqual([...lost], [['gradeLevelDescriptor', 1], ['school', 1]]);
  assert.equal(describeLost(lost), '2 records (gradeLevelDescriptor 1, school 1)');
});

test('a file cut short is told by its header\'s count; recovery says how many records are missing', () => {
  const cut = lines.slice(0, 4).join('\n') + '\n';
  assert.throws(() => decodeState(FILE, cut, false), /is truncated: 3 of its 6 records are missing/);
  assert.deepEqual([...decodeState(FILE, cut, true).lost], [['unknown', 3]]);
  // Cut inside a line: that line fails its checksum too.
  const mid = text.slice(0, text.indexOf('about 2') + 3);
  assert.deepEqual([...decodeState(FILE, mid, true).lost], [['gradeLevelDescriptor', 1], ['unknown', 4]]);
});

test('a damaged header is never recovered: it says which journals follow', () => {
  const damaged = text.replace('"generation":3', '"generation":4');
  for (const recover of [false, true]) assert.throws(() => decodeState(FILE, damaged, recover), /its first line \(the header\) is damaged/);
});

test('an earlier version\'s state file (one JSON document, no checksums) is still read', () => {
  const { state: read, legacy } = decodeState(FILE, JSON.stringify({ ...state, descriptorIds: undefined }), false);
  assert.equal(legacy, true);
  assert.equal(read.descriptorIds, 0);
  assert.equal(read.collections.gradeLevelDescriptor.records.length, 3);
  assert.throws(() => decodeState(FILE, '{"generation":1,"vers', false), /not valid JSON/);
  assert.throws(() => decodeState(FILE, '[1,2]', false), /not a data store state/);
  assert.throws(() => decodeState(FILE, ' \n', false), /it is empty/);
});

test('a line naming __proto__ as its resource (checksum and all) writes no prototype', () => {
  const proto = text.split('\n');
  proto[1] = checksummedLine({ r: '__proto__', rec: record(7) }).trimEnd();
  const { state: read } = decodeState(FILE, proto.join('\n'), false);
  assert.equal(({} as Record<string, unknown>).records, undefined);
  assert.equal(Object.getPrototypeOf(read.collections), null);
});
