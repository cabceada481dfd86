import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { catalog } from '../../suites/_harness/catalog.js';
import { faults } from './faults/index.js';

/** The fault catalogue covers every rule family of both services and names suites that exist. */
const families = new Set([...catalog.keys()].map((id) => id.split('.').slice(0, 2).join('.')));
const suitesDir = fileURLToPath(new URL('../../suites/', import.meta.url));

test('at least 40 faults, each with a unique name', () => {
  assert.ok(faults.length >= 40, `${faults.length} faults`);
  assert.equal(new Set(faults.map((f) => f.name)).size, faults.length);
});

test('every fault breaks a rule family of the catalog', () => {
  assert.deepEqual(faults.filter((f) => !families.has(f.family)).map((f) => `${f.name}: ${f.family}`), []);
});

test('every rule family of both services has a fault', () => {
  const covered = new Set(faults.map((f) => f.family));
  assert.deepEqual([...families].filter((f) => !covered.has(f)).sort(), []);
});

test('every fault runs suites that exist and changes something', () => {
  for (const f of faults) {
    assert.ok(f.suites.length, `${f.name} names no suite`);
    for (const s of f.suites) assert.ok(existsSync(`${suitesDir}${s}`), `${f.name}: no suites/${s}`);
    assert.ok(f.request || f.response, `${f.name} has no transformer`);
  }
});
