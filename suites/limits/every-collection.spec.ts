import { test, expect, target } from '../_harness/data.js';
import { rule } from '../_harness/rules.js';
import { everyEndpoint, problemTypeOf, wrongAnswers } from '../_harness/every-route.js';

/**
 * The page-size bounds on every route that takes `limit` (seed: Limits; decision 43): a limit
 * below 0 or above the maximum page size is refused on each resource's collection and on its
 * /deletes and /keyChanges feeds. limits.spec.ts probes both bounds on one resource, with the
 * refusal's shape and message; a deployment whose routes read `limit` each on their own (a
 * controller generated per resource, feeds served by another component) may let one through,
 * answering 200 with a page, on resources that one probe never reaches.
 *
 * What this rule states is checked, and only that: the status 400 and the problem type. The
 * title, shape and message belong to their own rules.
 */
const max = target.dataApi.pageSizeMaximum;
const TYPE = `${target.dataApi.errorTypePrefix}bad-request:parameter-validation-failed`;

test.describe('limit out of range on every collection and feed', () => {
  for (const [where, suffix] of [['collection', ''], ['/deletes feed', '/deletes'], ['/keyChanges feed', '/keyChanges']] as const) {
    test(`refuses limit -1 and limit ${max + 1} with 400 bad-request:parameter-validation-failed on every resource's ${where}`, rule('data.limits.limit-out-of-range-400'), async ({ api }) => {
      const paths = everyEndpoint.flatMap((endpoint) => [-1, max + 1].map((limit) => `${endpoint}${suffix}?limit=${limit}`));
      const wrong = await wrongAnswers(paths, (path) => api.get(path), (res, text) => {
        const type = problemTypeOf(text);
        return res.status() === 400 && type === TYPE ? undefined : `${res.status()} ${String(type ?? text.slice(0, 120))}`;
      });
      expect(wrong, `out-of-range limits not refused (of ${paths.length})`).toEqual([]);
    });
  }
});
