/**
 * Runs that cannot harm the deployment (issue #24 point 1): what a run creates is in its ledger
 * as it happens, and what earlier runs left is removed (at the next run's start, or by
 * `npm run cleanup`) whatever order their records depend on each other in, never a run in
 * progress, never another target's. Against a small HTTP server playing the deployment.
 */
import { httpClient } from '../http.js';
import assert from 'node:assert/strict';
import { appendFileSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';

const dir = mkdtempSync(join(tmpdir(), 'ledger-'));
process.env.CONFORMANCE_LEDGER_DIR = dir;
const ledger = await import('../ledger.js');
const { removeLeftovers, describeRemoval } = await import('../leftovers.js');

/** The deployment: records by path; a record another one references refuses DELETE with 409. */
const records = new Map<string, string | undefined>();
const deletes: string[] = [];
/** Natural-key queries the deployment answers, and the ones it was asked. */
const queries = new Map<string, { id: string }[]>();
const lookups: string[] = [];
let server: Server;
let base = '';
before(async () => {
  server = createServer((req, res) => {
    const path = req.url!;
    if (req.method === 'GET' && queries.has(path)) {
      lookups.push(path);
      return void res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(queries.get(path)));
    }
    deletes.push(path);
    if (req.method !== 'DELETE') return void res.writeHead(405).end();
    if (req.headers.authorization !== 'Bearer t') return void res.writeHead(401).end();
    if (!records.has(path)) return void res.writeHead(404).end();
    if ([...records.values()].includes(path) || path.endsWith('/stuck')) return void res.writeHead(409).end();
    records.delete(path);
    res.writeHead(204).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
});
after(async () => {
  await new Promise((r) => server.close(r));
  rmSync(dir, { recursive: true, force: true });
});

test('a run\'s ledger holds what it created and did not delete, in order; a torn last line is skipped', () => {
  const l = ledger.ledgerOf('runL');
  l.created(`${base}/a/1`);
  l.created(`${base}/a/2`);
  l.created(`${base}/a/3`);
  l.deleted(`${base}/a/2`);
  appendFileSync(join(dir, `runL.${process.pid}.jsonl`), '{"c":"http://torn');
  assert.deepEqual(ledger.remaining().get('runL'), [`${base}/a/1`, `${base}/a/3`]);
  ledger.beginRun('runL');
  assert.equal(ledger.inProgress('runL'), true, 'its main process (this one) is alive');
  assert.deepEqual(ledger.endRun('runL'), [`${base}/a/1`, `${base}/a/3`], 'a run that left records keeps its ledger');
  assert.equal(ledger.inProgress('runL'), false);
  ledger.forget('runL');
  assert.equal(ledger.remaining().has('runL'), false);
});

test('earlier runs\' records are removed whatever they reference across runs; 404 counts as gone; a record that stays refused is named and kept; the current run, a run in progress and other data APIs are left alone', async () => {
  // runA made a descriptor; runB made a school referencing it: runA's comes first and is refused
  // (409) until runB's school is gone, so a second pass removes it.
  records.set('/api/descriptors/dA', undefined);
  records.set('/api/schools/sB', '/api/descriptors/dA');
  records.set('/api/things/stuck', undefined);
  records.set('/api/things/mine', undefined);
  records.set('/api/things/busy', undefined);
  ledger.ledgerOf('runA').created(`${base}/descriptors/dA`);
  ledger.ledgerOf('runB').created(`${base}/schools/sB`);
  ledger.ledgerOf('runB').created(`${base}/things/gone`);
  ledger.ledgerOf('runC').created(`${base}/things/stuck`);
  ledger.ledgerOf('runNow').created(`${base}/things/mine`);
  ledger.ledgerOf('runBusy').created(`${base}/things/busy`);
  ledger.beginRun('runBusy');
  ledger.ledgerOf('runOther').created('http://elsewhere.example/api/x/1');
  const ctx = httpClient();
  try {
    const r = await removeLeftovers(ctx, [`${base}/`], async () => 't', 'runNow');
    assert.deepEqual({ removed: r.removed, gone: r.gone, failed: r.failed, elsewhere: r.elsewhere }, { removed: 2, gone: 1, failed: [`${base}/things/stuck → 409`], elsewhere: 1 });
    assert.deepEqual([...records.keys()].sort(), ['/api/things/busy', '/api/things/mine', '/api/things/stuck']);
    assert.ok(!deletes.includes('/api/things/mine') && !deletes.includes('/api/things/busy'), 'the current run\'s and the running one\'s records are not touched');
    const left = ledger.remaining();
    assert.equal(left.has('runA') || left.has('runB'), false, 'runs with nothing left are forgotten');
    assert.deepEqual(left.get('runC'), [`${base}/things/stuck`], 'a record not removed stays in its run\'s ledger');
    assert.deepEqual(left.get('runOther'), ['http://elsewhere.example/api/x/1']);
    assert.match(describeRemoval(r)!, /^removed 2 records earlier runs left \(.*\); 1 already gone; 1 could not be removed: .*\/things\/stuck → 409$/);
    // Idempotent: a second cleanup removes nothing more and fails on the same record.
    const again = await removeLeftovers(ctx, [base], async () => 't', 'runNow');
    assert.deepEqual({ removed: again.removed, gone: again.gone, failed: again.failed.length }, { removed: 0, gone: 0, failed: 1 });
  } finally {
    await ctx.dispose();
  }
  assert.ok(existsSync(dir) && readdirSync(dir).some((f) => f.startsWith('runBusy.')), 'the running run\'s ledger stays');
});

test('a POST announced and never answered (a run killed in flight) is looked up by its natural key and its record removed; an answered one is not looked up', async () => {
  records.set('/api/things/q1', undefined);
  queries.set('/api/things?k=a', [{ id: 'q1' }]);
  queries.set('/api/things?k=b', [{ id: 'q2' }]);
  queries.set('/api/things?k=none', []);
  const l = ledger.ledgerOf('runK');
  l.intended(`${base}/things?k=b`);
  l.settled(`${base}/things?k=b`);
  l.intended(`${base}/things?k=none`);
  // The killed worker's file ends torn, mid-answer (the cleanup appends to files of its own pid).
  appendFileSync(join(dir, 'runK.999999.jsonl'), `{"i":"${base}/things?k=a"}\n{"s":"${base}/things?k=a","c":"${base}/thin`);
  assert.deepEqual(ledger.unsettled().get('runK'), [`${base}/things?k=none`, `${base}/things?k=a`], 'a torn answer line settles nothing');
  assert.deepEqual(ledger.endRun('runK'), [`${base}/things?k=none`, `${base}/things?k=a`], 'a run with unanswered POSTs keeps its ledger');
  const ctx = httpClient();
  try {
    const r = await removeLeftovers(ctx, [base], async () => 't', 'runNow');
    assert.equal(r.removed, 1);
    assert.deepEqual(lookups.sort(), ['/api/things?k=a', '/api/things?k=none']);
    assert.equal(records.has('/api/things/q1'), false, 'the record the unanswered POST made is gone');
    assert.equal(ledger.remaining().has('runK') || ledger.unsettled().has('runK'), false, 'the run is forgotten');
    lookups.length = 0;
    // A run killed before it made anything left only its .run file, naming a process now gone.
    writeFileSync(join(dir, 'runE.run'), '999999999');
    await removeLeftovers(ctx, [base], async () => 't', 'runNow');
    assert.deepEqual(lookups, [], 'idempotent: nothing is looked up again');
    assert.equal(existsSync(join(dir, 'runE.run')), false, 'an ended run that left nothing is forgotten');
    assert.ok(existsSync(join(dir, 'runBusy.run')), 'a run in progress is not');
  } finally {
    await ctx.dispose();
  }
});
