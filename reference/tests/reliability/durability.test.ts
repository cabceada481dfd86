import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { model } from '../../../spec/model/index.js';
import { decodeState } from '../../store/state-file.js';
import { checkFiles, idOf, killed, load, start, versionOf } from './durable-store.js';
import { referenceProblems } from './invariants.js';

/**
 * Durable stores (`file:<path>`: journal + state file) with the reference as a child process,
 * killed with SIGKILL: every acknowledged write survives, unacknowledged writes are applied
 * whole or not at all, change versions keep increasing, the files stay valid. What a restart
 * makes of a kill at an unlucky moment is durability-restart.test.ts's.
 */

/** The members a client sent, as the server returns them (system members and descriptor ids aside). */
const sent = (stored: Record<string, unknown>, doc: Record<string, unknown>) => Object.fromEntries(Object.keys(doc).map((k) => [k, stored[k]]));

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

    // A clean stop compacts into the state file; loading it (as a third start would) gives the same state.
    assert.equal((await second.child.stop()).code, 0);
    assert.ok(existsSync(join(dir, 'store.json')), 'the state file is written at a clean stop');
    assert.deepEqual(checkFiles(dir), []);
    const { state } = decodeState('store.json', readFileSync(join(dir, 'store.json'), 'utf8'), false);
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
