import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { startChildReference } from '../tools/child-reference.js';

/**
 * `npm start` as an operator meets it (issue 23 points 4 and 5): a SIGTERM whose final
 * compaction cannot write ends cleanly with one line, and a store that cannot be opened stops
 * start-up with one line naming it; never a stack trace.
 */
const CLIENTS = [{ key: 'k', secret: 's' }];
const stackLines = (output: string) => output.split('\n').filter((l) => /^\s+at /.test(l) || /^node:internal/.test(l));

test('SIGTERM with a state file that cannot be written: exit 0, one line saying the journals keep every write, no stack', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'main-sigterm-'));
  try {
    const file = join(dir, 'store.json');
    // A directory where the state file's temp file goes: every compaction fails.
    mkdirSync(`${file}.tmp`);
    const child = await startChildReference({ dir, config: { clients: CLIENTS, dataStore: `file:${file}` } });
    const exit = await child.stop(15_000);
    const output = child.output();
    const after = output.slice(output.indexOf('SIGTERM: stopping')).trim().split('\n');
    assert.deepEqual(exit, { code: 0, signal: null }, output);
    assert.deepEqual(stackLines(output), []);
    assert.equal(after.length, 2, output);
    assert.match(after[1], /^data store .*store\.json: compaction at shutdown failed \(EISDIR on .*store\.json\.tmp\); every write stays in the journals and is replayed at the next start$/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a store path under a regular file stops start-up with exit 2 and one line naming it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'main-notdir-'));
  try {
    writeFileSync(join(dir, 'plain'), 'a regular file');
    const store = join(dir, 'plain', 'data', 'store.json');
    await assert.rejects(startChildReference({ dir, config: { clients: CLIENTS, dataStore: `file:${store}` } }), (err: Error) => {
      const output = err.message.slice(err.message.indexOf('\n') + 1).trim();
      assert.match(err.message, /exited \(2\)/);
      assert.deepEqual(output.split('\n'), [`data store ${store} cannot be opened: a part of its path is a regular file, not a directory (ENOTDIR on ${join(dir, 'plain', 'data')})`]);
      return true;
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('an unusable data-store connection string stops start-up with exit 2 and one line', async () => {
  await assert.rejects(startChildReference({ config: { clients: CLIENTS, dataStore: 'foo:bar' } }), (err: Error) => {
    const output = err.message.slice(err.message.indexOf('\n') + 1).trim();
    assert.match(err.message, /exited \(2\)/);
    assert.deepEqual(output.split('\n'), ["unsupported data-store connection string 'foo:…' (use memory:<name> or file:<path>)"]);
    return true;
  });
});

test('an issuer key that is not an RSA private key in PKCS#8 PEM stops start-up with exit 2 and one line naming the setting', async () => {
  await assert.rejects(startChildReference({ config: { clients: CLIENTS, issuer: { privateKeyPem: 'not a key' } } }), (err: Error) => {
    const output = err.message.slice(err.message.indexOf('\n') + 1).trim();
    assert.match(err.message, /exited \(2\)/);
    assert.deepEqual(stackLines(output), []);
    assert.equal(output.split('\n').length, 1, output);
    assert.match(output, /^issuer\.privateKeyPem \(or REFERENCE_ISSUER_PRIVATE_KEY_PEM\) is not an RSA private key in PKCS#8 PEM: /);
    return true;
  });
});

test('npm start runs the compiled reference (no tsx at start-up) and it serves: a token, then discovery', async () => {
  const child = await startChildReference({ config: { clients: CLIENTS }, npmStart: true });
  try {
    const token = await fetch(`${child.dataApiBaseUrl}/oauth/token`, { method: 'POST', headers: { authorization: `Basic ${Buffer.from('k:s').toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=client_credentials' });
    assert.equal(token.status, 200);
    const discovery = await fetch(`${child.dataApiBaseUrl}/`);
    assert.equal(discovery.status, 200);
    assert.equal((await discovery.json() as { dataModels: { version: string }[] }).dataModels[0].version, '4.0.0');
    // The process runs dist/reference/main.js, and tsx is not among its modules' loaders.
    const cmdline = readFileSync(`/proc/${child.pid}/cmdline`, 'utf8').split('\0');
    assert.ok(cmdline.some((a) => a.endsWith('dist/reference/main.js')) && !cmdline.includes('tsx'), cmdline.join(' '));
  } finally {
    await child.stop();
  }
});
