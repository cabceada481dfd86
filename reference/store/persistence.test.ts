import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, mock, test } from 'node:test';
import { model } from '../../spec/model/index.js';
import { compileServed } from '../../spec/model/served.js';
import { checksummedLine } from './checksummed-lines.js';
import { readJournalHeader } from './journal-entries.js';
import { Persistence, StoreFileError, type PersistenceOptions } from './persistence.js';
import { decodeState } from './state-file.js';
import { disk, nodeFiles, type StoreFiles } from './store-files.js';
import { DataStore } from './store.js';

/**
 * Durable stores under failure (issue 23). Point 4: a compaction that cannot write is reported
 * and tried again, never fatal, and loses nothing; with fsync the state file and its directory
 * reach the disk before any journal is removed. Point 5: damage to the state file or journals
 * is named in one line at start-up, and recovery reports the records lost. Point 10: the files
 * are private to the server's user. Failures are injected through the file seam (store-files.ts).
 */
const resource = model.byName.get('gradeLevelDescriptor')!;
const doc = (code: string) => ({ codeValue: code, namespace: 'uri://persistence.test/GradeLevelDescriptor', shortDescription: code });
const dirs: string[] = [];
afterEach(() => { for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true }); mock.restoreAll(); });

function storeFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'persistence-'));
  dirs.push(dir);
  return join(dir, 'store.json');
}
function open(file: string, options: PersistenceOptions = {}): { store: DataStore; persistence: Persistence } {
  const store = new DataStore(model);
  return { store, persistence: Persistence.open(file, store, options) };
}
const codes = (store: DataStore) => [...store.collection(resource.name).byId.values()].map((r) => r.doc.codeValue);
const diskFull = () => Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', path: '/injected' });

/** nodeFiles whose state-file writes fail the first `failures` times. */
function failingWrites(failures: number): StoreFiles & { attempts: number } {
  const files = { ...nodeFiles, attempts: 0 };
  files.replace = async (file, text, fsync) => {
    if (++files.attempts <= failures) throw diskFull();
    return nodeFiles.replace(file, text, fsync);
  };
  return files;
}

test('a background compaction that cannot write is reported in one line and tried again after as many writes; nothing is lost and nothing is thrown', async () => {
  const file = storeFile();
  const warnings: string[] = [];
  const unhandled: unknown[] = [];
  const onUnhandled = (err: unknown) => unhandled.push(err);
  process.on('unhandledRejection', onUnhandled);
  try {
    const files = failingWrites(2);
    const { store, persistence } = open(file, { files, compactEvery: 2, warn: (m) => warnings.push(m) });
    const write = async (...c: string[]) => { for (const code of c) store.create(resource, doc(code)); await persistence.idle(); };
    await write('A', 'B');
    assert.equal(files.attempts, 1, 'the second write started a compaction');
    assert.equal(warnings.length, 1);
    assert.match(warnings[0], /compaction failed \(ENOSPC on \/injected\); every write stays in the journals, and it is tried again after 2 more writes/);
    assert.equal(warnings[0].split('\n').length, 1);
    await write('C');
    assert.equal(files.attempts, 1, 'not tried again before as many writes again');
    await write('D');
    assert.equal(files.attempts, 2, 'tried again');
    await write('E', 'F');
    assert.equal(files.attempts, 3);
    assert.equal(warnings.length, 2, 'the third attempt succeeded');
    store.create(resource, doc('G'));
    assert.deepEqual(readdirSync(join(file, '..')).filter((f) => f.includes('journal')), ['store.json.journal.3'], 'the journals the state file covers are gone');
    // Everything, across the failed compactions, after a restart (no clean shutdown).
    assert.deepEqual(codes(open(file).store), ['A', 'B', 'C', 'D', 'E', 'F', 'G']);
    // Failed compactions left every journal: a restart after them alone loses nothing either.
    const again = storeFile();
    const failing = open(again, { files: failingWrites(99), compactEvery: 2, warn: () => undefined });
    for (const code of ['A', 'B', 'C', 'D', 'E']) { failing.store.create(resource, doc(code)); await failing.persistence.idle(); }
    assert.deepEqual(codes(open(again).store), ['A', 'B', 'C', 'D', 'E']);
  } finally {
    process.off('unhandledRejection', onUnhandled);
  }
  assert.deepEqual(unhandled, []);
});

