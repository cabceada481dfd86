import { test, expect, target } from '../_harness/data.js';
import { descriptorBody, type Builder } from '../_harness/builders.js';
import { unknownId } from '../_harness/checks.js';
import { expectProblem } from '../_harness/problem.js';
import { rule } from '../_harness/rules.js';
import { descriptorGroup } from './group.js';

/**
 * GET {data_root}/core/<resource>: the collection, paged by offset and limit, counted with
 * totalCount. Each test works on its own group of descriptors (one fresh namespace), so the
 * matches are exactly what it created.
 */
const resource = 'academicSubjectDescriptors';
const max = target.dataApi.pageSizeMaximum;

const group = (data: Builder, n: number) => descriptorGroup(data, n, 'pg');

const idsOf = async (res: { json: () => Promise<unknown> }) => ((await res.json()) as { id: string }[]).map((i) => i.id);

test.describe('GET collection', () => {
  test('answers 200 with a JSON array of resources', rule('data.query-paging.get-collection-200-array'), async ({ api, data }) => {
    const g = await group(data, 1);
    const res = await api.get(`${resource}?${g.query}`);
    expect(res.status()).toBe(200);
    expect(res.headers()['content-type']).toMatch(/^application\/json/);
    const body = await res.json();
    expect(Array.isArray(body)).toBe(true);
    expect(body[0]).toMatchObject({ id: g.ids[0] });
  });

  test('returns at most limit items and skips the first offset items of the result order', rule('data.query-paging.offset-limit-paging'), async ({ api, data }) => {
    const g = await group(data, 5);
    const all = await idsOf(await api.get(`${resource}?${g.query}`));
    expect(all.length).toBe(5);
    expect(await idsOf(await api.get(`${resource}?${g.query}&limit=2`))).toEqual(all.slice(0, 2));
    expect(await idsOf(await api.get(`${resource}?${g.query}&offset=2&limit=2`))).toEqual(all.slice(2, 4));
    expect(await idsOf(await api.get(`${resource}?${g.query}&offset=4&limit=2`))).toEqual(all.slice(4));
  });

  test('pages in a stable order, so successive pages neither repeat nor skip items', rule('data.query-paging.stable-order'), async ({ api, data }) => {
    const g = await group(data, 7);
    const pages: string[] = [];
    for (let offset = 0; offset < 7; offset += 3) pages.push(...(await idsOf(await api.get(`${resource}?${g.query}&offset=${offset}&limit=3`))));
    expect(pages.length).toBe(7);
    expect(new Set(pages)).toEqual(new Set(g.ids));
  });

  test('accepts totalCount=true and totalCount=false on the collection', rule('data.query-paging.total-count-parameter-accepted'), async ({ api }) => {
    expect((await api.get(`${resource}?totalCount=true&limit=1`)).status()).toBe(200);
    expect((await api.get(`${resource}?totalCount=false&limit=1`)).status()).toBe(200);
  });

  test('accepts totalCount=true and totalCount=false on /deletes and /keyChanges', rule('data.query-paging.total-count-parameter-accepted'), async ({ api }) => {
    for (const feed of ['deletes', 'keyChanges']) {
      expect((await api.get(`${resource}/${feed}?totalCount=true&limit=1`)).status()).toBe(200);
      expect((await api.get(`${resource}/${feed}?totalCount=false&limit=1`)).status()).toBe(200);
    }
  });

  test('adds a Total-Count header with the number of matches regardless of limit and offset', rule('data.query-paging.total-count-header'), async ({ api, data }) => {
    const g = await group(data, 3);
    const res = await api.get(`${resource}?${g.query}&totalCount=true&limit=1&offset=1`);
    expect(res.headers()['total-count']).toBe('3');
    expect((await res.json()).length).toBe(1);
  });

  test('sends the same Total-Count on the first, a middle and the last page, and past the end', rule('data.query-paging.total-count-header'), async ({ api, data }) => {
    const g = await group(data, 3);
    for (const [offset, limit, length] of [[0, 1, 1], [1, 1, 1], [2, 1, 1], [1, 5, 2], [3, 1, 0], [7, 2, 0]]) {
      const res = await api.get(`${resource}?${g.query}&totalCount=true&limit=${limit}&offset=${offset}`);
      expect(res.status()).toBe(200);
      expect((await res.json()).length, `offset=${offset} limit=${limit}`).toBe(length);
      expect(res.headers()['total-count'], `offset=${offset} limit=${limit}`).toBe('3');
    }
  });

  test('sends no Total-Count header when totalCount is missing or false', rule('data.query-paging.total-count-absent-by-default'), async ({ api, data }) => {
    const g = await group(data, 1);
    expect((await api.get(`${resource}?${g.query}`)).headers()['total-count']).toBeUndefined();
    expect((await api.get(`${resource}?${g.query}&totalCount=false`)).headers()['total-count']).toBeUndefined();
  });

  test('returns every match up to the maximum page size when limit is omitted', rule('data.query-paging.default-page-size'), async ({ api, data }) => {
    const g = await group(data, 30);
    expect((await idsOf(await api.get(`${resource}?${g.query}`))).length).toBe(Math.min(30, max));
    expect((await idsOf(await api.get(resource))).length).toBeLessThanOrEqual(max);
  });

  test('answers limit=0 with an empty array, still sending Total-Count when asked', rule('data.query-paging.limit-zero-empty'), async ({ api, data }) => {
    const g = await group(data, 2);
    const res = await api.get(`${resource}?${g.query}&limit=0&totalCount=true`);
    expect(res.status()).toBe(200);
    expect(await res.json()).toEqual([]);
    expect(res.headers()['total-count']).toBe('2');
  });

  test('refuses a negative offset with 400 parameter-validation-failed', rule('data.query-paging.negative-offset-400'), async ({ api }) => {
    await expectProblem(await api.get(`${resource}?offset=-1`), 'bad-request:parameter-validation-failed');
  });

  test('says that limit must be omitted or between 0 and the maximum when it is out of range, below or above', rule('data.query-paging.limit-message-wording'), async ({ api }) => {
    for (const limit of [-1, max + 1]) {
      const problem = await expectProblem(await api.get(`${resource}?limit=${limit}`), 'bad-request:parameter-validation-failed');
      expect(problem.errors?.some((e) => new RegExp(`^Limit must be (omitted or set to )?a value between 0 and ${max}\\.$`).test(e)), `limit=${limit}: ${JSON.stringify(problem.errors)}`).toBe(true);
    }
  });

  test('words the parameter-validation detail "The request construction was invalid."', rule('data.errors.detail-wording'), async ({ api }) => {
    const problem = await expectProblem(await api.get(`${resource}?limit=${max + 1}`), 'bad-request:parameter-validation-failed');
    expect(problem.detail).toBe('The request construction was invalid.');
  });

  test('matches query parameter names case-insensitively', rule('data.query-paging.parameter-names-case-insensitive'), async ({ api, data }) => {
    const g = await group(data, 3);
    const namespace = decodeURIComponent(g.query.split('=')[1]);
    const res = await api.get(`${resource}?NAMESPACE=${encodeURIComponent(namespace)}&Offset=1&LIMIT=1&totalcount=true`);
    expect(res.status()).toBe(200);
    expect(await idsOf(res)).toEqual([g.ids[1]]);
    expect(res.headers()['total-count']).toBe('3');
  });

  test('matches boolean query values case-insensitively', rule('data.query-paging.boolean-values-case-insensitive'), async ({ api, data }) => {
    const g = await group(data, 2);
    const res = await api.get(`${resource}?${g.query}&totalCount=TRUE`);
    expect(res.status()).toBe(200);
    expect(res.headers()['total-count']).toBe('2');
  });
});

