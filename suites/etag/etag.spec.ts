import { test, expect } from '../_harness/data.js';
import { expectProblem } from '../_harness/problem.js';
import { rule } from '../_harness/rules.js';

/** `_etag`, ETag, If-Match (PUT, DELETE) and If-None-Match (GET by id): seed Endpoints rule 3. */
const etagOf = async (api: { get: (p: string) => Promise<{ json: () => Promise<unknown> }> }, url: string) => ((await (await api.get(url)).json()) as { _etag: string })._etag;

test.describe('_etag in responses', () => {
  test('carries a string _etag on a record returned by GET by id', rule('data.etag.etag-in-every-response'), async ({ api, data }) => {
    const created = await data.create('academicWeek');
    expect(typeof (await (await api.get(created.url)).json())._etag).toBe('string');
  });

  test('carries a string _etag on every record of a collection', rule('data.etag.etag-in-every-response'), async ({ api, data }) => {
    const created = await data.create('academicWeek');
    const items = (await (await api.get(`academicWeeks?schoolId=${(created.body.schoolReference as { schoolId: number }).schoolId}`)).json()) as { _etag?: unknown }[];
    expect(items.length).toBeGreaterThan(0);
    for (const item of items) expect(typeof item._etag).toBe('string');
  });

  test('returns a different _etag after a POST that updates the record', rule('data.etag.etag-changes-on-update'), async ({ api, data }) => {
    const created = await data.create('academicWeek');
    const before = await etagOf(api, created.url);
    expect((await api.post('academicWeeks', { ...created.body, totalInstructionalDays: 1 })).status()).toBe(200);
    expect(await etagOf(api, created.url)).not.toBe(before);
  });

  test('returns a different _etag after a PUT that changes the record', rule('data.etag.etag-changes-on-update'), async ({ api, data }) => {
    const created = await data.create('academicWeek');
    const before = await etagOf(api, created.url);
    expect((await api.put(created.url, { ...created.body, totalInstructionalDays: 1 })).status()).toBe(204);
    expect(await etagOf(api, created.url)).not.toBe(before);
  });

  test('sends _lastModifiedDate, when present, as a date-time string', rule('data.etag.last-modified-date-timestamp'), async ({ api, data }) => {
    const created = await data.create('academicWeek');
    const got = (await (await api.get(created.url)).json()) as { _lastModifiedDate?: unknown };
    if (got._lastModifiedDate !== undefined) {
      expect(typeof got._lastModifiedDate).toBe('string');
      expect(got._lastModifiedDate as string).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/);
      expect(Number.isNaN(Date.parse(got._lastModifiedDate as string))).toBe(false);
    }
  });

  test('sends the quoted _etag as the ETag header of GET by id', rule('data.etag.etag-header-quoted'), async ({ api, data }) => {
    const created = await data.create('academicWeek');
    const res = await api.get(created.url);
    expect(res.headers().etag).toBe(`"${(await res.json())._etag}"`);
  });

  test('sends the new etag in the ETag header of POST and PUT responses', rule('data.etag.etag-header-on-writes'), async ({ api, data }) => {
    const body = await data.body('academicWeek');
    const post = await api.post('academicWeeks', body);
    api.track(post.headers().location);
    expect(post.headers().etag).toBe(`"${await etagOf(api, post.headers().location)}"`);
    const put = await api.put(post.headers().location, { ...body, totalInstructionalDays: 1 });
    expect(put.status()).toBe(204);
    expect(put.headers().etag).toBe(`"${await etagOf(api, post.headers().location)}"`);
  });
});

test.describe('If-None-Match on GET by id', () => {
  test('answers 304 with no body when If-None-Match equals the current _etag', rule('data.etag.if-none-match-match-304'), async ({ api, data }) => {
    const created = await data.create('academicWeek');
    const res = await api.get(created.url, { 'If-None-Match': await etagOf(api, created.url) });
    expect(res.status()).toBe(304);
    expect(await res.text()).toBe('');
  });

  test('answers 200 with the resource when If-None-Match differs from the current _etag', rule('data.etag.if-none-match-mismatch-200'), async ({ api, data }) => {
    const created = await data.create('academicWeek');
    const stale = await etagOf(api, created.url);
    await api.put(created.url, { ...created.body, totalInstructionalDays: 1 });
    const res = await api.get(created.url, { 'If-None-Match': stale });
    expect(res.status()).toBe(200);
    expect((await res.json()).totalInstructionalDays).toBe(1);
  });

  test('accepts the etag quoted as well as unquoted in If-None-Match', rule('data.etag.quoted-or-unquoted-accepted'), async ({ api, data }) => {
    const created = await data.create('academicWeek');
    const etag = await etagOf(api, created.url);
    expect((await api.get(created.url, { 'If-None-Match': `"${etag}"` })).status()).toBe(304);
    expect((await api.get(created.url, { 'If-None-Match': etag })).status()).toBe(304);
  });

  test('answers 304 for If-None-Match * on an existing record', rule('data.etag.wildcard-accepted'), async ({ api, data }) => {
    const created = await data.create('academicWeek');
    expect((await api.get(created.url, { 'If-None-Match': '*' })).status()).toBe(304);
  });
});