test('a compaction at shutdown that cannot write is reported, not thrown; the journals carry every write to the next start', async () => {
  const file = storeFile();
  const warnings: string[] = [];
  const { store, persistence } = open(file, { files: failingWrites(1), warn: (m) => warnings.push(m) });
  store.create(resource, doc('A'));
  await persistence.flush();
  assert.equal(warnings.length, 1);
  assert.match(warnings[0], /compaction at shutdown failed \(ENOSPC on \/injected\); every write stays in the journals and is replayed at the next start/);
  assert.deepEqual(codes(open(file).store), ['A']);
});

test('with fsync, a compaction flushes the state file, renames it, flushes its directory, and only then removes the journals it covers', async () => {
  const file = storeFile();
  const events: string[] = [];
  const name = (p: string) => p.slice(p.lastIndexOf('/') + 1) || p;
  mock.method(disk, 'syncFile', async (handle: { sync(): Promise<void> }) => { events.push(`sync file (state file renamed: ${statSafe(file)})`); await handle.sync(); });
  mock.method(disk, 'syncDirectory', (dir: string) => { events.push(`sync directory (state file renamed: ${statSafe(file)})`); assert.equal(dir, join(file, '..')); });
  mock.method(disk, 'syncFileSync', () => { events.push('sync journal'); });
  const files: StoreFiles = { ...nodeFiles, remove: (f) => { events.push(`remove ${name(f)}`); nodeFiles.remove(f); } };
  const { store, persistence } = open(file, { fsync: true, files });
  store.create(resource, doc('A'));
  store.create(resource, doc('B'));
  assert.deepEqual(events, ['sync journal', 'sync directory (state file renamed: false)', 'sync journal'], 'each append is flushed; a new journal\'s directory entry once');
  events.length = 0;
  await persistence.flush();
  assert.deepEqual(events, ['sync file (state file renamed: false)', 'sync directory (state file renamed: true)', 'remove store.json.journal.0']);

  // Without fsync: no flush at all, the same order otherwise.
  events.length = 0;
  const plain = open(storeFile(), { files });
  plain.store.create(resource, doc('A'));
  await plain.persistence.flush();
  assert.deepEqual(events, ['remove store.json.journal.0']);
});

const statSafe = (file: string) => { try { statSync(file); return true; } catch { return false; } };

test('a store path under a regular file stops start-up with one line naming it', () => {
  const file = storeFile();
  writeFileSync(file, 'a regular file');
  assert.throws(() => open(join(file, 'sub', 'store.json')), (err: Error) =>
    err instanceof StoreFileError && err.message.includes(join(file, 'sub', 'store.json')) && /a part of its path is a regular file/.test(err.message) && !err.message.includes('\n'));
});

test('store files are created 0600 and their directory 0700', async () => {
  const file = join(storeFile(), '..', 'nested', 'store.json');
  const { store, persistence } = open(file);
  store.create(resource, doc('A'));
  await persistence.flush();
  store.create(resource, doc('B'));
  const mode = (f: string) => (statSync(f).mode & 0o777).toString(8);
  assert.equal(mode(join(file, '..')), '700');
  assert.equal(mode(file), '600');
  assert.equal(mode(`${file}.journal.1`), '600');
});

/*
 * State file integrity at start-up (issue 23 point 5): damage is named, recovery reports the
 * records lost (not lines), and what recovery kept is written down so the next start is clean.
 */
async function compacted(codesToWrite: string[]): Promise<string> {
  const file = storeFile();
  const { store, persistence } = open(file);
  for (const code of codesToWrite) store.create(resource, doc(code));
  await persistence.flush();
  return file;
}
const oneLine = (pattern: RegExp) => (err: Error) => err instanceof StoreFileError && pattern.test(err.message) && !err.message.includes('\n');

