import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isEmbeddedReference } from '../../_harness/target.js';
import { flowsDescription, reachableFlows } from './flows.js';

/**
 * What earlier runs left is looked for on the flows a run can reach: an embedded run without the
 * rostering suites starts only the reference (playwright.config.ts), and asking the other flows'
 * token endpoints failed the whole removal with ECONNREFUSED (npx playwright test suites/versioning).
 */
const playwright = (...args: string[]) => ['node', 'playwright', 'test', ...args];

test('the embedded reference (this process\'s default target) describes the four flows', () => {
  assert.equal(isEmbeddedReference, true);
  assert.deepEqual(Object.keys(flowsDescription()).sort(), ['context', 'single', 'tenant', 'tenantContext']);
});

test('an embedded run that includes the rostering suites reaches every flow', () => {
  for (const argv of [playwright(), playwright('suites/rostering'), playwright('suites/rostering/routing.spec.ts', 'suites/token'), ['tsx', 'suites/_harness/tools/cleanup.ts']]) {
    assert.deepEqual(reachableFlows(argv), flowsDescription(), argv.join(' '));
  }
});

test('an embedded run without the rostering suites reaches the single flow only', () => {
  for (const argv of [playwright('suites/versioning'), playwright('suites/token', 'suites/limits'), playwright('--grep-invert', '@roster')]) {
    assert.deepEqual(reachableFlows(argv), { single: flowsDescription().single }, argv.join(' '));
  }
});
