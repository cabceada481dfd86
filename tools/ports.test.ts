/** ports.ts: blocks of free ports, taken below the ports the system hands to outgoing connections. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ephemeralFloor, portBlocks } from './ports.js';

test('ephemeralFloor reads the low end of the local port range, and 32768 when it cannot', () => {
  assert.equal(ephemeralFloor(() => '32768\t60999\n'), 32_768);
  assert.equal(ephemeralFloor(() => '49152 65535'), 49_152);
  assert.equal(ephemeralFloor(() => 'garbage'), 32_768);
  assert.equal(ephemeralFloor(() => { throw new Error('no /proc'); }), 32_768);
});

test('random blocks lie wholly between 20000 and the ephemeral range', async () => {
  const floor = ephemeralFloor();
  const block = portBlocks();
  for (let i = 0; i < 40; i++) {
    const base = await block(20);
    assert.ok(base >= 20_000 && base + 20 <= floor, `block ${base}–${base + 19} against the floor ${floor}`);
  }
});

test('blocks from a given start go upwards, one after the other', async () => {
  const block = portBlocks(23_000);
  const first = await block(5);
  const second = await block(5);
  assert.ok(first >= 23_000 && second >= first + 5, `${first}, ${second}`);
});