test('a changed byte in a record of the state file stops start-up; --recover drops that record, reports it, and writes a clean state', async () => {
  const file = await compacted(['A', 'B', 'C']);
  writeFileSync(file, readFileSync(file, 'utf8').replace('"shortDescription":"B"', '"shortDescription":"b"'));
  assert.throws(() => open(file), oneLine(/data store file .*store\.json is damaged at line 3 \(byte \d+\): restore it from a backup, or start with --recover/));
  const warnings: string[] = [];
  const recovered = open(file, { recover: true, warn: (m) => warnings.push(m) });
  assert.deepEqual(codes(recovered.store), ['A', 'C']);
  assert.deepEqual(warnings, [`data store file ${file}: recovery dropped 1 record (gradeLevelDescriptor 1)`]);
  await recovered.persistence.idle();
  assert.deepEqual(codes(open(file).store), ['A', 'C'], 'the next start needs no --recover');
});

test('a missing state file with later journals present refuses to start; --recover starts from the journals and says what is lost', async () => {
  const file = await compacted(['A', 'B']);
  const { store } = open(file);
  store.create(resource, doc('C'));
  rmSync(file);
  assert.throws(() => open(file), oneLine(/data store file .*store\.json is missing, but its journals from generation 1 on are present: .*--recover/));
  const warnings: string[] = [];
  const recovered = open(file, { recover: true, warn: (m) => warnings.push(m) });
  assert.deepEqual(codes(recovered.store), ['C']);
  assert.match(warnings.join('\n'), /is missing: recovery starts from the journals of generation 1 on; the records compacted before them are lost/);
  await recovered.persistence.idle();
  assert.deepEqual(codes(open(file).store), ['C'], 'the next start needs no --recover');
  // A store that never compacted has no state file, and that is no damage.
  const young = storeFile();
  open(young).store.create(resource, doc('A'));
  assert.deepEqual(codes(open(young).store), ['A']);
});

test('--recover reports the records a damaged journal line held, not one per line', async () => {
  const file = storeFile();
  const { store } = open(file);
  for (let i = 0; i < 10; i++) store.create(resource, doc(`R${i}`));
  store.create(resource, doc('kept'));
  // The ten creates as one operation's line (as a cascade writes them), one byte of it changed.
  const journal = `${file}.journal.0`;
  const lines = readFileSync(journal, 'utf8').split('\n').filter(Boolean);
  const entries = lines.slice(0, 10).flatMap((l) => (JSON.parse(l) as { e: unknown[] }).e);
  writeFileSync(journal, checksummedLine(entries).replace('"shortDescription":"R3"', '"shortDescription":"R4"') + `${lines[10]}\n`);
  assert.throws(() => open(file), oneLine(/journal .*journal\.0 is damaged at line 1 \(byte 0\)/));
  const warnings: string[] = [];
  const recovered = open(file, { recover: true, warn: (m) => warnings.push(m) });
  assert.deepEqual(codes(recovered.store), ['kept']);
  assert.deepEqual(warnings, [`data store journal ${journal}: recovery dropped 10 records (gradeLevelDescriptor 10) in 1 damaged line (1)`]);
  // Recovery writes the state down in the background: done before the directory goes.
  await recovered.persistence.idle();
});

test('a journal line of an old or unknown form stops start-up with one line naming the file and line; --recover drops it', async () => {
  // Entries of the right kind without the parts this version replays (a record, an event).
  for (const old of ['{"t":"put","r":"gradeLevelDescriptor","v":2,"d":0}', '[{"t":"del","r":"gradeLevelDescriptor","v":2,"d":0,"ev":{"id":"x"}}]', '{"t":"kc","r":"gradeLevelDescriptor","v":2,"d":0,"ev":null}']) {
    const file = storeFile();
    open(file).store.create(resource, doc('A'));
    const journal = `${file}.journal.0`;
    writeFileSync(journal, `${readFileSync(journal, 'utf8')}${old}\n`);
    assert.throws(() => open(file), oneLine(/journal .*journal\.0 is damaged at line 2 \(byte \d+\), or written in a form this version cannot read: start with --recover/));
    const recovered = open(file, { recover: true, warn: () => undefined });
    assert.deepEqual(codes(recovered.store), ['A']);
    // Recovery writes the state down in the background: done before the directory goes.
    await recovered.persistence.idle();
    assert.deepEqual(codes(open(file).store), ['A'], 'the next start needs no --recover');
  }
});

