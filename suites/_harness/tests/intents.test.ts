/**
 * What a POST announces before it is sent (intents.ts): the collection queried by the body's
 * natural key, only where what that query finds can be nothing but the run's own record.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { intentOf, runMade } from '../intents.js';

const root = 'http://h/api/data/v3/ed-fi';
const marker = 'zq93kx';

test('a creation announces its collection queried by every identity member, reference key members included', () => {
  assert.equal(intentOf(`${root}/schools`, { schoolId: 255901001, nameOfInstitution: 'x' }, { creating: true, marker }), `${root}/schools?schoolId=255901001`);
  const body = { studentReference: { studentUniqueId: `s${marker}-1` }, schoolReference: { schoolId: 7 }, entryDate: '2024-08-01', entryGradeLevelDescriptor: 'uri://ed-fi.org/GradeLevelDescriptor#First grade' };
  const intent = intentOf(`${root}/studentSchoolAssociations`, body, { creating: false, marker });
  assert.ok(intent?.startsWith(`${root}/studentSchoolAssociations?`), intent);
  const query = new URL(intent!).searchParams;
  assert.deepEqual(Object.fromEntries(query), { entryDate: '2024-08-01', schoolId: '7', studentUniqueId: `s${marker}-1` });
  // An int64 id past 2^53, held as a bigint (exact-json.ts), by its digits.
  assert.equal(intentOf(`${root}/schools`, { schoolId: 2n ** 63n - 3n }, { creating: true, marker }), `${root}/schools?schoolId=9223372036854775805`);
  assert.equal(intentOf(`${root}/academicSubjectDescriptors`, { namespace: 'uri://x.org/A B', codeValue: `c${marker}`, shortDescription: 'c' }, { creating: false, marker }),
    `${root}/academicSubjectDescriptors?namespace=uri%3A%2F%2Fx.org%2FA%20B&codeValue=c${marker}`);
});

test('no intent without a whole key, outside a resource collection, for a body not an object, or for a key the run did not make', () => {
  assert.equal(intentOf(`${root}/schools`, { nameOfInstitution: 'x' }, { creating: true, marker }), undefined, 'a key member missing');
  assert.equal(intentOf(`${root}/schools`, { schoolId: { n: 1 } }, { creating: true, marker }), undefined, 'a key member not a scalar');
  assert.equal(intentOf(`${root}/schools/abc`, { schoolId: 1 }, { creating: true, marker }), undefined, 'an item URL');
  assert.equal(intentOf(`${root}/schools?x=1`, { schoolId: 1 }, { creating: true, marker }), undefined, 'a URL with a query');
  assert.equal(intentOf(`${root}/notAResource`, { schoolId: 1 }, { creating: true, marker }), undefined);
  assert.equal(intentOf(`${root}/schools`, [{ schoolId: 1 }], { creating: true, marker }), undefined);
  assert.equal(intentOf(`${root}/schools`, 'text', { creating: true, marker }), undefined);
  assert.equal(intentOf(`${root}/schools`, { schoolId: 255901044 }, { creating: false, marker }), undefined, 'a deployment-like id not made by the run');
  runMade(255901044);
  assert.equal(intentOf(`${root}/schools`, { schoolId: 255901044 }, { creating: false, marker }), `${root}/schools?schoolId=255901044`, 'once the run drew it');
  assert.equal(intentOf(`${root}/academicSubjectDescriptors`, { namespace: 'uri://x.org/A', codeValue: 'Math' }, { creating: false, marker }), undefined);
});
