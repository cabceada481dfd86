import { test, expect } from '../_harness/data.js';
import { rule } from '../_harness/rules.js';
import { everyEndpoint, jsonOf, wrongAnswers } from '../_harness/every-route.js';

/**
 * The feeds' parameters on every resource (seed: Endpoints; decision 43): each resource's
 * /deletes and /keyChanges accept offset, limit, MinChangeVersion, MaxChangeVersion, totalCount
 * and the header Use-Snapshot, answering 200 with a JSON array. feeds.spec.ts sends the same
 * request to one resource's feeds and checks there that limit and offset page them; a deployment
 * whose feeds read their parameters each on their own may refuse one elsewhere. `limit=1` keeps
 * each answer to one item.
 */
const QUERY = 'offset=0&limit=1&MinChangeVersion=0&MaxChangeVersion=999999999&totalCount=true';

test.describe('the feeds\' parameters on every resource', () => {
  for (const feed of ['deletes', 'keyChanges']) {
    test(`accepts offset, limit, MinChangeVersion, MaxChangeVersion, totalCount and Use-Snapshot: false on every resource's /${feed}`, rule('data.change-queries.feed-parameters'), async ({ api }) => {
      const paths = everyEndpoint.map((endpoint) => `${endpoint}/${feed}?${QUERY}`);
      const wrong = await wrongAnswers(paths, (path) => api.get(path, { 'Use-Snapshot': 'false' }), (res, text) =>
        (res.status() === 200 && Array.isArray(jsonOf(text)) ? undefined : `${res.status()} ${text.slice(0, 120)}`));
      expect(wrong, `feeds refusing their parameters (of ${paths.length})`).toEqual([]);
    });
  }
});
