import { test, expect } from '../_harness/data.js';
import { model } from '../_harness/judged-model.js';
import { rule } from '../_harness/rules.js';
import { inParallel } from '../_harness/in-parallel.js';

/**
 * totalCount on every route that takes it (seed: Endpoints; decision 43): each resource's
 * collection and its /deletes and /keyChanges feeds accept totalCount=true and totalCount=false.
 * paging.spec.ts asks one resource, and checks the Total-Count header there; a deployment whose
 * routes read their parameters each on their own may refuse the parameter on resources that one
 * probe never reaches. `limit=1` keeps each answer to one record, as paging.spec.ts does: a
 * vendor's deployment may hold many. Eight requests at a time, as upstream-surface.spec.ts.
 */
const AT_ONCE = 8;
const endpoints = model.resources.map((r) => r.endpoint).sort();

test.describe('totalCount on every collection and feed', () => {
  for (const [where, suffix] of [['collection', ''], ['/deletes feed', '/deletes'], ['/keyChanges feed', '/keyChanges']] as const) {
    test(`accepts totalCount=true and totalCount=false on every resource's ${where}`, rule('data.query-paging.total-count-parameter-accepted'), async ({ api }) => {
      const paths = endpoints.flatMap((endpoint) => ['true', 'false'].map((value) => `${endpoint}${suffix}?totalCount=${value}&limit=1`));
      const failed = await inParallel(paths, AT_ONCE, async (path) => {
        const res = await api.get(path);
        return res.status() === 200 ? [] : [`${path} → ${res.status()} ${(await res.text()).slice(0, 120)}`];
      });
      expect(failed.flat(), `totalCount refused (of ${paths.length})`).toEqual([]);
    });
  }
});
