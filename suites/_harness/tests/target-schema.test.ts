import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { test } from 'node:test';
import { Ajv } from 'ajv';

/** The target schema (generated from suites/targets/types.ts) takes the shipped target files and declared extension fields. */
const schema = JSON.parse(readFileSync(new URL('../../../spec/schemas/target.schema.json', import.meta.url), 'utf8')) as object;
const validate = new Ajv({ strict: false, allErrors: true }).compile(schema);
const dir = new URL('../../targets/', import.meta.url);

test('every shipped target file follows the target schema', () => {
  const files = readdirSync(dir).filter((f) => f.endsWith('.json') && !f.endsWith('.deviations.json'));
  assert.ok(files.length >= 2);
  for (const f of files) assert.ok(validate(JSON.parse(readFileSync(new URL(f, dir), 'utf8'))), `${f}: ${JSON.stringify(validate.errors)}`);
});

test('capabilities.extension.fields takes field names with string, number or boolean examples, and nothing else', () => {
  const withFields = (fields: unknown) => ({
    name: 't', dataApi: { baseUrl: 'http://x/api' }, clients: { primary: { key: 'k', secret: 's' } },
    capabilities: { extension: { resource: 'credential', name: 'conformance', fields } },
  });
  assert.ok(validate(withFields({ note: 'n', attempts: 3, verified: true })), JSON.stringify(validate.errors));
  for (const bad of [{}, { nested: { a: 1 } }, { list: [1] }, { nothing: null }, 'note']) {
    assert.equal(validate(withFields(bad)), false, JSON.stringify(bad));
  }
});

test('key files are read relative to the target file, not to the directory the run starts in', async () => {
  const { mkdtempSync, writeFileSync } = await import('node:fs');
  const { join, sep } = await import('node:path');
  const { tmpdir } = await import('node:os');
  const { loadTarget } = await import('../target.js');
  const dir = mkdtempSync(join(tmpdir(), 'target-keys-'));
  const file = join(dir, 'vendor.json');
  writeFileSync(file, JSON.stringify({
    name: 'vendor', dataApi: { baseUrl: 'http://127.0.0.1:9/api' }, clients: { primary: { key: 'k', secret: 's' } },
    rostering: { baseUrl: 'http://127.0.0.1:9', issuerPublicKey: { pemFile: 'keys/issuer.pub' } },
    capabilities: { testIssuer: { pemFile: `.${sep}keys${sep}test.pem` }, issuerSigningKey: { pemFile: '/abs/issuer.pem' } },
  }));
  const t = loadTarget(file);
  assert.equal(t.rostering?.issuerPublicKey?.pemFile, join(dir, 'keys', 'issuer.pub'));
  assert.equal(t.capabilities?.testIssuer?.pemFile, join(dir, 'keys', 'test.pem'));
  assert.equal(t.capabilities?.issuerSigningKey?.pemFile, '/abs/issuer.pem', 'an absolute path stays');
});

test('a scope base is taken with or without its trailing slash, and an empty one stays empty', async () => {
  const { resolveTarget } = await import('../target.js');
  const at = (scopeBase?: string) => resolveTarget({ name: 't', dataApi: { baseUrl: 'http://x/api' }, clients: { primary: { key: 'k', secret: 's' } }, rostering: { baseUrl: 'http://x:1', ...(scopeBase === undefined ? {} : { scopeBase }) } }).rostering?.scopeBase;
  const oneRoster = 'https://purl.imsglobal.org/spec/or/v1p2/scope';
  assert.equal(at(oneRoster), `${oneRoster}/`);
  assert.equal(at(`${oneRoster}/`), `${oneRoster}/`);
  assert.equal(at(''), '');
  assert.equal(at(undefined), undefined);
});

test("the run's target file is checked once: its workers skip the check for the same text, never for another", async () => {
  const { mkdtempSync, writeFileSync } = await import('node:fs');
  const { join } = await import('node:path');
  const { tmpdir } = await import('node:os');
  const { createHash } = await import('node:crypto');
  const { loadTarget, targetFile } = await import('../target.js');
  // The main process recorded the run's file (module load read it).
  const recorded = process.env.CONFORMANCE_TARGET_VALIDATED;
  assert.equal(recorded, createHash('sha256').update(readFileSync(targetFile, 'utf8')).digest('hex'));
  const invalid = JSON.stringify({ name: 'vendor', dataApi: { baseUrl: 'http://127.0.0.1:9/api' }, clients: {} });
  const file = join(mkdtempSync(join(tmpdir(), 'target-once-')), 'vendor.json');
  writeFileSync(file, invalid);
  assert.throws(() => loadTarget(file), /is invalid/, 'another text is checked');
  // A worker whose main process found this very text valid does not compile the validator again.
  try {
    process.env.CONFORMANCE_TARGET_VALIDATED = createHash('sha256').update(invalid).digest('hex');
    assert.doesNotThrow(() => loadTarget(file));
  } finally {
    process.env.CONFORMANCE_TARGET_VALIDATED = recorded;
  }
});
