/**
 * The data API asks its router only for paths one of its routes names (app.ts, fixedPaths): every
 * path the router would serve, in any spelling it accepts, must find its key, or a fixed endpoint
 * would be answered as a data path.
 */
import assert from 'node:assert/strict';
import Router from '@koa/router';
import { after, before, test } from 'node:test';
import { fixedPathKey, fixedPaths } from './app.js';
import { startForTest } from '../tests/helpers.js';

const ROUTES = ['/', '/health', '/metadata/', '/metadata', '/metadata/data/v3/dependencies', '/metadata/data/v3/resources/swagger.json', '/data/v3/', '/changeQueries/v1/'];

function routerOf(paths: string[]): Router {
  const router = new Router({ prefix: '/v7.3/api' });
  for (const p of paths) router.get(p, () => undefined);
  router.post('/oauth/token', () => undefined);
  return router;
}

/** Spellings of a path the router may or may not accept: case, trailing slashes, encodings. */
const spellings = (p: string) => [p, p.toUpperCase(), p.toLowerCase(), `${p}/`, `${p}//`, p.replace(/\/+$/, ''), p.replace(/a/g, '%61'), p.replace(/\//g, '//'), `${p}?x=1`];

test('every path the router matches, in every spelling it accepts, is one the data API leaves to it', () => {
  const router = routerOf(ROUTES);
  const fixed = fixedPaths(router)!;
  let matched = 0;
  for (const route of [...ROUTES, '/oauth/token']) {
    for (const path of spellings(`/v7.3/api${route}`)) {
      for (const method of ['GET', 'POST', 'DELETE']) {
        if (!router.match(path, method).route) continue;
        matched++;
        assert.ok(fixed.has(fixedPathKey(path)), `${method} ${path} is the router's, but would be answered as a data path`);
      }
    }
  }
  assert.ok(matched >= 3 * ROUTES.length, `the spellings reached the router (${matched} matched)`);
  for (const data of ['/v7.3/api/data/v3/core/schools', '/v7.3/api/data/v3/core/schools/0123456789abcdef0123456789abcdef', '/v7.3/api/data/v3/core/schools/deletes']) {
    assert.equal(fixed.has(fixedPathKey(data)), false, data);
  }
});

test('a route with a parameter or a pattern sends every path to the router', () => {
  const router = routerOf(ROUTES);
  router.get('/things/:id', () => undefined);
  assert.equal(fixedPaths(router), undefined);
});

let ref: Awaited<ReturnType<typeof startForTest>>;
before(async () => { ref = await startForTest(); });
after(async () => { await ref.close(); });

test('the fixed endpoints under the data root still answer, whatever the spelling; data paths go to the data handlers', async () => {
  const base = ref.dataApiBaseUrl;
  const root = await fetch(`${base}/DATA/V3/`);
  assert.equal(root.status, 200);
  assert.ok(Array.isArray(await root.json()));
  const dependencies = await fetch(`${base}/metadata/data/v3/dependencies/`);
  assert.equal(dependencies.status, 200);
  assert.ok(((await dependencies.json()) as unknown[]).length > 0);
  // The router's path with a method it has no route for goes on to the data handlers, as before.
  assert.equal((await fetch(`${base}/data/v3/`, { method: 'POST', headers: { Authorization: `Bearer ${ref.token}` } })).status, 404);
  const schools = await ref.data('schools');
  assert.equal(schools.status, 200);
  assert.equal((await fetch(`${base}/data/v3/core/schools`)).status, 401, 'a data path without a token');
});
