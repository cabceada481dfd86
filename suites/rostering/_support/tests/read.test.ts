import assert from 'node:assert/strict';
import { test } from 'node:test';
import { allValues, heldMark, holdsNoRecord, ownValues, recordIn, recordsIn } from '../read.js';

test('a collection is an array of records, or an object holding one, whatever its key', () => {
  const records = [{ sourcedId: 'a' }, { sourcedId: 'b' }];
  assert.deepEqual(recordsIn({ orgs: records }), records);
  assert.deepEqual(recordsIn({ data: records, total: 2, next: null }), records, 'other members beside the one array');
  assert.deepEqual(recordsIn(records), records);
  assert.deepEqual(recordsIn({ orgs: [] }), []);
  for (const body of [undefined, null, 'text', 3, {}, { a: records, b: records }, { orgs: [1, 2] }, [null], { orgs: 'x' }]) {
    assert.equal(recordsIn(body), undefined, JSON.stringify(body));
  }
});

test('a single read is the one object member of an envelope, else the body', () => {
  assert.deepEqual(recordIn({ org: { sourcedId: 'a' } }), { sourcedId: 'a' });
  assert.deepEqual(recordIn({ sourcedId: 'a', name: 'n' }), { sourcedId: 'a', name: 'n' });
  assert.equal(recordIn(null), undefined);
});

test('a record\'s own values leave out the records it refers to', () => {
  const school = { sourcedId: 's', name: 'School', identifier: '7', parent: { href: '/orgs/d', sourcedId: 'd', type: 'org' }, children: [{ sourcedId: 'c' }], userIds: [{ type: 'id', identifier: 'u1' }], grades: ['9'] };
  assert.deepEqual(ownValues(school).sort(), ['7', '9', 'School', 'id', 's', 'u1'].sort());
  assert.ok(allValues(school).includes('d') && allValues(school).includes('c'), 'references count where a sourcedId is looked for');
  assert.equal(heldMark(school, ['x', 7 as unknown as string, '7']), '7');
  assert.equal(heldMark(school, ['d']), undefined, 'the district is only referred to');
});

test('no record: null, empty, or an envelope of null or empty', () => {
  for (const body of [null, undefined, {}, [], { org: null }, { org: {} }, { demographics: [] }]) assert.equal(holdsNoRecord(body), true, JSON.stringify(body));
  for (const body of [{ org: { sourcedId: 'a' } }, { sourcedId: 'a' }, [{}], { org: null, other: 'x' }]) assert.equal(holdsNoRecord(body), false, JSON.stringify(body));
});
