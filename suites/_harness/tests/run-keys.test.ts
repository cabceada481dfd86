/** run-keys.ts: each variable not set gets a key of its own; one already set (a worker's, inherited) is kept. */
import assert from 'node:assert/strict';
import { createPrivateKey } from 'node:crypto';
import { test } from 'node:test';
import { runKeysOnce } from '../run-keys.js';

test('sets each missing variable to a new RSA private key and keeps those already set', async () => {
  process.env.RUN_KEYS_TEST_KEPT = 'inherited';
  delete process.env.RUN_KEYS_TEST_A;
  delete process.env.RUN_KEYS_TEST_B;
  await runKeysOnce(['RUN_KEYS_TEST_KEPT', 'RUN_KEYS_TEST_A', 'RUN_KEYS_TEST_B']);
  assert.equal(process.env.RUN_KEYS_TEST_KEPT, 'inherited');
  const [a, b] = [process.env.RUN_KEYS_TEST_A!, process.env.RUN_KEYS_TEST_B!];
  assert.notEqual(a, b, 'a key of its own for each');
  for (const pem of [a, b]) {
    const key = createPrivateKey(pem);
    assert.equal(key.asymmetricKeyType, 'rsa');
    assert.equal(key.asymmetricKeyDetails?.modulusLength, 2048);
  }
});
