import assert from 'node:assert/strict';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { model } from '../../../spec/model/index.js';
import type { ClientConfig } from '../../config/types.js';
import { StoreRegistry } from '../../store/registry.js';
import type { DataStore } from '../../store/store.js';
import { startChildReference, type ChildReference } from '../../../tools/child-reference.js';
import { startForTest } from '../helpers.js';
import { referenceProblems } from './invariants.js';

/**
 * Durable stores (`file:<path>`: journal + lowdb file) with the reference as a child process,
 * killed with SIGKILL: every acknowledged write survives, unacknowledged writes are applied
 * whole or not at all, change versions keep increasing, the files stay valid.
 */
const CLIENT: ClientConfig = { key: 'durable', secret: 'durable-secret' };

interface Api {
  child: ChildReference;
  call: (method: string, path: string, body?: unknown, headers?: Record<string, string>) => Promise<{ status: number; etag: string | null; location: string | null; json: () => unknown }>;
}

async function connect(child: ChildReference): Promise<Api> {
  const res = await fetch(`${child.dataApiBaseUrl}/oauth/token`, {
    method: 'POST',
    headers: { Authorization: `Basic ${Buffer.from(`${CLIENT.key}:${CLIENT.secret}`).toString('base64')}`, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials',
  });
  const token = ((await res.json()) as { access_token: string }).access_token;
  return {
    child,
    call: async (method, path, body, headers = {}) => {
      const url = path.startsWith('/') ? `${child.dataApiBaseUrl}${path}` : `${child.dataApiBaseUrl}/data/v3/core/${path}`;
      const r = await fetch(url, { method, headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...headers }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
      const text = await r.text();
      return { status: r.status, etag: r.headers.get('etag'), location: r.headers.get('location'), json: () => JSON.parse(text) as unknown };
    },
  };
}

const start = (dir: string, demoData = false) => startChildReference({ dir, config: { clients: [CLIENT], dataStore: `file:${join(dir, 'store.json')}`, demoData } }).then(connect);
const killed = async (api: Api) => { api.child.kill('SIGKILL'); await api.child.exited; };
const versionOf = (etag: string | null) => Number(String(etag).replace(/"/g, ''));
const idOf = (location: string | null) => String(location).split('/').pop()!;
/** The members a client sent, as the server returns them (system members and descriptor ids aside). */
const sent = (stored: Record<string, unknown>, doc: Record<string, unknown>) => Object.fromEntries(Object.keys(doc).map((k) => [k, stored[k]]));

/** Every line of every journal parses, except perhaps a torn last line; the lowdb file, if any, is JSON. */
function checkFiles(dir: string): string[] {
  const problems: string[] = [];
  for (const f of readdirSync(dir).filter((x) => x.startsWith('store.json'))) {
    const text = readFileSync(join(dir, f), 'utf8');
    if (f === 'store.json') {
      try {
        const state = JSON.parse(text) as { version?: unknown; collections?: unknown; generation?: unknown };
        if (typeof state.version !== 'number' || typeof state.generation !== 'number' || typeof state.collections !== 'object') problems.push('store.json lacks version, generation or collections');
      } catch (err) {
        problems.push(`store.json is not JSON: ${(err as Error).message}`);
      }
      continue;
    }
    const lines = text.split('\n');
    lines.forEach((line, i) => {
      if (!line || i === lines.length - 1) return;
      try { JSON.parse(line); } catch { problems.push(`${f} line ${i + 1} is not JSON: ${line.slice(0, 80)}`); }
    });
  }
  return problems;
}

/** The store as a fresh process loads it from the files (opened in this process, read only). */
const load = (dir: string): DataStore => new StoreRegistry(model).open(`file:${join(dir, 'store.json')}`);

interface Tracked {
  endpoint: string;
  key: string;
  id?: string;
  /** Last acknowledged document (undefined: never acknowledged), or 'deleted'. */
  acked?: Record<string, unknown> | 'deleted';
  ackedVersion?: number;
  /** What an unacknowledged request in flight at the kill would make it. */
  pending?: Record<string, unknown> | 'deleted';
}

test('SIGKILL mid-load: acknowledged writes survive, unacknowledged ones are whole or absent, versions keep increasing, files stay valid', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'durable-load-'));
  const first = await start(dir, true);
  const tracked: Tracked[] = [];
  let acks = 0;
  let maxAcked = 0;
  let stop = false;
  const ack = (t: Tracked, state: Record<string, unknown> | 'deleted', etag: string | null) => {
    t.acked = state;
    t.pending = undefined;
    if (etag) { t.ackedVersion = versionOf(etag); maxAcked = Math.max(maxAcked, t.ackedVersion); }
    acks++;
  };
  /** One request; undefined when the connection died (the kill): the write stays pending. */
  const attempt = async (method: string, path: string, body?: unknown) => {
    try { return await first.call(method, path, body); } catch { stop = true; return undefined; }
  };

  // Each worker owns its records, so that at most one request per record is in flight.
  const worker = async (w: number) => {
    const descriptors: Tracked[] = [];
    for (let i = 0; !stop; i++) {
      const step = i % 5;
      if (step === 0 || !descriptors.length) {
        const doc = { codeValue: `W${w}-${i}`, namespace: 'uri://durable.test/GradeLevelDescriptor', shortDescription: `created ${i}` };
        const t: Tracked = { endpoint: 'gradeLevelDescriptors', key: doc.codeValue, pending: doc };
        tracked.push(t);
        descriptors.push(t);
        const r = await attempt('POST', 'gradeLevelDescriptors', doc);
        if (!r) return;
        assert.equal(r.status, 201);
        t.id = idOf(r.location);
        ack(t, doc, r.etag);
      } else if (step === 1 || step === 3) {
        const t = descriptors[descriptors.length - 1];
        const doc = { ...(t.acked as Record<string, unknown>), shortDescription: `updated ${i}` };
        t.pending = doc;
        const r = await attempt('PUT', `gradeLevelDescriptors/${t.id}`, doc);
        if (!r) return;
        assert.equal(r.status, 204);
        ack(t, doc, r.etag);
      } else if (step === 2) {
        // A record and another that references it, each acknowledged on its own.
        const student = { studentUniqueId: `W${w}-S${i}`, firstName: 'Dura', lastSurname: `Ble ${i}`, birthDate: '2014-04-04' };
        const s: Tracked = { endpoint: 'students', key: student.studentUniqueId, pending: student };
        tracked.push(s);
        let r = await attempt('POST', 'students', student);
        if (!r) return;
        assert.equal(r.status, 201);
        s.id = idOf(r.location);
        ack(s, student, r.etag);
        const association = { studentReference: { studentUniqueId: student.studentUniqueId }, schoolReference: { schoolId: 255901107 }, entryDate: '2031-08-20', entryGradeLevelDescriptor: 'uri://core.org/GradeLevelDescriptor#Ninth grade' };
        const a: Tracked = { endpoint: 'studentSchoolAssociations', key: student.studentUniqueId, pending: association };
        tracked.push(a);
        r = await attempt('POST', 'studentSchoolAssociations', association);
        if (!r) return;
        assert.equal(r.status, 201);
        a.id = idOf(r.location);
        ack(a, association, r.etag);
      } else if (descriptors.length > 1) {
        const t = descriptors.shift()!;
        t.pending = 'deleted';
        const r = await attempt('DELETE', `gradeLevelDescriptors/${t.id}`);
        if (!r) return;
        assert.equal(r.status, 204);
        ack(t, 'deleted', null);
      }
    }
  };
  const workers = Array.from({ length: 8 }, (_, w) => worker(w));
  // Kill while the writes are in full flow: after 300 acknowledged writes, or after 8 s once at
  // least 100 were (a loaded machine is slower, never a reason to kill before the load ran).
  const started = Date.now();
  while (acks < 300 && (acks < 100 || Date.now() - started < 8000)) await new Promise((r) => setTimeout(r, 10));
  await killed(first);
  stop = true;
  await Promise.all(workers);
  const pendingAtKill = tracked.filter((t) => t.pending !== undefined).length;
  assert.ok(acks >= 100, `load was running at the kill (${acks} acknowledged writes)`);

  assert.deepEqual(checkFiles(dir), [], 'the files are valid after the kill');
  assert.deepEqual(referenceProblems(load(dir)), [], 'references are whole in the reloaded store');

  const second = await start(dir);
  try {
    const problems: string[] = [];
    for (const t of tracked) {
      if (t.id) {
        const r = await second.call('GET', `${t.endpoint}/${t.id}`);
        const stored = r.status === 200 ? (r.json() as Record<string, unknown>) : undefined;
        const allowed = [t.acked, t.pending].filter((x) => x !== undefined);
        const matches = allowed.some((state) => (state === 'deleted' ? !stored : !!stored && JSON.stringify(sent(stored, state)) === JSON.stringify(state)));
        if (!matches) problems.push(`${t.endpoint}/${t.id} (${t.key}): acknowledged ${JSON.stringify(t.acked)}${t.pending ? `, pending ${JSON.stringify(t.pending)}` : ''}; found ${stored ? JSON.stringify(stored) : r.status}`);
        if (stored && t.ackedVersion !== undefined && versionOf(String(stored._etag)) < t.ackedVersion) problems.push(`${t.endpoint}/${t.id}: change version went back from ${t.ackedVersion} to ${String(stored._etag)}`);
      } else {
        // A create with no answer: whole (the document as sent) or absent.
        const field = t.endpoint === 'gradeLevelDescriptors' ? 'codeValue' : 'studentUniqueId';
        const found = (await second.call('GET', `${t.endpoint}?${field}=${encodeURIComponent(t.key)}`)).json() as Record<string, unknown>[];
        if (found.length > 1 || (found.length === 1 && JSON.stringify(sent(found[0], t.pending as Record<string, unknown>)) !== JSON.stringify(t.pending))) problems.push(`unacknowledged create of ${t.endpoint} ${t.key} is half-applied: ${JSON.stringify(found)}`);
      }
    }
    assert.deepEqual(problems, [], `after the restart (${acks} acknowledged writes, ${pendingAtKill} in flight at the kill)`);
    const deletes = (await second.call('GET', 'gradeLevelDescriptors/deletes?limit=500')).json() as { id: string }[];
    for (const t of tracked.filter((x) => x.acked === 'deleted')) assert.ok(deletes.some((d) => d.id === t.id), `the deletion of ${t.id} is in the deletes feed`);

    const newest = ((await second.call('GET', '/changeQueries/v1/availableChangeVersions')).json() as { newestChangeVersion: number }).newestChangeVersion;
    assert.ok(newest >= maxAcked, `the newest change version after the restart (${newest}) must not be below the highest acknowledged one (${maxAcked})`);
    const after = await second.call('POST', 'gradeLevelDescriptors', { codeValue: 'after-restart', namespace: 'uri://durable.test/GradeLevelDescriptor', shortDescription: 'after' });
    assert.equal(after.status, 201);
    assert.ok(versionOf(after.etag) > newest, `a write after the restart takes a new change version (${after.etag} > ${newest})`);

    // A clean stop compacts into the lowdb file; loading it (as a third start would) gives the same state.
    assert.equal((await second.child.stop()).code, 0);
    assert.ok(existsSync(join(dir, 'store.json')), 'the lowdb file is written at a clean stop');
    assert.deepEqual(checkFiles(dir), []);
    const state = JSON.parse(readFileSync(join(dir, 'store.json'), 'utf8')) as { version: number };
    assert.equal(state.version, versionOf(after.etag));
    const compacted = load(dir);
    assert.equal(compacted.newestChangeVersion, versionOf(after.etag));
    for (const t of tracked.filter((x) => x.id && x.acked && x.acked !== 'deleted' && !x.pending)) {
      const resource = model.byEndpoint.get(t.endpoint.toLowerCase())!;
      assert.ok(compacted.collection(resource.name).byId.has(t.id!), `${t.endpoint}/${t.id} after compaction`);
    }
    assert.deepEqual(referenceProblems(compacted), []);
  } finally {
    await second.child.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

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
