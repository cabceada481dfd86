/**
 * Shards of one run at the same time against one deployment (issue #24 point 2, shards.ts): the
 * run ids and school years that keep their keys apart, the markers through which shard 1 leads,
 * and the rostering world every shard computes alike from the run's id.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';

// The ledger of what these tests write goes to a directory of their own (set before it is imported).
process.env.CONFORMANCE_LEDGER_DIR = mkdtempSync(join(tmpdir(), 'shared-run-ledger-'));
const { keySafeRunId, yearsPerShard } = await import('../run-id.js');
const { schoolYearOf } = await import('../builders.js');
const { awaitFollowers, awaitLeader, clearMarkers, publish, register } = await import('../shards.js');
type Marker = import('../shards.js').Marker;
type MarkerStore = import('../shards.js').MarkerStore;
const { shardMarkers } = await import('../shard-markers.js');
const { ShardRun, sharedDetail } = await import('../shard-run.js');
const { DataClient } = await import('../fixtures.js');
const { httpClient } = await import('../http.js');
const { target } = await import('../target.js');
const { DryWriter, Writer, buildWorld } = await import('../../rostering/_support/world.js');

// ---- run ids and school years ---------------------------------------------------------------------

test('a run id shards share becomes a key-safe id of six to nine characters, the same for every shard', () => {
  assert.equal(keySafeRunId('Build42'), 'build42');
  const hashed = keySafeRunId('6789012345-1');
  assert.match(hashed, /^[0-9a-z]{9}$/);
  assert.equal(keySafeRunId('6789012345-1'), hashed, 'every shard computes the same');
  assert.notEqual(keySafeRunId('6789012345-2'), hashed, 'another run, another id');
  assert.notEqual(keySafeRunId('abcdefghij'), 'abcdefghij'.slice(0, 9), 'too long: hashed, not cut (two runs could share a prefix)');
  for (const short of ['42', 'abc', 'b1234']) assert.match(keySafeRunId(short), /^[0-9a-z]{9}$/, `${short}: too short for the six characters every key carries, hashed`);
  assert.equal(keySafeRunId('b12345'), 'b12345');
});

test('the shards of one run take school years no other shard takes, each within the years the range tests leave', () => {
  for (const total of [2, 3, 4, 7]) {
    const share = yearsPerShard(total);
    const owner = new Map<number, number>();
    for (let current = 1; current <= total; current++) {
      for (let worker = 0; worker < share; worker++) {
        const year = schoolYearOf(worker, { base: 'k3x9q2', current, total });
        assert.ok(year >= 1992 && year <= 2049, `${year}`);
        assert.ok(!owner.has(year) || owner.get(year) === current, `${total} shards: ${year} is shard ${owner.get(year)}'s and shard ${current}'s`);
        owner.set(year, current);
      }
    }
    assert.equal(owner.size, share * total);
  }
});

// ---- the protocol, on a store in memory, with a clock of the test's ------------------------------

function memoryStore(): MarkerStore & { markers: Map<string, Marker>; handedOver: string[] } {
  const markers = new Map<string, Marker>();
  const handedOver: string[] = [];
  return {
    markers, handedOver,
    list: async () => [...markers.values()].map((m) => ({ ...m })),
    save: async (m) => { markers.set(m.code, { ...m }); },
    remove: async (code) => { markers.delete(code); },
    handOver: (code) => { handedOver.push(code); },
  };
}

/** A clock that moves only when slept on; `onSleep` plays the other shards meanwhile. */
function testClock(onSleep: (now: number) => void = () => undefined) {
  let now = 0;
  return { now: () => now, sleep: async (ms: number) => { now += ms; onSleep(now); } };
}

test('a shard waits for shard 1\'s word, and reads what it said', async () => {
  const store = memoryStore();
  const clock = testClock((now) => { if (now >= 5_000 && !store.markers.has('shard-1')) void publish(store, 'ready', '{"taken":{"sea":"held"}}'); });
  const leader = await awaitLeader(store, clock, 60_000);
  assert.equal(leader?.state, 'ready');
  assert.equal(leader?.detail, '{"taken":{"sea":"held"}}');
  assert.ok(clock.now() >= 5_000 && clock.now() < 7_000, `returned at ${clock.now()} ms`);
});

test('a shard that hears nothing from shard 1 gives up after its wait, and a running shard\'s marker is no word', async () => {
  const store = memoryStore();
  await store.save({ code: 'shard-3', state: 'running', detail: '0' });
  const clock = testClock();
  assert.equal(await awaitLeader(store, clock, 30_000), undefined);
  assert.ok(clock.now() >= 30_000 && clock.now() < 32_000);
});

