import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, test } from 'node:test';
import { startForTest } from '../helpers.js';
import { referenceProblems } from './invariants.js';

/**
 * Concurrent writes over HTTP against an in-process reference. Every request of a round is held
 * at a gate on its own connection (all of it sent but its last bytes: the end of the head for a
 * DELETE, half of the body for a POST or PUT) until all of them are in flight; then all are
 * completed at once, so the server starts them together and interleaves them wherever it awaits.
 * A check-then-act race (an await between a check and the write it guards) fails these tests.
 */
type Answer = { status: number; headers: Record<string, string>; body: string };
type Ref = Awaited<ReturnType<typeof startForTest>>;
interface Call { method: string; path: string; body?: unknown; headers?: Record<string, string> }

async function gated(calls: Call[]): Promise<Answer[]> {
  const url = new URL(ref.dataApiBaseUrl);
  let ready = 0;
  let release!: () => void;
  const gate = new Promise<void>((resolve) => { release = resolve; });
  const answers = calls.map((c) => new Promise<Answer>((resolve, reject) => {
    const payload = c.body === undefined ? Buffer.alloc(0) : Buffer.from(JSON.stringify(c.body));
    const head = [`${c.method} ${url.pathname}/data/v3/core/${c.path} HTTP/1.1`, `Host: ${url.host}`, `Authorization: Bearer ${ref.token}`, 'Connection: close',
      ...(payload.length ? ['Content-Type: application/json', `Content-Length: ${payload.length}`] : []), ...Object.entries(c.headers ?? {}).map(([k, v]) => `${k}: ${v}`)].join('\r\n');
    const whole = Buffer.concat([Buffer.from(`${head}\r\n\r\n`), payload]);
    const cut = payload.length ? whole.length - Math.ceil(payload.length / 2) : whole.length - 2;
    const socket = net.connect(Number(url.port), url.hostname);
    const chunks: Buffer[] = [];
    socket.on('data', (d: Buffer) => chunks.push(d));
    socket.on('error', reject);
    socket.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const split = text.indexOf('\r\n\r\n');
      const [statusLine, ...lines] = text.slice(0, split).split('\r\n');
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: text.slice(split + 4) });
    });
    socket.on('connect', () => socket.write(whole.subarray(0, cut), () => { if (++ready === calls.length) setTimeout(release, 50); }));
    void gate.then(() => socket.write(whole.subarray(cut)));
  }));
  return Promise.all(answers);
}

// One reference for the file (demo data: records to reference); each test uses keys of its own.
let ref: Ref;
before(async () => { ref = await startForTest({ demoData: true }); });
after(async () => { await ref.close(); });

const count = (answers: Answer[], status: number) => answers.filter((a) => a.status === status).length;
const idOf = (a: Answer) => String(a.headers.location).split('/').pop()!;

test('100 concurrent POSTs of one natural key create exactly one record', async () => {
  const versionBefore = ref.store.newestChangeVersion;
  // A descriptor (server-assigned descriptor id) and a record with references and a composite key.
  const descriptor = (i: number) => ({ codeValue: 'Concurrent', namespace: 'uri://test/GradeLevelDescriptor', shortDescription: `writer ${i % 2}` });
  const association = (i: number) => ({ studentReference: { studentUniqueId: 'S1002' }, schoolReference: { schoolId: 255901107 }, entryDate: '2031-08-20', entryGradeLevelDescriptor: `uri://core.org/GradeLevelDescriptor#${i % 2 ? 'Tenth' : 'Ninth'} grade` });
  for (const [endpoint, body] of [['gradeLevelDescriptors', descriptor], ['studentSchoolAssociations', association]] as const) {
    const answers = await gated(Array.from({ length: 100 }, (_, i) => ({ method: 'POST', path: endpoint, body: body(i) })));
    assert.deepEqual(answers.filter((a) => a.status !== 200 && a.status !== 201).map((a) => `${a.status} ${a.body}`), [], endpoint);
    assert.equal(count(answers, 201), 1, `${endpoint}: exactly one 201 (create); the rest 200 (update)`);
    assert.equal(new Set(answers.map(idOf)).size, 1, `${endpoint}: every answer names the same record`);
    const resource = ref.store.model.byEndpoint.get(endpoint.toLowerCase())!;
    const records = [...ref.store.collection(resource.name).byId.values()].filter((r) => r.key === ref.store.findByKey(resource, body(0))?.key);
    assert.equal(records.length, 1, `${endpoint}: one stored record for the key`);
    assert.equal(records[0].id, idOf(answers[0]));
  }
  assert.ok(ref.store.newestChangeVersion > versionBefore);
  assert.deepEqual(referenceProblems(ref.store), []);
});

