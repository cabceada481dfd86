import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';

/**
 * 500s as both services' boundaries log them: a setting that cannot be used (an admin database,
 * a connection string that does not decrypt or names no store) is marked `configuration:`, the
 * operator's to fix; anything else is logged as it is. Either way the answer reveals nothing.
 * The log file is read once at load, so it is named before the modules are imported.
 */
const log = join(mkdtempSync(join(tmpdir(), 'configuration-errors-')), 'errors.log');
process.env.REFERENCE_ERROR_LOG = log;
const { statusBoundary } = await import('../rostering/status.js');
const { errorBoundary } = await import('../http/boundary.js');
const { AdminDatabaseError, DecryptionError } = await import('../admin-db/index.js');
const { UnsupportedConnectionString } = await import('../store/registry.js');

const failures = () => [
  new DecryptionError('the message authentication code does not match'),
  new UnsupportedConnectionString("unsupported data-store connection string 'x:…'"),
  new AdminDatabaseError('admin database file /x does not exist'),
  new Error('boom'),
];
let logged = 0;
const newLines = () => {
  const lines = readFileSync(log, 'utf8').trim().split('\n').map((l) => l.replace(/^\S+ /, ''));
  const fresh = lines.slice(logged);
  logged = lines.length;
  return fresh;
};

async function fail(boundary: typeof statusBoundary, err: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const headers: Record<string, string> = {};
  const ctx = {
    method: 'GET', path: '/p', status: 0, type: '', body: '' as unknown, state: {} as Record<string, unknown>,
    get: (name: string) => (name === 'correlation-id' ? 'c-1' : ''),
    set: (k: string | Record<string, string>, v?: string) => { if (typeof k === 'string') headers[k] = v!; else Object.assign(headers, k); },
  };
  await boundary(ctx as never, async () => { throw err; });
  return { status: ctx.status, body: (typeof ctx.body === 'string' ? JSON.parse(ctx.body) : ctx.body) as Record<string, unknown> };
}

test('rostering: unusable settings are logged as configuration, other failures as they are; each a 500 that reveals nothing', async () => {
  for (const err of failures()) {
    assert.deepEqual(await fail(statusBoundary, err), { status: 500, body: { stdx_codeMajor: 'failure', stdx_severity: 'error', stdx_description: 'An internal server error occurred' } });
  }
  assert.deepEqual(newLines(), [
    'configuration: rostering GET /p: cannot decrypt the connection string: the message authentication code does not match',
    "configuration: rostering GET /p: unsupported data-store connection string 'x:…'",
    'configuration: rostering GET /p: admin database file /x does not exist',
    'rostering GET /p: boom',
  ]);
});

test('data API: the same marking, with the correlation id; the system problem either way', async () => {
  for (const err of failures()) {
    const { status, body } = await fail(errorBoundary, err);
    assert.equal(status, 500);
    assert.match(String(body.type), /:system$/);
    assert.equal(JSON.stringify(body).includes('/x'), false, 'nothing of the setting in the answer');
  }
  const lines = newLines();
  assert.deepEqual(lines.slice(0, 3), [
    'configuration: [c-1] GET /p: cannot decrypt the connection string: the message authentication code does not match',
    "configuration: [c-1] GET /p: unsupported data-store connection string 'x:…'",
    'configuration: [c-1] GET /p: admin database file /x does not exist',
  ]);
  assert.match(lines[3], /^\[c-1\] GET \/p: Error: boom/);
});
