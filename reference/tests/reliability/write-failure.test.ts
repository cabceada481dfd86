import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { model } from '../../../spec/model/index.js';
import { StoreRegistry } from '../../store/registry.js';
import { startForTest } from '../helpers.js';
import { referenceProblems } from './invariants.js';

/**
 * A write answered 5xx leaves no trace (issue 15 point 4): when its journal record cannot be
 * written, the change is taken back in memory, so neither the next read nor the next start sees
 * it. The journal is made unwritable by putting a directory where the journal file is.
 */
const descriptor = (code: string) => ({ codeValue: code, namespace: 'uri://write-failure.test/GradeLevelDescriptor', shortDescription: code });
const idOf = (location: string | null) => String(location).split('/').pop()!;

test('a write whose journal record cannot be written is answered 5xx and leaves no trace, in memory or after a restart', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'write-failure-'));
  const file = join(dir, 'store.json');
  const journal = `${file}.journal.0`;
  const ref = await startForTest({ dataStore: `file:${file}`, demoData: true });
  const breakJournal = () => { renameSync(journal, `${journal}.aside`); mkdirSync(journal); };
  const mendJournal = () => { rmSync(journal, { recursive: true }); renameSync(`${journal}.aside`, journal); };
  let versionBefore: number;
  let keptId: string;
  let periodId: string;
  let periodBefore: unknown;
  try {
    const kept = await ref.data('gradeLevelDescriptors', { method: 'POST', body: JSON.stringify(descriptor('Kept')) });
    assert.equal(kept.status, 201);
    keptId = idOf(kept.headers.get('location'));
    // A referenced class period: renaming it cascades into the records that reference it.
    const period = [...ref.store.collection('classPeriod').byId.values()].find((p) => ref.store.references.referrers(p).size)!;
    assert.ok(period, 'a referenced class period in the demo data');
    periodId = period.id;
    periodBefore = await (await ref.data(`classPeriods/${periodId}`)).json();
    versionBefore = ref.store.newestChangeVersion;

    breakJournal();
    const post = await ref.data('gradeLevelDescriptors', { method: 'POST', body: JSON.stringify(descriptor('Lost')) });
    assert.ok(post.status >= 500, `POST with an unwritable journal: ${post.status}`);
    const del = await ref.data(`gradeLevelDescriptors/${keptId}`, { method: 'DELETE' });
    assert.ok(del.status >= 500, `DELETE with an unwritable journal: ${del.status}`);
    const { id, _etag, _lastModifiedDate, ...doc } = periodBefore as Record<string, unknown>;
    const put = await ref.data(`classPeriods/${periodId}`, { method: 'PUT', body: JSON.stringify({ ...doc, classPeriodName: 'Renamed in vain' }) });
    assert.ok(put.status >= 500, `key-changing PUT with an unwritable journal: ${put.status}`);
    mendJournal();

    const lost = (await (await ref.data(`gradeLevelDescriptors?codeValue=Lost`)).json()) as unknown[];
    assert.deepEqual(lost, [], 'the POST answered 5xx created nothing');
    assert.equal((await ref.data(`gradeLevelDescriptors/${keptId}`)).status, 200, 'the DELETE answered 5xx deleted nothing');
    assert.deepEqual(await (await ref.data(`classPeriods/${periodId}`)).json(), periodBefore, 'the PUT answered 5xx changed nothing');
    assert.equal(ref.store.newestChangeVersion, versionBefore, 'no change version was taken');
    assert.deepEqual(referenceProblems(ref.store), [], 'the reference index is as before the failed writes');
    // A retry is a create again, not an update of a ghost.
    assert.equal((await ref.data('gradeLevelDescriptors', { method: 'POST', body: JSON.stringify(descriptor('Lost')) })).status, 201);
    assert.equal((await ref.data(`gradeLevelDescriptors/${keptId}`, { method: 'DELETE' })).status, 204);
  } finally {
    await ref.close();
  }
  // The next start (the compacted state written at close, plus the journal) agrees.
  const again = new StoreRegistry(model).open(`file:${file}`);
  rmSync(dir, { recursive: true, force: true });
  const codes = [...again.collection('gradeLevelDescriptor').byId.values()].map((r) => r.doc.codeValue).filter((c) => c === 'Lost' || c === 'Kept');
  assert.deepEqual(codes, ['Lost'], 'after a restart: the retried create only');
  assert.equal(again.collection('classPeriod').byId.get(periodId)?.doc.classPeriodName, (periodBefore as { classPeriodName: string }).classPeriodName);
  assert.equal(again.newestChangeVersion, versionBefore + 2);
});