test('shard 1 waits for every other shard: done, stopped beating (killed) or never registered', async () => {
  const store = memoryStore();
  let beats = 0;
  const clock = testClock((now) => {
    // Shard 2 beats until 40 s, then is done; shard 3 beats until 20 s, then nothing; shard 4 never comes.
    if (now <= 40_000) store.markers.set('shard-2', { code: 'shard-2', state: now === 40_000 ? 'done' : 'running', detail: String(++beats) });
    if (now <= 20_000) store.markers.set('shard-3', { code: 'shard-3', state: 'running', detail: String(now) });
  });
  const outcome = await awaitFollowers(store, clock, 4, { readyAt: 0, staleMs: 60_000, joinMs: 100_000, pollMs: 2_000 });
  assert.deepEqual(outcome, { done: [2], stale: [3], absent: [4] });
  // Not before the last of them could be known: shard 3 silent for 60 s after 20 s, shard 4 absent for 100 s.
  assert.ok(clock.now() >= 100_000, `returned at ${clock.now()} ms`);
  assert.ok(clock.now() < 104_000, `returned at ${clock.now()} ms`);
});

test('shard 1 does not take a shard that still beats for killed, however long it runs', async () => {
  const store = memoryStore();
  const clock = testClock((now) => {
    store.markers.set('shard-2', { code: 'shard-2', state: now >= 300_000 ? 'done' : 'running', detail: String(Math.floor(now / 10_000)) });
  });
  const outcome = await awaitFollowers(store, clock, 2, { readyAt: 0, staleMs: 60_000, joinMs: 30_000, pollMs: 2_000 });
  assert.deepEqual(outcome, { done: [2], stale: [], absent: [] });
  assert.ok(clock.now() >= 300_000);
});

test('a shard registers, beats while it runs, and at its end is marked done (handed to shard 1) or leaves', async () => {
  const store = memoryStore();
  const presence = await register(store, 2, 5);
  assert.equal(store.markers.get('shard-2')?.state, 'running');
  await new Promise((r) => setTimeout(r, 60));
  assert.ok(Number(store.markers.get('shard-2')?.detail) > 0, 'it beat');
  await presence.done();
  assert.equal(store.markers.get('shard-2')?.state, 'done');
  assert.deepEqual(store.handedOver, ['shard-2']);
  const beat = store.markers.get('shard-2')!.detail;
  await new Promise((r) => setTimeout(r, 30));
  assert.equal(store.markers.get('shard-2')?.detail, beat, 'no beat after the end');
  const other = await register(store, 3, 5);
  await other.leave();
  assert.equal(store.markers.has('shard-3'), false);
  await clearMarkers(store);
  assert.equal(store.markers.size, 0);
});

test('what shard 1 tells the others fits a descriptor\'s description, the longest texts cut', () => {
  const long = 'x'.repeat(400);
  const taken = { sea: long, lea1: long, lea2: long, schoolA: long, schoolB: long };
  const detail = sharedDetail({ tokens: {}, districts: {}, taken, withheldFlows: { context: long } });
  assert.ok(detail.length <= 1024, `${detail.length}`);
  assert.deepEqual(Object.keys(JSON.parse(detail).taken), Object.keys(taken));
  assert.equal(sharedDetail({ tokens: {}, districts: {}, taken: { sea: 'is held' } }), '{"taken":{"sea":"is held"}}');
  assert.equal(sharedDetail(undefined), '{}');
});

