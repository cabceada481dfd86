import { test, expect } from '../_harness/data.js';
import { rule } from '../_harness/rules.js';
import { everyEndpoint, jsonOf, wrongAnswers } from '../_harness/every-route.js';

/**
 * The data standard's whole surface is served (decisions #27): every resource and descriptor
 * collection of the judged standard's model, eight GETs at a time (every-route.ts).
 */
test.describe('the data standard\'s surface', () => {
  test(`answers an authenticated GET on each of the ${everyEndpoint.length} collections with 200 and a JSON array`, rule('data.discovery.upstream-surface'), async ({ api }) => {
    const wrong = await wrongAnswers(everyEndpoint, (endpoint) => api.get(`${endpoint}?limit=1`), (res, text) => (res.status() === 200 && Array.isArray(jsonOf(text)) ? undefined : String(res.status())));
    expect(wrong).toEqual([]);
  });

  test(`answers an unauthenticated GET on each of the ${everyEndpoint.length} collections with 401`, rule('data.discovery.upstream-surface'), async ({ anon }) => {
    const wrong = await wrongAnswers(everyEndpoint, (endpoint) => anon.get(`${endpoint}?limit=1`), (res) => (res.status() === 401 ? undefined : String(res.status())));
    expect(wrong).toEqual([]);
  });
});
