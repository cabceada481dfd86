/**
 * `npm run example` (example.ts): the embedded deployments written out as files. What a vendor
 * copies must be what a conformance run starts: every process, with its environment; the
 * routing flows' admin databases beside it; a target file whose key files resolve from itself.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import type { Target } from '../../suites/targets/types.js';
import { writeExample } from './example.js';

const dir = mkdtempSync(join(tmpdir(), 'example-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('the example holds a start script for every deployment, their admin databases and keys, and a target describing them', () => {
  writeExample(dir);
  const start = readFileSync(join(dir, 'start.sh'), 'utf8');
  for (const port of [18080, 18082, 18084, 18086, 18088]) assert.ok(start.includes(`http://127.0.0.1:${port}/`), `a process ready on ${port}`);
  for (const variable of ['OAUTH2_ISSUERBASEURL', 'OAUTH2_AUDIENCE', 'OAUTH2_PUBLIC_KEY_PEM', 'CONNECTION_CONFIG', 'TENANTS_CONNECTION_CONFIG', 'MULTITENANCY_ENABLED', 'ODS_CONTEXT_ROUTE_TEMPLATE', 'ODS_CONNECTION_STRING_ENCRYPTION_KEY', 'ROSTER_ADDITIONAL_PUBLIC_KEYS_PEM', 'REFERENCE_PAGE_SIZE_LIMIT']) {
    assert.ok(start.includes(`${variable}=`), variable);
  }
  assert.ok(!start.includes('BEGIN PRIVATE KEY'), 'private keys are read from the example\'s files, not written into the script');
  assert.ok(!/file:\/tmp|file:\/var/.test(start), 'admin databases are named inside the example, not in a temporary folder');
  for (const db of ['single', 'context', 'tenant-a', 'tenant-b', 'tenant-context-a', 'tenant-context-b']) {
    assert.ok(start.includes(`$EXAMPLE/admin-databases/${db}.json`), db);
    assert.ok(existsSync(join(dir, 'admin-databases', `${db}.json`)), `${db}.json written`);
  }
  const target = JSON.parse(readFileSync(join(dir, 'target.json'), 'utf8')) as Target;
  assert.deepEqual(target.capabilities?.issuerSigningKey, { pemFile: 'keys/issuer.pem' });
  assert.deepEqual(target.capabilities?.testIssuer, { pemFile: 'keys/test-issuer.pem' });
  assert.ok(existsSync(join(dir, target.$schema!)), 'the schema path resolves from the example');
  assert.match(readFileSync(join(dir, 'keys/issuer.pem'), 'utf8'), /BEGIN PRIVATE KEY/);
  const env = readFileSync(join(dir, 'conformance-env.sh'), 'utf8');
  for (const variable of ['CONFORMANCE_ADMIN_SECRET', 'CONFORMANCE_ISSUER_PUBLIC_KEY_PEM', target.rostering!.flows!.single!.secretsEnv!]) assert.ok(env.includes(`export ${variable}=`), variable);
});
