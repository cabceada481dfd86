import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { AdminDatabase, AdminDatabaseError, DecryptionError, encryptConnectionString, looksEncrypted, newEncryptionKey, parseEncryptionKey, readConnectionString } from './index.js';

test('an encrypted connection string reads back with the key, and is three base64 segments', () => {
  const key = parseEncryptionKey(newEncryptionKey());
  const stored = encryptConnectionString('memory:default', key);
  assert.equal(stored.split('|').length, 3);
  assert.equal(looksEncrypted(stored), true);
  assert.equal(readConnectionString(stored, key), 'memory:default');
  assert.notEqual(encryptConnectionString('memory:default', key), stored, 'a fresh IV each time');
});

test('a value not in the encrypted form is plain text', () => {
  assert.equal(readConnectionString('host=db;database=ods', undefined), 'host=db;database=ods');
  assert.equal(looksEncrypted('a|b'), false);
  assert.equal(looksEncrypted('a||b'), false);
});

test('a tampered ciphertext or another key is refused without revealing the value', () => {
  const key = parseEncryptionKey(newEncryptionKey());
  const [iv, ct, mac] = encryptConnectionString('memory:secret', key).split('|');
  const bytes = Buffer.from(ct, 'base64');
  bytes[0] ^= 1;
  for (const [stored, k] of [[`${iv}|${bytes.toString('base64')}|${mac}`, key], [`${iv}|${ct}|${mac}`, parseEncryptionKey(newEncryptionKey())]] as const) {
    assert.throws(() => readConnectionString(stored, k), (err: Error) => err instanceof DecryptionError && !err.message.includes('secret') && !err.message.includes(ct));
  }
});

test('the key must be base64 of exactly 32 bytes', () => {
  assert.throws(() => parseEncryptionKey(Buffer.alloc(16).toString('base64')));
  assert.throws(() => parseEncryptionKey('not base64!'));
  assert.equal(parseEncryptionKey(Buffer.alloc(32, 7).toString('base64')).length, 32);
});

test('admin databases: memory:default names the data API store, a file is read, a missing file fails', async () => {
  assert.equal((await AdminDatabase.open('memory:default')).instance(1)?.ConnectionString, 'memory:default');
  assert.equal((await AdminDatabase.open('memory:default', 'file:/tmp/x.json')).instance(1)?.ConnectionString, 'file:/tmp/x.json');
  const dir = mkdtempSync(join(tmpdir(), 'admin-db-'));
  const file = join(dir, 'admin.json');
  writeFileSync(file, JSON.stringify({ OdsInstances: [{ OdsInstanceId: 3, Name: 'x', ConnectionString: 'memory:x' }], OdsInstanceContexts: [{ OdsInstanceContextId: 1, OdsInstance_OdsInstanceId: 3, ContextKey: 'year', ContextValue: '2026' }] }));
  const db = await AdminDatabase.open(`file:${file}`);
  assert.equal(db.instance(3)?.ConnectionString, 'memory:x');
  assert.deepEqual(db.contexts(3).map((c) => c.ContextValue), ['2026']);
  const added = await db.addInstance({ name: 'y', connectionString: 'memory:y', contexts: { year: '2027' }, encryptionKey: parseEncryptionKey(Buffer.alloc(32, 1).toString('base64')) });
  assert.equal(added.OdsInstanceId, 4);
  assert.equal(looksEncrypted((await AdminDatabase.open(`file:${file}`)).instance(4)!.ConnectionString), true);
  await assert.rejects(AdminDatabase.open(`file:${join(dir, 'missing.json')}`), AdminDatabaseError);
  writeFileSync(join(dir, 'bad.json'), '{"OdsInstances": 3}');
  await assert.rejects(AdminDatabase.open(`file:${join(dir, 'bad.json')}`), AdminDatabaseError);
});
