import { test, expect } from '../_harness/data.js';
import { rule } from '../_harness/rules.js';
import { everyEndpoint, wrongAnswers } from '../_harness/every-route.js';

/**
 * totalCount on every route that takes it (seed: Endpoints; decision 43): each resource's
 * collection and its /deletes and /keyChanges feeds accept totalCount=true and totalCount=false.
 * paging.spec.ts asks one resource, and checks the Total-Count header there; a deployment whose
 * routes read their parameters each on their own may refuse the parameter on resources that one
 * probe never reaches. `limit=1` keeps each answer to one record, as paging.spec.ts does: a
 * vendor's deployment may hold many.
 */
test.describe('totalCount on every collection and feed', () => {
  for (const [where, suffix] of [['collection', ''], ['/deletes feed', '/deletes'], ['/keyChanges feed', '/keyChanges']] as const) {
    test(`accepts totalCount=true and totalCount=false on every resource's ${where}`, rule('data.query-paging.total-count-parameter-accepted'), async ({ api }) => {
      const paths = everyEndpoint.flatMap((endpoint) => ['true', 'false'].map((value) => `${endpoint}${suffix}?totalCount=${value}&limit=1`));
      const wrong = await wrongAnswers(paths, (path) => api.get(path), (res, text) => (res.status() === 200 ? undefined : `${res.status()} ${text.slice(0, 120)}`));
      expect(wrong, `totalCount refused (of ${paths.length})`).toEqual([]);
    });
  }
});
