import { test, expect } from '../_harness/data.js';
import { model } from '../_harness/judged-model.js';
import { rule } from '../_harness/rules.js';

/**
 * The data standard's whole surface is served (decisions #27): every resource and descriptor
 * collection of the model, which is Data Standard 5.2 plus the seed's additions.
 */
const endpoints = model.resources.map((r) => r.endpoint).sort();

test.describe('the data standard\'s surface', () => {
  test(`answers an authenticated GET on each of the ${endpoints.length} collections with 200 and a JSON array`, rule('data.discovery.upstream-surface'), async ({ api }) => {
    const failed: string[] = [];
    for (const endpoint of endpoints) {
      const res = await api.get(`${endpoint}?limit=1`);
      if (res.status() !== 200 || !Array.isArray(await res.json())) failed.push(`${endpoint} → ${res.status()}`);
    }
    expect(failed).toEqual([]);
  });

  test(`answers an unauthenticated GET on each of the ${endpoints.length} collections with 401`, rule('data.discovery.upstream-surface'), async ({ anon }) => {
    const failed: string[] = [];
    for (const endpoint of endpoints) {
      const res = await anon.get(`${endpoint}?limit=1`);
      if (res.status() !== 401) failed.push(`${endpoint} → ${res.status()}`);
    }
    expect(failed).toEqual([]);
  });
});
