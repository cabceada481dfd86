import { test, expect } from '../_harness/data.js';
import { model } from '../_harness/judged-model.js';
import { rule } from '../_harness/rules.js';
import { inParallel } from '../_harness/in-parallel.js';

/**
 * The feeds' parameters on every resource (seed: Endpoints; decision 43): each resource's
 * /deletes and /keyChanges accept offset, limit, MinChangeVersion, MaxChangeVersion, totalCount
 * and the header Use-Snapshot, answering 200 with a JSON array. feeds.spec.ts sends the same
 * request to one resource's feeds and checks there that limit and offset page them; a deployment
 * whose feeds read their parameters each on their own may refuse one elsewhere. `limit=1` keeps
 * each answer to one item. Eight requests at a time, as upstream-surface.spec.ts.
 */
const AT_ONCE = 8;
const endpoints = model.resources.map((r) => r.endpoint).sort();
const QUERY = 'offset=0&limit=1&MinChangeVersion=0&MaxChangeVersion=999999999&totalCount=true';

test.describe('the feeds\' parameters on every resource', () => {
  for (const feed of ['deletes', 'keyChanges']) {
    test(`accepts offset, limit, MinChangeVersion, MaxChangeVersion, totalCount and Use-Snapshot: false on every resource's /${feed}`, rule('data.change-queries.feed-parameters'), async ({ api }) => {
      const failed = await inParallel(endpoints, AT_ONCE, async (endpoint) => {
        const res = await api.get(`${endpoint}/${feed}?${QUERY}`, { 'Use-Snapshot': 'false' });
        const text = await res.text();
        let array = false;
        try {
          array = Array.isArray(JSON.parse(text));
        } catch {
          // Not JSON: named below.
        }
        return res.status() === 200 && array ? [] : [`${endpoint}/${feed} → ${res.status()} ${text.slice(0, 120)}`];
      });
      expect(failed.flat(), `feeds refusing their parameters (of ${endpoints.length})`).toEqual([]);
    });
  }
});
