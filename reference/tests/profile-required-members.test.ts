import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startForTest } from './helpers.js';

/**
 * A writable profile that leaves out a required member (here a descriptor's shortDescription)
 * cannot create: what would be stored lacks the member, so the create is refused as a body
 * without it would be (400 at its path), and nothing is stored. An update through the same
 * profile keeps the stored value and succeeds (seed Endpoints rule 8: only the members the
 * profile makes writable are stored).
 */
test('a create through a writable profile without a required member is refused; an update keeps the stored member', async () => {
  const ref = await startForTest({
    clients: [{ key: 'test', secret: 'test-secret', namespacePrefixes: ['uri://t.test'], profiles: ['No-Short'] }],
    profiles: [{ name: 'No-Short', resources: { absenceEventCategoryDescriptors: { write: { exclude: ['shortDescription'] } } } }],
    warmValidators: false,
  });
  try {
    const writable = 'application/vnd.core.absenceeventcategorydescriptor.no-short.writable+json';
    const body = { codeValue: 'Sick', namespace: 'uri://t.test/AbsenceEventCategoryDescriptor', shortDescription: 'Sick' };
    const created = await ref.data('absenceEventCategoryDescriptors', { method: 'POST', headers: { 'Content-Type': writable }, body: JSON.stringify(body) });
    assert.equal(created.status, 400, 'the create lacks shortDescription');
    assert.deepEqual(((await created.json()) as { validationErrors: unknown }).validationErrors, { '$.shortDescription': ['shortDescription is required.'] });
    const none = await ref.data(`absenceEventCategoryDescriptors?codeValue=Sick`);
    assert.deepEqual(await none.json(), [], 'nothing stored');

    // Stored without the profile (an unprofiled client writes it), then updated through it.
    ref.store.create(ref.store.model.byName.get('absenceEventCategoryDescriptor')!, { ...body, absenceEventCategoryDescriptorId: ref.store.nextDescriptorId() });
    const updated = await ref.data('absenceEventCategoryDescriptors', { method: 'POST', headers: { 'Content-Type': writable }, body: JSON.stringify({ ...body, shortDescription: 'Changed', description: 'now described' }) });
    assert.equal(updated.status, 200, await updated.text());
  } finally {
    await ref.close();
  }
});
