import assert from 'node:assert/strict';
import { test } from 'node:test';
import { defaultWorkers, isLoopback } from '../workers.js';

/** Workers: the target's own number, else many for a remote deployment, else as before. */
const at = (baseUrl: string, workers?: number) => ({ dataApi: { baseUrl }, ...(workers ? { workers } : {}) });

test('a remote deployment gets four workers per core, at least 2 and at most 8', () => {
  assert.equal(defaultWorkers(at('https://api.vendor.example/v7.3/api'), false, 2), 8);
  assert.equal(defaultWorkers(at('https://api.vendor.example/v7.3/api'), false, 1), 4);
  assert.equal(defaultWorkers(at('https://api.vendor.example/v7.3/api'), false, 16), 8);
  assert.equal(defaultWorkers(at('http://10.0.0.5:8080/api'), false, 2), 8);
});

test('the embedded reference and deployments on this machine get half the cores, at least 2, whether on CI or not', () => {
  for (const url of ['http://127.0.0.1:8080/api', 'http://localhost:8080/api', 'http://[::1]:8080/api', 'http://api.localhost/api']) {
    assert.equal(defaultWorkers(at(url), false, 2), 2, url);
    assert.equal(defaultWorkers(at(url), false, 1), 2, url);
    assert.equal(defaultWorkers(at(url), false, 8), 4, url);
  }
  assert.equal(defaultWorkers(at('http://127.0.0.1:18080/v7.3/api'), true, 2), 2);
  assert.equal(defaultWorkers(at('https://api.vendor.example/v7.3/api'), true, 16), 8, 'embedded counts as local whatever its URL');
});

test('the target file\'s workers wins over every default', () => {
  assert.equal(defaultWorkers(at('https://api.vendor.example/v7.3/api', 3), false, 2), 3);
  assert.equal(defaultWorkers(at('http://127.0.0.1:8080/api', 6), false, 2), 6);
});

test('loopback: addresses and names of this machine only', () => {
  assert.ok(isLoopback('http://127.1.2.3/'));
  assert.ok(!isLoopback('http://128.0.0.1/'));
  assert.ok(!isLoopback('http://localhost.vendor.example/'));
  assert.ok(!isLoopback('http://192.168.1.10/'));
});
