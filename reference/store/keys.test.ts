import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { model } from '../../spec/model/index.js';
import { compileServed } from '../../spec/model/served.js';
import { dataStandards } from '../../spec/model/upstream.js';
import { startForTest } from '../tests/helpers.js';
import { keyText, naturalKeyOfValues } from './keys.js';

/** Natural keys compare after Unicode NFC (issue 23 finding 8): one key, one record. */

const COMPOSED = 'Zo\u00eb';
const DECOMPOSED = 'Zoe\u0308';

test('one text in two Unicode spellings is one key; case counts only where descriptors are compared', () => {
  const student = model.byName.get('student')!;
  const descriptor = model.byName.get('gradeLevelDescriptor')!;
  assert.notEqual(COMPOSED, DECOMPOSED);
  assert.equal(naturalKeyOfValues(student, [DECOMPOSED]), naturalKeyOfValues(student, [COMPOSED]));
  assert.notEqual(naturalKeyOfValues(student, ['zo\u00eb']), naturalKeyOfValues(student, [COMPOSED]), 'other keys compare case and all');
  assert.equal(naturalKeyOfValues(descriptor, ['uri://x', DECOMPOSED.toUpperCase()]), naturalKeyOfValues(descriptor, ['URI://X', 'zo\u00eb']));
  assert.deepEqual([keyText('A\u030a'), keyText('\u212b'), keyText('ASCII'), keyText('ASCII', true)], ['\u00c5', '\u00c5', 'ASCII', 'ascii']);
  // Numbers stay numbers.
  assert.equal(naturalKeyOfValues(model.byName.get('school')!, [255901]), '[255901]');
});

test('every descriptor a member names is keyed by namespace and code value, compared case-insensitively, in every standard (findDescriptor keeps one key string per value, whatever the descriptor)', () => {
  for (const standard of dataStandards) {
    const served = compileServed(standard);
    const named = new Set(served.resources.flatMap((r) => r.descriptors.map((d) => `${d.descriptor}Descriptor`)));
    assert.ok(named.size > 100, `${standard}: ${named.size} descriptors named`);
    for (const name of named) {
      const resource = served.byName.get(name);
      if (!resource) continue; // findDescriptor finds nothing: no key is made
      assert.ok(resource.isDescriptor, `${standard} ${name} is a descriptor`);
      assert.deepEqual(resource.identity.map((p) => p.path), ['$.namespace', '$.codeValue'], `${standard} ${name}`);
    }
  }
});

type Ref = Awaited<ReturnType<typeof startForTest>>;
let ref: Ref;
before(async () => { ref = await startForTest(); });
after(async () => { await ref.close(); });

test('a write spelled the other way updates the record instead of making a second one, and a lookup finds it either way', async () => {
  const post = (endpoint: string, body: unknown) => ref.data(endpoint, { method: 'POST', body: JSON.stringify(body) });
  const student = (id: string, firstName: string) => ({ studentUniqueId: id, firstName, lastSurname: 'L', birthDate: '2010-01-02' });
  const first = await post('students', student(COMPOSED, 'A'));
  assert.equal(first.status, 201, await first.text());
  const second = await post('students', student(DECOMPOSED, 'B'));
  assert.equal(second.status, 200, await second.text());
  assert.equal(second.headers.get('location'), first.headers.get('location'));
  const records = [...ref.store.collection('student').byId.values()];
  assert.deepEqual(records.map((r) => (r.doc as { firstName: string }).firstName), ['B']);
  // References resolve through the same key.
  const byKey = ref.store.collection('student').byKey;
  assert.equal(byKey.get(naturalKeyOfValues(model.byName.get('student')!, [COMPOSED])), records[0]);
});
