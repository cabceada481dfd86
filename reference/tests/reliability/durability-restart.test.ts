import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { DataStore } from '../../store/store.js';
import { startForTest } from '../helpers.js';
import { idOf, killed, load, start } from './durable-store.js';
import { referenceProblems } from './invariants.js';

/**
 * Durable stores across a restart: what a SIGKILL at an unlucky moment leaves (a torn journal
 * line, a write cut between its journal lines) and what the next start makes of it. The kill
 * under load is durability.test.ts's.
 */

test('a record referenced before it was updated is still protected from DELETE after a restart', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'durable-refs-'));
  const first = await start(dir, true);
  const student = { studentUniqueId: 'REF-1', firstName: 'Before', lastSurname: 'Update', birthDate: '2014-04-04' };
  const created = await first.call('POST', 'students', student);
  assert.equal(created.status, 201);
  const id = idOf(created.location);
  assert.equal((await first.call('POST', 'studentSchoolAssociations', { studentReference: { studentUniqueId: 'REF-1' }, schoolReference: { schoolId: 255901107 }, entryDate: '2031-08-20', entryGradeLevelDescriptor: 'uri://core.org/GradeLevelDescriptor#Ninth grade' })).status, 201);
  assert.equal((await first.call('PUT', `students/${id}`, { ...student, firstName: 'After' })).status, 204);
  assert.equal((await first.call('DELETE', `students/${id}`)).status, 409, 'referenced: the delete is refused before the restart');
  await killed(first);
  const second = await start(dir);
  try {
    const del = await second.call('DELETE', `students/${id}`);
    assert.equal(del.status, 409, `after the restart the delete of a referenced record must still be refused (got ${del.status}); a 204 leaves the association dangling`);
  } finally {
    await second.child.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a torn journal line (a kill mid-append) does not swallow the next acknowledged write', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'durable-torn-'));
  const descriptor = (code: string) => ({ codeValue: code, namespace: 'uri://durable.test/GradeLevelDescriptor', shortDescription: code });
  const first = await start(dir);
  assert.equal((await first.call('POST', 'gradeLevelDescriptors', descriptor('before'))).status, 201);
  await killed(first);
  // What a kill in the middle of appending a line leaves: a line with no end.
  const journal = readdirSync(dir).filter((f) => f.startsWith('store.json.journal.')).sort().pop()!;
  appendFileSync(join(dir, journal), '{"t":"put","r":"gradeLevelDescriptor","rec":{"id":"0123');
  const second = await start(dir);
  const written = await second.call('POST', 'gradeLevelDescriptors', descriptor('after-torn-line'));
  assert.equal(written.status, 201);
  await killed(second);
  // What the next start loads from the files.
  const codes = [...load(dir).collection('gradeLevelDescriptor').byId.values()].map((r) => r.doc.codeValue);
  rmSync(dir, { recursive: true, force: true });
  assert.deepEqual(codes.sort(), ['after-torn-line', 'before'], 'the write acknowledged after the torn line survives the next restart');
});