test.describe('GET collection: paging and counting a query answered record by record', () => {
  // A query by one indexed member can be paged by position; one with a second filter or a
  // change-version window must be filtered record by record first. Paging and counting must
  // agree on both.
  // The group's descriptors share the builders' shortDescription: a second filter every one matches.
  const shared = encodeURIComponent(String(descriptorBody('academicSubject').shortDescription));
  const narrower = (g: { query: string }) => [`${g.query}&shortDescription=${shared}`, `${g.query}&MinChangeVersion=0`];

  test('returns at most limit items and skips the first offset items when the query filters by two members or a change-version window', rule('data.query-paging.offset-limit-paging'), async ({ api, data }) => {
    const g = await group(data, 5);
    const all = await idsOf(await api.get(`${resource}?${g.query}`));
    expect(all.length).toBe(5);
    // Asking for the count too must not change the page.
    for (const query of narrower(g).flatMap((q) => [q, `${q}&totalCount=true`])) {
      expect(await idsOf(await api.get(`${resource}?${query}`)), query).toEqual(all);
      expect(await idsOf(await api.get(`${resource}?${query}&limit=2`)), `${query}&limit=2`).toEqual(all.slice(0, 2));
      expect(await idsOf(await api.get(`${resource}?${query}&offset=2&limit=2`)), `${query}&offset=2&limit=2`).toEqual(all.slice(2, 4));
      expect(await idsOf(await api.get(`${resource}?${query}&offset=4&limit=2`)), `${query}&offset=4&limit=2`).toEqual(all.slice(4));
    }
  });

  test('counts every match in Total-Count when the query filters by two members or a change-version window', rule('data.query-paging.total-count-header'), async ({ api, data }) => {
    const g = await group(data, 3);
    for (const query of narrower(g)) {
      for (const [offset, limit] of [[0, 1], [1, 1], [2, 5]]) {
        const res = await api.get(`${resource}?${query}&totalCount=true&offset=${offset}&limit=${limit}`);
        expect(res.headers()['total-count'], `${query} offset=${offset} limit=${limit}`).toBe('3');
      }
    }
  });

  test('matches a boolean member\'s query value case-insensitively', rule('data.query-paging.boolean-values-case-insensitive'), async ({ api, data }) => {
    const period = await data.create('classPeriod', { officialAttendancePeriod: true });
    const byName = `classPeriods?classPeriodName=${encodeURIComponent(period.body.classPeriodName as string)}&schoolId=${period.keys.schoolId as number}`;
    for (const value of ['TRUE', 'True', 'true']) {
      const res = await api.get(`${byName}&officialAttendancePeriod=${value}`);
      expect(res.status(), `officialAttendancePeriod=${value}`).toBe(200);
      expect(await idsOf(res), `officialAttendancePeriod=${value}`).toEqual([period.id]);
    }
    for (const value of ['FALSE', 'False']) {
      const res = await api.get(`${byName}&officialAttendancePeriod=${value}`);
      expect(res.status(), `officialAttendancePeriod=${value}`).toBe(200);
      expect(await idsOf(res), `officialAttendancePeriod=${value}`).toEqual([]);
    }
  });
});

test.describe('GET by id', () => {
  test('answers 200 with the record', rule('data.query-paging.get-by-id-200'), async ({ api, data }) => {
    const created = await data.create('academicWeek');
    const res = await api.get(created.url);
    expect(res.status()).toBe(200);
    expect(await res.json()).toMatchObject({ id: created.id, weekIdentifier: created.body.weekIdentifier });
  });

  test('answers 404 not-found for an id that does not exist', rule('data.query-paging.get-by-id-unknown-404'), async ({ api }) => {
    const res = await api.get(`${resource}/${unknownId()}`);
    expect(res.status()).toBe(404);
    if ((await res.text()).trim()) await expectProblem(res, 'not-found');
  });
});
