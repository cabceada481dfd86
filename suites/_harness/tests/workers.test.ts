import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { IO_BOUND_RTT_MS, decideWorkersOnce, defaultWorkers, isLoopback, measureRoundTrip, withinShardYears } from '../workers.js';

/** Workers: the target's own number, else by the measured round trip, else by the host name. */
const at = (baseUrl: string, workers?: number) => ({ dataApi: { baseUrl }, ...(workers ? { workers } : {}) });
const n = (...args: Parameters<typeof defaultWorkers>) => defaultWorkers(...args).workers;

test('an I/O-bound deployment (round trip at or past the bound) gets ten workers per core, at least 2 and at most 24, on loopback too', () => {
  for (const url of ['https://api.vendor.example/v7.3/api', 'http://127.0.0.1:28080/v7.3/api']) {
    assert.equal(n(at(url), false, 2, 40), 20, url);
    assert.equal(n(at(url), false, 1, 40), 10, url);
    assert.equal(n(at(url), false, 3, 40), 24, url);
    assert.equal(n(at(url), false, 16, 40), 24, url);
    assert.equal(n(at(url), false, 2, IO_BOUND_RTT_MS), 20, url);
  }
  assert.match(defaultWorkers(at('http://127.0.0.1:28080/v7.3/api'), false, 2, 41.26).why, /^round trip 41\.3 ms \(≥ 5 ms: I\/O bound\)$/);
});

test('a deployment answering within the bound gets half the cores, at least 3, wherever its host is', () => {
  for (const url of ['http://127.0.0.1:8080/api', 'https://api.vendor.example/v7.3/api']) {
    assert.equal(n(at(url), false, 2, IO_BOUND_RTT_MS - 0.1), 3, url);
    assert.equal(n(at(url), false, 8, 0.4), 4, url);
    assert.equal(n(at(url), false, 6, 0.4), 3, url);
    assert.equal(n(at(url), false, 1, 0.4), 3, url);
  }
});

test('unmeasured (no answer), the host name decides: loopback names are local, others remote', () => {
  for (const url of ['http://127.0.0.1:8080/api', 'http://localhost:8080/api', 'http://[::1]:8080/api', 'http://api.localhost/api']) assert.equal(n(at(url), false, 8), 4, url);
  assert.equal(n(at('http://10.0.0.5:8080/api'), false, 2), 20);
});

test('the embedded reference counts as local whatever its URL or round trip; the target file\'s workers wins over every default', () => {
  assert.equal(n(at('https://api.vendor.example/v7.3/api'), true, 16, 40), 8);
  assert.equal(n(at('http://127.0.0.1:18080/v7.3/api'), true, 2, 40), 3);
  assert.equal(n(at('https://api.vendor.example/v7.3/api', 3), false, 2, 40), 3);
  assert.equal(n(at('http://127.0.0.1:8080/api', 6), false, 2, 0.2), 6);
});

test('loopback: addresses and names of this machine only', () => {
  assert.ok(isLoopback('http://127.1.2.3/'));
  assert.ok(!isLoopback('http://128.0.0.1/'));
  assert.ok(!isLoopback('http://localhost.vendor.example/'));
  assert.ok(!isLoopback('http://192.168.1.10/'));
});

test('the round trip is measured on the deployment: one answering after 30 ms is I/O bound, however close; none answering is unmeasured', async () => {
  let requests = 0;
  const server = createServer((_req, res) => { requests++; setTimeout(() => res.end('{}'), 30); });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v7.3/api`;
  try {
    const rtt = await measureRoundTrip(`${url}/`, 3);
    assert.ok(rtt !== undefined && rtt >= 30, String(rtt));
    assert.equal(requests, 4, 'one to open the connection, then the three measured');
    delete process.env.CONFORMANCE_WORKERS_DECISION;
    const decision = await decideWorkersOnce(at(url), false, ['node', 'playwright', 'test']);
    assert.equal(decision.workers, Math.min(24, Math.max(2, 10 * (await import('node:os')).availableParallelism())));
    assert.match(decision.why, /^round trip \d+\.\d ms \(≥ 5 ms: I\/O bound\)$/);
    // Decided once: the workers inherit it without measuring.
    const before = requests;
    assert.deepEqual(await decideWorkersOnce(at(url), false, ['node', 'playwright', 'test']), decision);
    assert.equal(requests, before);
  } finally {
    delete process.env.CONFORMANCE_WORKERS_DECISION;
    server.close();
  }
  assert.equal(await measureRoundTrip(`${url}/`, 3, 1_000), undefined);
});

test('with --workers on the command line or a target setting, and when listing or merging, nothing is measured', async () => {
  let requests = 0;
  const server = createServer((_req, res) => { requests++; res.end('{}'); });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v7.3/api`;
  try {
    for (const [target, argv] of [[at(url), ['node', 'playwright', 'test', '--workers=3']], [at(url), ['node', 'playwright', 'test', '-j', '3']], [at(url, 5), ['node', 'playwright', 'test']],
      [at(url), ['node', 'playwright', 'test', '--list']], [at(url), ['node', 'playwright', 'merge-reports', '--config', 'playwright.config.ts', 'blob-report']]] as const) {
      delete process.env.CONFORMANCE_WORKERS_DECISION;
      await decideWorkersOnce(target, false, [...argv]);
    }
    assert.equal(requests, 0);
  } finally {
    delete process.env.CONFORMANCE_WORKERS_DECISION;
    server.close();
  }
});

test('a shard of a shared run runs no more workers than it has school years (58 split between the shards); a run alone keeps its number', () => {
  const sixteen = { workers: 16, why: 'round trip 40.0 ms' };
  assert.deepEqual(withinShardYears(sixteen, undefined), sixteen);
  assert.deepEqual(withinShardYears(sixteen, 1), sixteen);
  assert.deepEqual(withinShardYears(sixteen, 3), sixteen, '19 years each');
  const four = withinShardYears(sixteen, 4);
  assert.equal(four.workers, 14);
  assert.equal(four.capped, true);
  assert.match(four.why, /^round trip 40\.0 ms; at most 14 for one of 4 shards/);
  assert.equal(withinShardYears(sixteen, 29).workers, 2);
});
