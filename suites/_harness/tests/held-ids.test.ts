import assert from 'node:assert/strict';
import { test } from 'node:test';
import { heldIds } from '../reporter/held-ids.js';

/** The report's heldIds: what the global set-up found holding reserved ids, never written over (decision 32). */
test('reserved ids held on the target and on a flow\'s own data API are listed with what holds them', () => {
  const env = {
    CONFORMANCE_ROSTERING_RUN: JSON.stringify({
      tokens: {}, districts: {},
      taken: { lea1: 'is already the deployment\'s postSecondaryInstitution "Held College"' },
      withheldFlows: { tenant: 'rostering.organizations.schoolA 90200101 is already the tenant flow\'s data API\'s school "Elsewhere High"' },
    }),
  };
  assert.deepEqual(heldIds(env), [
    { field: 'rostering.organizations.lea1', heldBy: 'is already the deployment\'s postSecondaryInstitution "Held College"' },
    { field: 'rostering.organizations.schoolA', flow: 'tenant', heldBy: 'is already the tenant flow\'s data API\'s school "Elsewhere High"' },
  ]);
});

test('a run without rostering, or one that held nothing, lists none', () => {
  assert.deepEqual(heldIds({}), []);
  assert.deepEqual(heldIds({ CONFORMANCE_ROSTERING_RUN: JSON.stringify({ tokens: {}, districts: {} }) }), []);
  assert.deepEqual(heldIds({ CONFORMANCE_ROSTERING_RUN: 'not json' }), []);
});
