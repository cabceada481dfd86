import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { encryptConnectionString, newEncryptionKey, parseEncryptionKey } from '../admin-db/index.js';
import { startReference } from '../server.js';

/** Each request works on the store its token names, through the (tenant's) admin database. */
const descriptor = JSON.stringify({ codeValue: 'X', namespace: 'uri://test/GradeLevelDescriptor', shortDescription: 'x' });

async function token(base: string, key: string): Promise<string> {
  const res = await fetch(`${base}/oauth/token`, { method: 'POST', headers: { Authorization: `Basic ${Buffer.from(`${key}:secret`).toString('base64')}`, 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'grant_type=client_credentials' });
  return ((await res.json()) as { access_token: string }).access_token;
}

test('tokens naming different instances read and write different stores; encrypted connection strings open', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'admin-'));
  const key = newEncryptionKey();
  writeFileSync(join(dir, 'admin.json'), JSON.stringify({
    OdsInstances: [
      { OdsInstanceId: 1, Name: 'one', ConnectionString: 'memory:one' },
      { OdsInstanceId: 2, Name: 'two', ConnectionString: encryptConnectionString('memory:two', parseEncryptionKey(key)) },
    ],
    OdsInstanceContexts: [],
  }));
  const ref = await startReference({ overrides: {
    port: 0, rosteringPort: 0, adminDatabase: `file:${join(dir, 'admin.json')}`, connectionStringEncryptionKey: key,
    clients: [{ key: 'a', secret: 'secret', odsInstances: [{ id: 1 }] }, { key: 'b', secret: 'secret', odsInstances: [{ id: 2 }] }, { key: 'c', secret: 'secret', odsInstances: [{ id: 9 }] }],
  } });
  try {
    const url = `${ref.dataApiBaseUrl}/data/v3/core/gradeLevelDescriptors`;
    const [a, b, c] = await Promise.all(['a', 'b', 'c'].map((k) => token(ref.dataApiBaseUrl, k)));
    const post = await fetch(url, { method: 'POST', headers: { Authorization: `Bearer ${b}`, 'Content-Type': 'application/json' }, body: descriptor });
    assert.equal(post.status, 201);
    const seenByB = (await (await fetch(url, { headers: { Authorization: `Bearer ${b}` } })).json()) as unknown[];
    const seenByA = (await (await fetch(url, { headers: { Authorization: `Bearer ${a}` } })).json()) as unknown[];
    assert.equal(seenByB.length, 1);
    assert.equal(seenByA.length, 0);
    const unknown = await fetch(url, { headers: { Authorization: `Bearer ${c}` } });
    assert.equal(unknown.status, 404);
    assert.doesNotMatch(await unknown.text(), /memory:|admin\.json/);
  } finally {
    await ref.close();
  }
});

test('multi-tenant routes carry the tenant; the token must belong to it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tenants-'));
  for (const t of ['north', 'south']) writeFileSync(join(dir, `${t}.json`), JSON.stringify({ OdsInstances: [{ OdsInstanceId: 1, Name: t, ConnectionString: `memory:${t}` }], OdsInstanceContexts: [] }));
  const ref = await startReference({ overrides: {
    port: 0, rosteringPort: 0,
    tenants: { north: { adminDatabase: `file:${join(dir, 'north.json')}` }, south: { adminDatabase: `file:${join(dir, 'south.json')}` } },
    clients: [{ key: 'n', secret: 'secret', tenant: 'north' }, { key: 's', secret: 'secret', tenant: 'south' }],
  } });
  try {
    const n = await token(ref.dataApiBaseUrl, 'n');
    const at = (tenant: string) => `${ref.dataApiBaseUrl}/${tenant}/data/v3/core/gradeLevelDescriptors`;
    assert.equal((await fetch(at('North'), { method: 'POST', headers: { Authorization: `Bearer ${n}`, 'Content-Type': 'application/json' }, body: descriptor })).status, 201);
    assert.equal((await fetch(at('south'), { headers: { Authorization: `Bearer ${n}` } })).status, 401);
    assert.equal((await fetch(at('west'), { headers: { Authorization: `Bearer ${n}` } })).status, 404);
    const s = await token(ref.dataApiBaseUrl, 's');
    assert.deepEqual(await (await fetch(at('south'), { headers: { Authorization: `Bearer ${s}` } })).json(), []);
  } finally {
    await ref.close();
  }
});
