import assert from 'node:assert/strict';
import { scryptSync } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { test } from 'node:test';
import { hashSecret, provenSecret, verifySecret } from './secrets.js';

/** Client secrets kept as scrypt hashes (decisions #21): the stored form, verification, and the proven-secret shortcut. */
test('hashSecret: scrypt$<16-byte salt>$<32-byte scrypt N=4096 r=8 p=1>, a fresh salt each time', () => {
  const stored = hashSecret('s3cret');
  const [scheme, salt, hash, ...rest] = stored.split('$');
  assert.equal(scheme, 'scrypt');
  assert.deepEqual(rest, []);
  assert.equal(Buffer.from(salt, 'base64').length, 16);
  assert.equal(Buffer.from(hash, 'base64').toString('base64'), scryptSync('s3cret', Buffer.from(salt, 'base64'), 32, { N: 4096, r: 8, p: 1 }).toString('base64'));
  assert.notEqual(hashSecret('s3cret'), stored);
});

test('verifySecret: the right secret only; a malformed stored value verifies nothing', async () => {
  const stored = hashSecret('right');
  assert.equal(await verifySecret('wrong', stored), false);
  assert.equal(await verifySecret('righ', stored), false);
  assert.equal(await verifySecret('right', stored), true);
  // A hash made elsewhere with the same parameters verifies too (the parameters are the stored format's).
  const salt = Buffer.from('0123456789abcdef');
  const foreign = `scrypt$${salt.toString('base64')}$${scryptSync('other', salt, 32, { N: 4096, r: 8, p: 1 }).toString('base64')}`;
  assert.equal(await verifySecret('other', foreign), true);
  const [, s, h] = hashSecret('x').split('$');
  for (const bad of [`bcrypt$${s}$${h}`, `scrypt$$${h}`, `scrypt$${s}$`, `scrypt$${s}`, '']) {
    assert.equal(await verifySecret('x', bad), false, bad);
  }
});

test('provenSecret: only after a successful verification, only for that secret and that hash', async () => {
  const stored = hashSecret('proven');
  const other = hashSecret('proven');
  assert.equal(provenSecret('proven', stored), false);
  assert.equal(await verifySecret('nope', stored), false);
  assert.equal(provenSecret('nope', stored), false, 'a failed verification proves nothing');
  assert.equal(await verifySecret('proven', stored), true);
  assert.equal(provenSecret('proven', stored), true);
  assert.equal(provenSecret('nope', stored), false);
  assert.equal(provenSecret('proven', other), false, 'proven against one hash only');
  assert.equal(await verifySecret('proven', stored), true, 'the shortcut answers true');
});

test('many verifications at once all finish, each with its own answer', async () => {
  const stored = hashSecret('many');
  const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => verifySecret(i % 2 ? 'many' : `wrong${i}`, stored)));
  assert.deepEqual(answers, [false, true, false, true, false, true]);
  // And the gate is open again afterwards.
  assert.deepEqual(await Promise.all([verifySecret('x1', stored), verifySecret('x2', stored), verifySecret('x3', stored)]), [false, false, false]);
});

test('a hash runs off the event loop: the loop keeps turning while a verification is pending', async () => {
  const stored = hashSecret('off-loop');
  // Counted in loop turns, not milliseconds: a hash made on the event loop would let none pass.
  // More verifications than may hash at once (at most one fewer than the cores): the later ones
  // start only once an earlier one's answer has come back on the loop, so however slow or fast
  // the machine, the loop turns at least once before the last answer.
  const count = availableParallelism() + 1;
  let turns = 0;
  let pending = true;
  const turn = () => { if (pending) { turns++; setImmediate(turn); } };
  setImmediate(turn);
  const verified = await Promise.all(Array.from({ length: count }, (_, i) => verifySecret(`wrong-${i}`, stored)));
  pending = false;
  assert.deepEqual(verified, Array.from({ length: count }, () => false));
  assert.ok(turns >= 1, `the event loop turned ${turns} times during ${count} hashes`);
});
