/**
 * Which reference the embedded deployments run (deployments.ts): the compiled one only where the
 * build exists and is as new as its sources, and never for a process whose coverage is measured.
 */
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { compiledReferenceFresh, embeddedDeployments, type EmbeddedOptions } from './deployments.js';

const dir = mkdtempSync(join(tmpdir(), 'deployments-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** A repository with reference/main.ts and, if asked, dist/reference/main.js, each with its date. */
function repository(name: string, dates: { source: number; compiled?: number }): string {
  const repo = join(dir, name, '/');
  mkdirSync(join(repo, 'reference'), { recursive: true });
  writeFileSync(join(repo, 'reference/main.ts'), '');
  utimesSync(join(repo, 'reference/main.ts'), dates.source, dates.source);
  if (dates.compiled !== undefined) {
    mkdirSync(join(repo, 'dist/reference'), { recursive: true });
    writeFileSync(join(repo, 'dist/reference/main.js'), '');
    utimesSync(join(repo, 'dist/reference/main.js'), dates.compiled, dates.compiled);
  }
  return repo;
}

test('the compiled reference is used only where it was built, and not before its sources last changed', () => {
  assert.equal(compiledReferenceFresh(repository('none', { source: 1_000 })), false, 'no build (a checkout without npm ci, a mutation sandbox)');
  assert.equal(compiledReferenceFresh(repository('older', { source: 2_000, compiled: 1_000 })), false, 'sources edited (or mutated) since the build');
  assert.equal(compiledReferenceFresh(repository('fresh', { source: 1_000, compiled: 2_000 })), true);
});

const options: EmbeddedOptions = {
  configFile: 'reference/config/conformance.json', dataApiBaseUrl: 'http://127.0.0.1:18080/v7.3/api', rosteringOrigin: 'http://127.0.0.1:18081',
  lowered: { baseUrl: 'http://127.0.0.1:18090/v7.3/api', pageSizeMaximum: 25 },
  privateKeyPem: generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
};
const entries = (o: EmbeddedOptions) => Object.fromEntries(embeddedDeployments(o).processes.map((p) => [p.name, p.args.slice(0, p.args.indexOf('--config')).join(' ')]));

test('compiled, every reference process runs dist/ but those whose coverage is measured, which run from the sources', () => {
  assert.deepEqual(entries(options), { reference: '--import tsx reference/main.ts', lowered: '--import tsx reference/main.ts' });
  assert.deepEqual(entries({ ...options, compiled: {} }), { reference: 'dist/reference/main.js', lowered: 'dist/reference/main.js' });
  assert.deepEqual(entries({ ...options, compiled: { fromSources: ['reference'] } }), { reference: '--import tsx reference/main.ts', lowered: 'dist/reference/main.js' });
});