test('killed between the journal lines of one write, a restart finds that write wholly absent, never half-applied', async () => {
  // Every line boundary of the journal is a point where SIGKILL can land (each line is its own
  // append). Writes that journal several lines: a re-create of a deleted key (undelete + put),
  // and a key change that cascades into the records that reference it (put + key change + puts).
  const dir = mkdtempSync(join(tmpdir(), 'durable-cuts-'));
  const file = join(dir, 'store.json');
  const ref = await startForTest({ dataStore: `file:${file}`, demoData: true });
  const journalFile = `${file}.journal.0`;
  const linesBefore = readFileSync(journalFile, 'utf8').split('\n').filter(Boolean).length;
  const writes: string[] = [];
  let lines: string[] = [];
  try {
    const doc = { codeValue: 'Again', namespace: 'uri://durable.test/GradeLevelDescriptor', shortDescription: 'again' };
    const created = await ref.data('gradeLevelDescriptors', { method: 'POST', body: JSON.stringify(doc) });
    assert.equal((await ref.data(`gradeLevelDescriptors/${idOf(created.headers.get('location'))}`, { method: 'DELETE' })).status, 204);
    assert.equal((await ref.data('gradeLevelDescriptors', { method: 'POST', body: JSON.stringify(doc) })).status, 201);
    writes.push('create, delete, re-create of a descriptor');
    const periods = (await (await ref.data('classPeriods')).json()) as Record<string, unknown>[];
    const period = periods.find((p) => [...ref.store.records()].some((r) => r.resource !== 'classPeriod' && JSON.stringify(r.doc).includes(JSON.stringify(p.classPeriodName))))!;
    assert.ok(period, 'a referenced class period in the demo data');
    const { id, _etag, _lastModifiedDate, ...periodDoc } = period;
    assert.equal((await ref.data(`classPeriods/${String(id)}`, { method: 'PUT', body: JSON.stringify({ ...periodDoc, classPeriodName: 'Renamed period' }) })).status, 204);
    writes.push('key change of a referenced class period');
    // Read before close(): a clean close compacts the journal away.
    lines = readFileSync(journalFile, 'utf8').split('\n').filter(Boolean);
  } finally {
    await ref.close();
  }
  assert.ok(lines.slice(linesBefore).flatMap(entriesOf).length > 4, 'the writes journaled several entries');
  const problems: string[] = [];
  for (let cut = linesBefore; cut <= lines.length; cut++) {
    const at = join(dir, `cut-${cut}`);
    mkdirSync(at);
    writeFileSync(join(at, 'store.json.journal.0'), `${lines.slice(0, cut).join('\n')}\n`);
    const store = load(at);
    const why = [...referenceProblems(store), ...lostRecords(store, lines.slice(0, cut)), ...missingKeyChanges(store, lines.slice(0, cut))];
    if (why.length) problems.push(`killed after line ${cut} (${describe(lines[cut - 1])}, before ${describe(lines[cut])}): ${why.join('; ')}`);
  }
  rmSync(dir, { recursive: true, force: true });
  assert.deepEqual(problems, [], `writes: ${writes.join('; ')}`);
});

interface Entry { t: string; r: string; rec?: { id: string; key: string; changeVersion: number } }
/** The entries of a journal line: one entry, or several written together (an array, or a batch entry holding them). */
function entriesOf(line: string): Entry[] {
  const v = JSON.parse(line) as Entry | Entry[] | { e?: Entry[]; entries?: Entry[] };
  if (Array.isArray(v)) return v;
  const nested = (v as { e?: Entry[] }).e ?? (v as { entries?: Entry[] }).entries;
  return Array.isArray(nested) ? nested : [v as Entry];
}

const describe = (line: string | undefined) => {
  if (!line) return 'end';
  return entriesOf(line).map((e) => `${e.t} ${e.r}${e.rec ? ` ${e.rec.id.slice(0, 8)}` : ''}`).join(' + ');
};

/** Records that were put and are now neither live, nor deleted in the feed, nor replaced by a live record of the same key. */
function lostRecords(store: DataStore, lines: string[]): string[] {
  const lastPut = new Map<string, { r: string; key: string }>();
  for (const e of lines.flatMap(entriesOf)) if (e.t === 'put') lastPut.set(e.rec!.id, { r: e.r, key: e.rec!.key });
  const out: string[] = [];
  for (const [id, { r, key }] of lastPut) {
    const c = store.collection(r);
    if (c.byId.has(id) || c.deletes.some((d) => d.id === id) || c.byKey.has(key)) continue;
    out.push(`${r} ${id.slice(0, 8)} is gone without a delete event`);
  }
  return out;
}

/** Records whose key changed without the key-change event of that change. */
function missingKeyChanges(store: DataStore, lines: string[]): string[] {
  const keys = new Map<string, string>();
  const out: string[] = [];
  for (const e of lines.flatMap(entriesOf)) {
    if (e.t !== 'put') continue;
    const before = keys.get(e.rec!.id);
    keys.set(e.rec!.id, e.rec!.key);
    if (before !== undefined && before !== e.rec!.key && !store.collection(e.r).keyChanges.some((k) => k.id === e.rec!.id && k.changeVersion === e.rec!.changeVersion)) {
      out.push(`${e.r} ${e.rec!.id.slice(0, 8)} changed key without its key-change event`);
    }
  }
  return out;
}
