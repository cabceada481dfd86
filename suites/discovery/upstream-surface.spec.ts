import { test, expect } from '../_harness/data.js';
import { model } from '../_harness/judged-model.js';
import { rule } from '../_harness/rules.js';
import { inParallel } from '../_harness/in-parallel.js';

/**
 * The data standard's whole surface is served (decisions #27): every resource and descriptor
 * collection of the judged standard's model. Eight GETs at a time: one after another, a
 * deployment 40 ms away took 15 s of the test's 30 on 4.0's 314 collections.
 */
const endpoints = model.resources.map((r) => r.endpoint).sort();
const AT_ONCE = 8;

test.describe('the data standard\'s surface', () => {
  test(`answers an authenticated GET on each of the ${endpoints.length} collections with 200 and a JSON array`, rule('data.discovery.upstream-surface'), async ({ api }) => {
    const failed = await inParallel(endpoints, AT_ONCE, async (endpoint) => {
      const res = await api.get(`${endpoint}?limit=1`);
      return res.status() !== 200 || !Array.isArray(await res.json()) ? [`${endpoint} → ${res.status()}`] : [];
    });
    expect(failed.flat()).toEqual([]);
  });

  test(`answers an unauthenticated GET on each of the ${endpoints.length} collections with 401`, rule('data.discovery.upstream-surface'), async ({ anon }) => {
    const failed = await inParallel(endpoints, AT_ONCE, async (endpoint) => {
      const res = await anon.get(`${endpoint}?limit=1`);
      return res.status() !== 401 ? [`${endpoint} → ${res.status()}`] : [];
    });
    expect(failed.flat()).toEqual([]);
  });
});
