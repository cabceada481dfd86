import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { startForTest } from './helpers.js';

const descriptor = (code: string) => JSON.stringify({ codeValue: code, namespace: 'uri://test/GradeLevelDescriptor', shortDescription: code });

test('a durable store keeps records, deletes and change versions across a restart', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'store-'));
  const dataStore = `file:${join(dir, 'store.json')}`;
  const first = await startForTest({ dataStore });
  for (const code of ['A', 'B', 'C']) assert.equal((await first.data('gradeLevelDescriptors', { method: 'POST', body: descriptor(code) })).status, 201);
  const location = (await first.data('gradeLevelDescriptors', { method: 'POST', body: descriptor('D') })).headers.get('location')!;
  assert.equal((await fetch(location, { method: 'DELETE', headers: { Authorization: `Bearer ${first.token}` } })).status, 204);
  const version = first.store.newestChangeVersion;
  // No clean shutdown: the journal alone must carry every acknowledged write.
  const again = await startForTest({ dataStore, port: 0 });
  try {
    const list = (await (await again.data('gradeLevelDescriptors')).json()) as { codeValue: string }[];
    assert.deepEqual(list.map((d) => d.codeValue), ['A', 'B', 'C']);
    assert.equal(again.store.newestChangeVersion, version);
    const deletes = (await (await again.data('gradeLevelDescriptors/deletes')).json()) as unknown[];
    assert.equal(deletes.length, 1);
    assert.equal((await again.data('gradeLevelDescriptors', { method: 'POST', body: descriptor('E') })).status, 201);
    assert.ok(again.store.newestChangeVersion > version);
  } finally {
    await again.close();
    await first.close().catch(() => undefined);
  }
  assert.ok(readdirSync(dir).includes('store.json'), 'closing compacts into the state file');
});

test('with journalFsync a durable store journals and reloads the same way', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'store-fsync-'));
  const dataStore = `file:${join(dir, 'store.json')}`;
  const first = await startForTest({ dataStore, journalFsync: true });
  assert.equal(first.settings.journalFsync, true);
  for (const code of ['A', 'B']) assert.equal((await first.data('gradeLevelDescriptors', { method: 'POST', body: descriptor(code) })).status, 201);
  const again = await startForTest({ dataStore, port: 0 });
  try {
    const list = (await (await again.data('gradeLevelDescriptors')).json()) as { codeValue: string }[];
    assert.deepEqual(list.map((d) => d.codeValue), ['A', 'B']);
  } finally {
    await again.close();
    await first.close().catch(() => undefined);
  }
});