test('50 concurrent PUTs with the same If-Match: exactly one 204, 412 for the rest', async () => {
  const doc = { codeValue: 'Locked', namespace: 'uri://test/GradeLevelDescriptor', shortDescription: 'original' };
  const created = await ref.data('gradeLevelDescriptors', { method: 'POST', body: JSON.stringify(doc) });
  assert.equal(created.status, 201);
  const id = created.headers.get('location')!.split('/').pop()!;
  const etag = created.headers.get('etag')!;
  const version = ref.store.newestChangeVersion;
  const answers = await gated(Array.from({ length: 50 }, (_, i) => ({ method: 'PUT', path: `gradeLevelDescriptors/${id}`, body: { ...doc, shortDescription: `writer ${i}` }, headers: { 'If-Match': etag } })));
  assert.equal(count(answers, 204), 1, `one winner; got ${JSON.stringify(answers.map((a) => a.status))}`);
  assert.equal(count(answers, 412), 49);
  for (const a of answers.filter((x) => x.status === 412)) assert.match(JSON.parse(a.body).type as string, /optimistic-lock-failed$/);
  const winner = answers.findIndex((a) => a.status === 204);
  const stored = (await (await ref.data(`gradeLevelDescriptors/${id}`)).json()) as { shortDescription: string; _etag: string };
  assert.equal(stored.shortDescription, `writer ${winner}`, 'the stored document is the 204 writer\'s');
  assert.notEqual(`"${stored._etag}"`, etag);
  assert.equal(ref.store.newestChangeVersion, version + 1, 'exactly one change');
});

test('concurrent deletes and reference-creating writes never leave a dangling reference', async () => {
  const targets = Array.from({ length: 12 }, (_, i) => `RACE-${i}`);
  for (const s of targets) {
    const res = await ref.data('students', { method: 'POST', body: JSON.stringify({ studentUniqueId: s, firstName: 'Race', lastSurname: s, birthDate: '2015-05-05' }) });
    assert.equal(res.status, 201);
  }
  const ids = new Map<string, string>();
  for (const s of targets) ids.set(s, ((await (await ref.data(`students?studentUniqueId=${s}`)).json()) as { id: string }[])[0].id);
  // Per target: a DELETE of the student among four writes that reference it (new associations,
  // and a PUT that moves an existing association onto it), all released together.
  const existing = ((await (await ref.data('studentSchoolAssociations?limit=1')).json()) as Record<string, unknown>[])[0];
  const calls: (Call & { target: string; kind: string })[] = [];
  targets.forEach((s, t) => {
    const create = (k: number): Call & { target: string; kind: string } => ({ method: 'POST', path: 'studentSchoolAssociations', target: s, kind: 'create', body: { studentReference: { studentUniqueId: s }, schoolReference: { schoolId: 255901107 }, entryDate: `2030-0${k + 1}-1${t % 10}`, entryGradeLevelDescriptor: 'uri://core.org/GradeLevelDescriptor#Ninth grade' } });
    // The DELETE sits at a different place among the writes of each target.
    const mine: (Call & { target: string; kind: string })[] = [create(0), create(1), create(2)];
    mine.splice(t % 4, 0, { method: 'DELETE', path: `students/${ids.get(s)}`, target: s, kind: 'delete' });
    if (t === 0) {
      const { id, _etag, _lastModifiedDate, ...doc } = existing;
      mine.unshift({ method: 'PUT', path: `studentSchoolAssociations/${String(id)}`, target: s, kind: 'move', body: { ...doc, studentReference: { studentUniqueId: s } } });
    }
    calls.push(...mine);
  });
  const answers = await gated(calls);
  const failures = answers.map((a, i) => ({ a, c: calls[i] })).filter(({ a }) => a.status >= 500 || ![200, 201, 204, 400, 409].includes(a.status));
  assert.deepEqual(failures.map(({ a, c }) => `${c.method} ${c.path}: ${a.status} ${a.body}`), []);
  for (const s of targets) {
    const mine = answers.map((a, i) => ({ a, c: calls[i] })).filter(({ c }) => c.target === s);
    const deleted = mine.find(({ c }) => c.kind === 'delete')!.a.status === 204;
    const referencing = mine.filter(({ c, a }) => c.kind !== 'delete' && a.status < 300).length;
    if (deleted) assert.equal(referencing, 0, `${s}: deleted (204) while ${referencing} write(s) referencing it succeeded`);
    else assert.equal(mine.find(({ c }) => c.kind === 'delete')!.a.status, 409, `${s}: a refused delete is a 409 dependent-item-exists`);
    const live = (await (await ref.data(`studentSchoolAssociations?studentUniqueId=${s}`)).json()) as unknown[];
    assert.equal(live.length, referencing, `${s}: stored associations match the acknowledged writes`);
    assert.equal((await ref.data(`students/${ids.get(s)}`)).status, deleted ? 404 : 200);
  }
  assert.deepEqual(referenceProblems(ref.store), []);
});
