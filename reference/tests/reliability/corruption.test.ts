import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { model } from '../../../spec/model/index.js';
import { StoreFileError } from '../../store/persistence.js';
import { StoreRegistry } from '../../store/registry.js';
import { startChildReference } from '../../../tools/child-reference.js';

/**
 * Damaged store files are never loaded in silence (issue 15 point 5): a bad journal record that
 * is not the torn tail stops start-up with the file and position, or with recovery asked for is
 * dropped and counted; a damaged state file stops start-up with one line that names the file and
 * prints none of the stored data.
 */
const resource = model.byName.get('gradeLevelDescriptor')!;
const SECRET_CODE = 'Stored-Private-Value';
const doc = (code: string) => ({ codeValue: code, namespace: 'uri://corruption.test/GradeLevelDescriptor', shortDescription: code });

/** A durable store with five records, one journal line each, left as a killed process leaves it. */
function journaled(): { dir: string; file: string; journal: string } {
  const dir = mkdtempSync(join(tmpdir(), 'corruption-'));
  const file = join(dir, 'store.json');
  const store = registry().open(`file:${file}`);
  for (const code of ['A', 'B', SECRET_CODE, 'D', 'E']) store.create(resource, doc(code));
  return { dir, file, journal: `${file}.journal.0` };
}
/** Every registry a test opened: their background compactions are waited for before cleanup. */
const opened: StoreRegistry[] = [];
const registry = (options?: ConstructorParameters<typeof StoreRegistry>[1]) => {
  const r = new StoreRegistry(model, options);
  opened.push(r);
  return r;
};
/**
 * Removes a test's directory once every store opened in it is idle: a store opened with recovery
 * compacts in the background (a temp file, then a rename), and removing the directory meanwhile
 * failed a clean clone's run with ENOTEMPTY.
 */
async function removeDir(dir: string): Promise<void> {
  await Promise.all(opened.splice(0).map((r) => r.flush()));
  rmSync(dir, { recursive: true, force: true });
}
const codes = (file: string, recover = false, warn?: (m: string) => void) =>
  [...registry({ recover, ...(warn ? { warn } : {}) }).open(`file:${file}`).collection(resource.name).byId.values()].map((r) => r.doc.codeValue);

test('a garbage line inside the journal stops start-up naming the file and line; --recover drops it and says so', async () => {
  const { dir, file, journal } = journaled();
  try {
    const lines = readFileSync(journal, 'utf8').split('\n');
    lines[1] = 'garbage that is no journal record';
    writeFileSync(journal, lines.join('\n'));
    assert.throws(() => codes(file), (err: Error) => err instanceof StoreFileError && err.message.includes(journal) && /line 2 \(byte \d+\)/.test(err.message));
    const warnings: string[] = [];
    assert.deepEqual(codes(file, true, (m) => warnings.push(m)), ['A', SECRET_CODE, 'D', 'E']);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0], /dropped an unknown number of records in 1 damaged line \(2\)/);
    assert.deepEqual(codes(file), ['A', SECRET_CODE, 'D', 'E'], 'after recovery the journal starts clean');
  } finally {
    await removeDir(dir);
  }
});

test('a record whose bytes changed (valid JSON, wrong checksum) and a zeroed block both stop start-up', async () => {
  const { dir, file, journal } = journaled();
  try {
    const original = readFileSync(journal, 'utf8');
    writeFileSync(journal, original.replace('"shortDescription":"B"', '"shortDescription":"X"'));
    assert.throws(() => codes(file), (err: Error) => err instanceof StoreFileError && err.message.includes('line 2'));
    const bytes = Buffer.from(original);
    bytes.fill(0, 40, bytes.length - 40);
    writeFileSync(journal, bytes);
    assert.throws(() => codes(file), (err: Error) => err instanceof StoreFileError && err.message.includes('line 1'));
  } finally {
    await removeDir(dir);
  }
});

test('a journal written before lines carried checksums (plain entries) still loads', async () => {
  const { dir, file, journal } = journaled();
  try {
    const lines = readFileSync(journal, 'utf8').split('\n').filter(Boolean);
    // The earlier form: one entry per line, or an array of the entries of one operation.
    const legacy = lines.map((l) => { const entries = (JSON.parse(l) as { e: unknown[] }).e; return JSON.stringify(entries.length === 1 ? entries[0] : entries); });
    writeFileSync(journal, `${legacy.join('\n')}\n`);
    assert.deepEqual(codes(file), ['A', 'B', SECRET_CODE, 'D', 'E']);
  } finally {
    await removeDir(dir);
  }
});

test('a torn last line is still cut off without complaint', async () => {
  const { dir, file, journal } = journaled();
  try {
    writeFileSync(journal, `${readFileSync(journal, 'utf8')}{"c":"0123456789abcdef","e":[{"t":"put"`);
    assert.deepEqual(codes(file), ['A', 'B', SECRET_CODE, 'D', 'E']);
  } finally {
    await removeDir(dir);
  }
});

test('a truncated, empty, changed or misshapen state file stops start-up with one line naming the file, printing no stored data', async () => {
  const { dir, file } = journaled();
  try {
    // The compacted state of the five records, then damaged two ways.
    const registry = new StoreRegistry(model);
    registry.open(`file:${file}`);
    await registry.flush();
    const state = readFileSync(file, 'utf8');
    assert.ok(state.includes(SECRET_CODE));
    // An earlier version's state file (one JSON document), cut short or of the wrong shape inside.
    const legacy = JSON.stringify({ generation: 1, version: 5, descriptorIds: 5, collections: { gradeLevelDescriptor: { records: 5, note: SECRET_CODE } } });
    const flipped = state.replace(SECRET_CODE, SECRET_CODE.replace('P', 'Q'));
    for (const [damage, why] of [
      [state.slice(0, Math.floor(state.length / 2)), /is damaged at line \d+ \(byte \d+\)/], ['', /empty/], [flipped, /is damaged at line 4 \(byte \d+\)/],
      [legacy.slice(0, 30), /not valid JSON/], [legacy, /not data store records/],
    ] as const) {
      writeFileSync(file, damage);
      const started = startChildReference({ dir, config: { clients: [{ key: 'k', secret: 's' }], dataStore: `file:${file}` } });
      await assert.rejects(started, (err: Error) => {
        const output = err.message.slice(err.message.indexOf('\n') + 1).trim();
        assert.match(err.message, /exited \(2\)/);
        assert.equal(output.split('\n').length, 1, `one line: ${output}`);
        assert.ok(output.includes(file), output);
        assert.match(output, why);
        assert.ok(!output.includes(SECRET_CODE) && !output.includes('shortDescription'), `no stored data: ${output}`);
        return true;
      });
    }
  } finally {
    await removeDir(dir);
  }
});
