import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadSettings } from '../config/load.js';
import { startForTest } from '../tests/helpers.js';

/**
 * Per-client record quota (issue 23 point 10): a client holding its quota of records gets 403
 * `record-quota-exceeded` for a create, while its updates and deletes go on and a delete frees
 * one; other clients are not affected; the count survives a restart (records keep their owner).
 */
const descriptor = (code: string, shortDescription = code) => JSON.stringify({ codeValue: code, namespace: 'uri://quota.test/GradeLevelDescriptor', shortDescription });
const CLIENTS = [{ key: 'test', secret: 'test-secret' }, { key: 'other', secret: 'other-secret', recordQuota: 1 }];

test('a create beyond the quota is refused 403 record-quota-exceeded; updates and deletes go on; a delete frees one; a restart keeps the count', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'quota-'));
  const dataStore = `file:${join(dir, 'store.json')}`;
  const ref = await startForTest({ recordQuota: 2, clients: CLIENTS, dataStore });
  let again: Awaited<ReturnType<typeof startForTest>> | undefined;
  try {
    const post = (code: string, shortDescription?: string) => ref.data('gradeLevelDescriptors', { method: 'POST', body: descriptor(code, shortDescription) });
    assert.equal((await post('A')).status, 201);
    const b = await post('B');
    assert.equal(b.status, 201);
    const refused = await post('C');
    assert.equal(refused.status, 403);
    assert.equal(refused.headers.get('content-type'), 'application/json; charset=utf-8');
    const problem = (await refused.json()) as { type: string; title: string; status: number; errors: string[] };
    assert.equal(problem.type, 'urn:core:api:record-quota-exceeded');
    assert.equal(problem.title, 'Record Quota Exceeded');
    assert.equal(problem.status, 403);
    assert.match(problem.errors[0], /'test' holds 2 records/);
    assert.equal((await ref.data('gradeLevelDescriptors?codeValue=C')).headers.get('content-length'), '2', 'nothing was created');
    assert.equal((await post('A', 'changed')).status, 200, 'an update at the quota goes on');
    assert.equal((await fetch(b.headers.get('location')!, { method: 'DELETE', headers: { Authorization: `Bearer ${ref.token}` } })).status, 204);
    assert.equal((await post('C')).status, 201, 'a delete freed one');
    assert.equal((await post('D')).status, 403);
    // Records the store held before (demo data, other clients) count for nobody.
    assert.equal(ref.store.recordsOwnedBy('test'), 2);
    assert.equal(ref.store.recordsOwnedBy('other'), 0);

    // After a restart (no clean shutdown: the journal alone) the count is the same.
    again = await startForTest({ recordQuota: 2, clients: CLIENTS, dataStore, port: 0 });
    assert.equal(again.store.recordsOwnedBy('test'), 2);
    assert.equal((await again.data('gradeLevelDescriptors', { method: 'POST', body: descriptor('E') })).status, 403);
  } finally {
    await again?.close();
    await ref.close().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a client\'s own recordQuota wins over the global one; without either there is no limit', () => {
  const settings = loadSettings(undefined, { recordQuota: 5, clients: [...CLIENTS, { key: 'zero', secret: 's', recordQuota: 0 }] });
  assert.deepEqual(settings.clients.map((c) => [c.key, c.recordQuota]), [['test', 5], ['other', 1], ['zero', 0]]);
  assert.deepEqual(loadSettings(undefined, { clients: CLIENTS }).clients.map((c) => c.recordQuota), [undefined, 1]);
});
