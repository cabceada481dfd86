import assert from 'node:assert/strict';
import { afterEach, test } from 'node:test';
import { ConfigError, loadSettings } from '../config/load.js';

/**
 * The variables a harness sets to start a side deployment from the same configuration file
 * (tools/embedded/deployments.ts): each wins over the file and is validated as the file's value.
 */
afterEach(() => { delete process.env.REFERENCE_WARM_VALIDATORS; delete process.env.REFERENCE_PAGE_SIZE_LIMIT; });

test('REFERENCE_WARM_VALIDATORS turns the warming of every validator after start-up off or on, and refuses other text', () => {
  assert.equal(loadSettings(undefined, {}).warmValidators, true);
  process.env.REFERENCE_WARM_VALIDATORS = 'false';
  assert.equal(loadSettings(undefined, { warmValidators: true }).warmValidators, false);
  process.env.REFERENCE_WARM_VALIDATORS = 'true';
  assert.equal(loadSettings(undefined, { warmValidators: false }).warmValidators, true);
  for (const bad of ['0', 'no', 'False']) {
    process.env.REFERENCE_WARM_VALIDATORS = bad;
    assert.throws(() => loadSettings(undefined, {}), (e: Error) => e instanceof ConfigError && /warmValidators must be boolean/.test(e.message), bad);
  }
});

test('REFERENCE_PAGE_SIZE_LIMIT lowers the maximum page size, and refuses what is not a page size', () => {
  process.env.REFERENCE_PAGE_SIZE_LIMIT = '25';
  assert.equal(loadSettings(undefined, {}).pageSizeLimit, 25);
  process.env.REFERENCE_PAGE_SIZE_LIMIT = 'abc';
  assert.throws(() => loadSettings(undefined, {}), ConfigError);
});
