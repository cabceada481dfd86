import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';

/**
 * The rostering boundary's 500s, as logged: an instance whose connection string cannot be used
 * is marked `configuration:` (the operator's to fix), anything else is logged as it is. The log
 * file is read once at load, so it is named before the modules are imported.
 */
const log = join(mkdtempSync(join(tmpdir(), 'status-')), 'errors.log');
process.env.REFERENCE_ERROR_LOG = log;
const { statusBoundary } = await import('./status.js');
const { DecryptionError } = await import('../admin-db/index.js');
const { UnsupportedConnectionString } = await import('../store/registry.js');

async function fail(err: unknown): Promise<{ status: number; body: Record<string, string> }> {
  const headers: Record<string, string> = {};
  const ctx = { method: 'GET', path: '/p', status: 0, type: '', body: '', set: (k: string | Record<string, string>, v?: string) => { if (typeof k === 'string') headers[k] = v!; else Object.assign(headers, k); } };
  await statusBoundary(ctx as never, async () => { throw err; });
  return { status: ctx.status, body: JSON.parse(ctx.body) as Record<string, string> };
}

test('unusable connection strings are logged as configuration, other failures as they are; each a 500 that reveals nothing', async () => {
  for (const err of [new DecryptionError('the message authentication code does not match'), new UnsupportedConnectionString("unsupported data-store connection string 'x:…'"), new Error('boom')]) {
    assert.deepEqual(await fail(err), { status: 500, body: { stdx_codeMajor: 'failure', stdx_severity: 'error', stdx_description: 'An internal server error occurred' } });
  }
  const lines = readFileSync(log, 'utf8').trim().split('\n').map((l) => l.replace(/^\S+ /, ''));
  assert.deepEqual(lines, [
    'configuration: rostering GET /p: cannot decrypt the connection string: the message authentication code does not match',
    "configuration: rostering GET /p: unsupported data-store connection string 'x:…'",
    'rostering GET /p: boom',
  ]);
});