test.describe('If-Match on PUT and DELETE', () => {
  test('refuses a PUT whose If-Match differs from the current _etag with 412 and leaves the record unchanged', rule('data.etag.if-match-mismatch-put-412'), async ({ api, data }) => {
    const created = await data.create('academicWeek');
    const stale = await etagOf(api, created.url);
    await api.put(created.url, { ...created.body, totalInstructionalDays: 1 });
    await expectProblem(await api.put(created.url, { ...created.body, totalInstructionalDays: 2 }, { 'If-Match': stale }), 'optimistic-lock-failed');
    expect((await (await api.get(created.url)).json()).totalInstructionalDays).toBe(1);
  });

  test('refuses a DELETE whose If-Match differs from the current _etag with 412 and keeps the record', rule('data.etag.if-match-mismatch-delete-412'), async ({ api, data }) => {
    const created = await data.create('academicWeek');
    const stale = await etagOf(api, created.url);
    await api.put(created.url, { ...created.body, totalInstructionalDays: 1 });
    await expectProblem(await api.delete(created.url, { 'If-Match': stale }), 'optimistic-lock-failed');
    expect((await api.get(created.url)).status()).toBe(200);
  });

  test('proceeds with a PUT whose If-Match equals the current _etag', rule('data.etag.if-match-match-proceeds'), async ({ api, data }) => {
    const created = await data.create('academicWeek');
    const res = await api.put(created.url, { ...created.body, totalInstructionalDays: 1 }, { 'If-Match': await etagOf(api, created.url) });
    expect(res.status()).toBe(204);
    expect((await (await api.get(created.url)).json()).totalInstructionalDays).toBe(1);
  });

  test('proceeds with a DELETE whose If-Match equals the current _etag', rule('data.etag.if-match-match-proceeds'), async ({ api, data }) => {
    const created = await data.create('academicWeek');
    expect((await api.delete(created.url, { 'If-Match': await etagOf(api, created.url) })).status()).toBe(204);
    expect((await api.get(created.url)).status()).toBe(404);
  });

  test('makes no concurrency check on a PUT without If-Match, even after the record changed', rule('data.etag.no-if-match-no-check'), async ({ api, data }) => {
    const created = await data.create('academicWeek');
    await api.post('academicWeeks', { ...created.body, totalInstructionalDays: 1 });
    expect((await api.put(created.url, { ...created.body, totalInstructionalDays: 2 })).status()).toBe(204);
  });

  test('makes no concurrency check on a DELETE without If-Match, even after the record changed', rule('data.etag.no-if-match-no-check'), async ({ api, data }) => {
    const created = await data.create('academicWeek');
    await api.post('academicWeeks', { ...created.body, totalInstructionalDays: 1 });
    expect((await api.delete(created.url)).status()).toBe(204);
  });

  test('accepts the etag quoted as well as unquoted in If-Match', rule('data.etag.quoted-or-unquoted-accepted'), async ({ api, data }) => {
    const created = await data.create('academicWeek');
    expect((await api.put(created.url, { ...created.body, totalInstructionalDays: 1 }, { 'If-Match': `"${await etagOf(api, created.url)}"` })).status()).toBe(204);
    expect((await api.put(created.url, { ...created.body, totalInstructionalDays: 2 }, { 'If-Match': await etagOf(api, created.url) })).status()).toBe(204);
  });

  test('treats If-Match * as matching any existing record', rule('data.etag.wildcard-accepted'), async ({ api, data }) => {
    const created = await data.create('academicWeek');
    expect((await api.put(created.url, { ...created.body, totalInstructionalDays: 1 }, { 'If-Match': '*' })).status()).toBe(204);
  });
});