test('an earlier version\'s state file loads, and its next compaction writes it checksummed', async () => {
  const file = await compacted(['A']);
  const { state } = decodeState(file, readFileSync(file, 'utf8'), false);
  writeFileSync(file, JSON.stringify(state));
  const { store, persistence } = open(file);
  assert.deepEqual(codes(store), ['A']);
  await persistence.flush();
  assert.equal(decodeState(file, readFileSync(file, 'utf8'), false).legacy, false);
  assert.deepEqual(codes(open(file).store), ['A']);
});

test('a store written by a deployment of another data standard stops start-up naming the resource, from its journal and from its state file; nothing is dropped', async () => {
  // 5.2 has contacts, 4.0 (the model here) has none: skipping them would lose them at the next compaction.
  const v52 = compileServed('5.2');
  const file = storeFile();
  const written = new DataStore(v52);
  const persistence = Persistence.open(file, written);
  written.create(v52.byName.get('contact')!, { contactUniqueId: 'c-1', firstName: 'C', lastSurname: 'One' });
  written.create(v52.byName.get('gradeLevelDescriptor')!, doc('A'));
  await persistence.idle();
  const refused = oneLine(/^data store .*store\.json\.journal\.\d+ holds contact records, a resource the data standard served does not have: it was written by a deployment of another data standard; start with that dataStandard, or use another dataStore$/);
  assert.throws(() => open(file), refused);
  await persistence.flush();
  assert.throws(() => open(file), oneLine(/^data store .*store\.json holds contact records, a resource the data standard served does not have/));
  // The files are untouched: the standard that wrote them reads every record back.
  const again = new DataStore(v52);
  Persistence.open(file, again);
  assert.equal(again.collection('contact').byId.size, 1);
  assert.equal(again.collection('gradeLevelDescriptor').byId.size, 1);
});

test('a store records the data standard it was written under, and a deployment of another standard refuses it from its journal and from its state file, even where the resources share names', async () => {
  // gradeLevelDescriptor is in both: without the recorded standard these files would load.
  const file = storeFile();
  const written = new DataStore(model);
  const persistence = Persistence.open(file, written, { standard: '5.2' });
  written.create(resource, doc('A'));
  written.create(resource, doc('B'));
  await persistence.idle();
  const journal = readdirSync(dirname(file)).find((f) => f.includes('.journal.'))!;
  const journalLines = readFileSync(join(dirname(file), journal), 'utf8').split('\n').filter(Boolean);
  assert.deepEqual(journalLines.map((l) => readJournalHeader(l)), [{ standard: '5.2' }, undefined, undefined], 'the journal begins with the standard, once');
  const refused = (where: RegExp) => oneLine(new RegExp(`^data store ${where.source} was written by a deployment serving Data Standard 5\\.2, and this one serves 4\\.0: start with dataStandard "5\\.2", or use another dataStore$`));
  assert.throws(() => open(file, { standard: '4.0' }), refused(/.*store\.json\.journal\.0/));
  await persistence.flush();
  assert.equal(decodeState(file, readFileSync(file, 'utf8'), false).state.standard, '5.2');
  // The journal the compaction began has its own header, first.
  written.create(resource, doc('C'));
  const lines = readdirSync(dirname(file)).filter((f) => f.includes('.journal.')).map((f) => readFileSync(join(dirname(file), f), 'utf8').split('\n').filter(Boolean));
  assert.deepEqual(lines.map((l) => l.map((x) => readJournalHeader(x)?.standard ?? 'entry')), [['5.2', 'entry']]);
  assert.throws(() => open(file, { standard: '4.0' }), refused(/.*store\.json/));
  // Untouched: the standard that wrote them reads every record back.
  assert.deepEqual(codes(open(file, { standard: '5.2' }).store).sort(), ['A', 'B', 'C']);
});

test('a store written before the standard was recorded opens under any standard, and its next compaction records the one served', async () => {
  const file = storeFile();
  const old = open(file);
  old.store.create(resource, doc('A'));
  await old.persistence.flush();
  assert.equal(decodeState(file, readFileSync(file, 'utf8'), false).state.standard, undefined);
  const now = open(file, { standard: '4.0' });
  assert.deepEqual(codes(now.store), ['A']);
  await now.persistence.flush();
  assert.equal(decodeState(file, readFileSync(file, 'utf8'), false).state.standard, '4.0');
});
