/** The ledger's files (ledger.ts): lines kept open for appending, never lost. */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';

const dir = mkdtempSync(join(tmpdir(), 'ledger-open-'));
process.env.CONFORMANCE_LEDGER_DIR = dir;
const { forget, ledgerOf, remaining } = await import('../ledger.js');

test('a line appended after the run\'s files were removed is in a new file, not in the removed one', () => {
  const l = ledgerOf('runa');
  l.created('http://x/api/data/v3/ed-fi/schools/1');
  assert.deepEqual(remaining().get('runa'), ['http://x/api/data/v3/ed-fi/schools/1']);
  forget('runa');
  assert.equal(remaining().get('runa'), undefined);
  l.created('http://x/api/data/v3/ed-fi/schools/2');
  assert.deepEqual(remaining().get('runa'), ['http://x/api/data/v3/ed-fi/schools/2']);
});

test('a process killed right after appending has lost none of its lines', () => {
  const script = `
    const { ledgerOf } = await import(${JSON.stringify(new URL('../ledger.ts', import.meta.url).href)});
    const l = ledgerOf('runk');
    for (let i = 0; i < 50; i++) l.created('http://x/api/data/v3/ed-fi/schools/' + i);
    process.kill(process.pid, 'SIGKILL');`;
  const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { env: { ...process.env, CONFORMANCE_LEDGER_DIR: dir } });
  assert.equal(child.signal, 'SIGKILL', String(child.stderr));
  assert.equal(remaining().get('runk')?.length, 50);
});