test('the other shards read what shard 1 said: the ids it found held, or why it wrote nothing', async () => {
  const store = memoryStore();
  const clock = testClock();
  const run = { base: 'k3x9q2', total: 2 };
  const leader = await ShardRun.begin({ ...run, current: 1 }, 'token', clock, store);
  assert.equal(leader.leads, true);
  assert.deepEqual(leader.rostering, { seed: 'k3x9q2' });
  await leader.started({ tokens: {}, districts: {}, taken: { schoolD: 'is already the deployment\'s school "D"' } });
  const follower = await ShardRun.begin({ ...run, current: 2 }, 'token', clock, store);
  assert.deepEqual(follower.rostering, { seed: 'k3x9q2', replay: { taken: { schoolD: 'is already the deployment\'s school "D"' } } });
  await follower.started(undefined);
  assert.equal(store.markers.get('shard-2')?.state, 'running');
  await follower.end();
  assert.equal(store.markers.get('shard-2')?.state, 'done', 'done, for shard 1 to delete');
  await leader.end();
  assert.equal(store.markers.size, 0);

  // Shard 1's set-up fails: its word stays, and the others learn why at once.
  const failing = await ShardRun.begin({ ...run, current: 1 }, 'token', clock, store);
  await failing.failed(new Error('the target\'s rostering declarations do not fit the deployment:\n- client x'));
  const told = await ShardRun.begin({ ...run, current: 2 }, 'token', clock, store);
  assert.match(String(told.rostering.replay), /^shard 1 of this run \(k3x9q2\) could not write the rostering data: the target's rostering declarations do not fit the deployment:$/);
  assert.equal(clock.now(), 0, 'without waiting');
  await told.started(undefined);
  await told.end();
  assert.deepEqual([...store.markers.keys()], ['shard-1'], 'a shard whose shard 1 wrote nothing leaves no marker');
});

// ---- against a deployment played by a server ------------------------------------------------------

/** A data API of descriptors and records, in memory: POST upserts by namespace and code value, GET filters by namespace. */
let server: Server;
let base = '';
const posted: { path: string; body: Record<string, unknown> }[] = [];
before(async () => {
  const records = new Map<string, Map<string, Record<string, unknown>>>();
  let next = 0;
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => { raw += c.toString(); });
    req.on('end', () => {
      const url = new URL(req.url!, 'http://x');
      const item = /\/([0-9a-f]{12})$/.exec(url.pathname);
      const coll = item ? url.pathname.slice(0, -13) : url.pathname;
      const store = records.get(coll) ?? new Map<string, Record<string, unknown>>();
      records.set(coll, store);
      const send = (status: number, body?: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
        res.end(body === undefined ? undefined : JSON.stringify(body));
      };
      if (req.method === 'GET') {
        const ns = url.searchParams.get('namespace');
        return send(200, [...store.values()].filter((r) => ns === null || r.namespace === ns));
      }
      if (req.method === 'POST') {
        const body = JSON.parse(raw) as Record<string, unknown>;
        posted.push({ path: coll, body });
        const same = [...store.entries()].find(([, r]) => r.namespace !== undefined && r.namespace === body.namespace && r.codeValue === body.codeValue);
        if (same) { store.set(same[0], { ...body, id: same[0] }); return send(200, undefined, { Location: `${coll}/${same[0]}` }); }
        const newId = (++next).toString(16).padStart(12, '0');
        store.set(newId, { ...body, id: newId });
        return send(201, undefined, { Location: `${coll}/${newId}` });
      }
      if (req.method === 'DELETE') {
        return send(item && store.delete(item[1]) ? 204 : 404);
      }
      send(405);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}/api`;
});
after(() => new Promise<void>((r) => server.close(() => r())));

test('the markers on a deployment: saved by POST (an upsert), listed by the run\'s namespace, removed by DELETE', async () => {
  const request = httpClient();
  const client = new DataClient(request, { ...target, dataApi: { ...target.dataApi, baseUrl: base }, dataRoot: base }, 'token', []);
  const store = shardMarkers(client, 'uri://t.test', 'run1');
  const other = shardMarkers(client, 'uri://t.test', 'run2');
  await publish(store, 'ready', '{}');
  await store.save({ code: 'shard-2', state: 'running', detail: '0' });
  await store.save({ code: 'shard-2', state: 'running', detail: '1' });
  await other.save({ code: 'shard-1', state: 'ready', detail: '{}' });
  assert.deepEqual((await store.list()).map(({ code, state, detail }) => ({ code, state, detail })), [
    { code: 'shard-1', state: 'ready', detail: '{}' }, { code: 'shard-2', state: 'running', detail: '1' },
  ]);
  await store.remove('shard-2');
  assert.deepEqual((await store.list()).map((m) => m.code), ['shard-1']);
  await clearMarkers(store);
  assert.deepEqual(await store.list(), []);
  assert.deepEqual((await other.list()).map((m) => m.code), ['shard-1'], 'another run\'s markers are not this run\'s');
  await request.dispose();
});

test('every shard computes the world shard 1 wrote: same seed, same keys and names, with nothing written', async () => {
  const request = httpClient();
  const ids = { sea: 1001, lea1: 1002, lea2: 1003, schoolA: 1004, schoolB: 1005, schoolC: 1006, schoolD: 1007, pagingLea: 1008 };
  posted.length = 0;
  const written = await buildWorld(new Writer(request, 'token', base, 'k3x9q2w'), ids);
  const writes = posted.length;
  assert.ok(writes > 30, `the world was written (${writes} POSTs)`);
  const computed = await buildWorld(new DryWriter(base, 'k3x9q2w'), ids);
  assert.equal(posted.length, writes, 'a dry writer writes nothing');
  assert.deepEqual(computed, written);
  const otherRun = await buildWorld(new DryWriter(base, 'a1b2c3w'), ids);
  assert.notEqual(otherRun.names.sea, written.names.sea, 'another seed, other names');
  await request.dispose();
});
