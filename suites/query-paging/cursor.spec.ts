import { test, expect, target } from '../_harness/data.js';
import type { Builder } from '../_harness/builders.js';
import { unique, type DataClient } from '../_harness/fixtures.js';
import { capability } from '../_harness/capabilities.js';
import { expectProblem } from '../_harness/problem.js';
import { rule } from '../_harness/rules.js';
import { descriptorGroup } from './group.js';

/**
 * Release 7.3's cursor paging (decisions #29): page tokens from /partitions or from the
 * Next-Page-Token header, pages by pageToken + pageSize, every mixed mode refused with
 * upstream's words. Each test pages its own group of descriptors (one fresh namespace).
 */
const resource = 'academicSubjectDescriptors';
const max = target.dataApi.pageSizeMaximum;

const group = (data: Builder, n: number) => descriptorGroup(data, n, 'cp');

/** Pages from the token until an empty page; every page's ids in order. */
async function pageByToken(api: DataClient, query: string, token: string, pageSize: number, between?: () => Promise<void>): Promise<string[][]> {
  const pages: string[][] = [];
  for (let next: string | undefined = token; next; ) {
    const res = await api.get(`${resource}?${query}&pageSize=${pageSize}&pageToken=${encodeURIComponent(next)}`);
    expect(res.status(), await res.text()).toBe(200);
    const ids = ((await res.json()) as { id: string }[]).map((r) => r.id);
    expect(ids.length).toBeLessThanOrEqual(pageSize);
    next = res.headers()['next-page-token'];
    if (!ids.length) { expect(next, 'no Next-Page-Token on an empty page').toBeUndefined(); break; }
    expect(next, 'Next-Page-Token on a non-empty page').toBeTruthy();
    pages.push(ids);
    if (pages.length > 100) throw new Error('paging does not end');
    await between?.();
  }
  return pages;
}

async function partitionTokens(api: DataClient, query: string, n: number): Promise<string[]> {
  const res = await api.get(`${resource}/partitions?${query}&number=${n}`);
  expect(res.status(), await res.text()).toBe(200);
  const body = (await res.json()) as { pageTokens: string[] };
  expect(Array.isArray(body.pageTokens)).toBe(true);
  return body.pageTokens;
}

test.describe('cursor paging', () => {
  test.beforeEach(() => { capability('cursorPaging'); });

  for (const [n, size] of [[1, 7], [3, 4], [5, 50]] as const) {
    test(`pages every record exactly once through ${n} partition(s) at pageSize ${size}`, rule('data.query-paging.cursor-paging'), async ({ api, data }) => {
      const g = await group(data, 17);
      const tokens = await partitionTokens(api, g.query, n);
      expect(tokens.length).toBe(n);
      const seen: string[] = [];
      for (const t of tokens) for (const page of await pageByToken(api, g.query, t, size)) seen.push(...page);
      expect(seen.sort()).toEqual([...g.ids].sort());
    });
  }

  test('gives no page tokens for a filter that matches nothing, and never more tokens than records', rule('data.query-paging.cursor-paging'), async ({ api, data }) => {
    expect(await partitionTokens(api, `namespace=${encodeURIComponent(`${target.testData.namespacePrefix}/${unique('none')}`)}`, 4)).toEqual([]);
    const g = await group(data, 2);
    expect((await partitionTokens(api, g.query, 5)).length).toBe(2);
  });

  test('gives no page tokens when a second filter or the change-version window matches nothing of what the first filter finds', rule('data.query-paging.cursor-paging'), async ({ api, data }) => {
    const g = await group(data, 3);
    expect(await partitionTokens(api, g.query, 3), 'the group alone').toHaveLength(3);
    const newest = ((await (await api.get(`${target.dataApi.baseUrl}/changeQueries/v1/availableChangeVersions`)).json()) as { newestChangeVersion: number }).newestChangeVersion;
    for (const narrower of [`codeValue=${unique('none')}`, `MinChangeVersion=${newest + 1}`]) {
      expect(await partitionTokens(api, `${g.query}&${narrower}`, 3), narrower).toEqual([]);
    }
  });

  test('answers /partitions as application/json', rule('data.query-paging.cursor-paging'), async ({ api, data }) => {
    const g = await group(data, 1);
    const res = await api.get(`${resource}/partitions?${g.query}&number=1`);
    expect(res.status()).toBe(200);
    expect(res.headers()['content-type']).toMatch(/^application\/json/);
  });

  test('matches the names of /partitions parameters case-insensitively', rule('data.query-paging.parameter-names-case-insensitive'), async ({ api, data }) => {
    const g = await group(data, 2);
    const namespace = g.query.split('=')[1];
    const res = await api.get(`${resource}/partitions?NAMESPACE=${namespace}&NUMBER=2&minchangeversion=0&MAXCHANGEVERSION=999999999999`);
    expect(res.status(), await res.text()).toBe(200);
    expect(((await res.json()) as { pageTokens: string[] }).pageTokens).toHaveLength(2);
  });

  test('sends Next-Page-Token on every non-empty limit/offset page, and the token continues after that page', rule('data.query-paging.cursor-paging'), async ({ api, data }) => {
    const g = await group(data, 9);
    const first = await api.get(`${resource}?${g.query}&limit=4`);
    const token = first.headers()['next-page-token'];
    expect(token).toBeTruthy();
    const firstIds = ((await first.json()) as { id: string }[]).map((r) => r.id);
    const rest = (await pageByToken(api, g.query, token!, 4)).flat();
    expect([...firstIds, ...rest].sort()).toEqual([...g.ids].sort());
    const empty = await api.get(`${resource}?${g.query}&offset=9&limit=4`);
    expect(await empty.json()).toEqual([]);
    expect(empty.headers()['next-page-token']).toBeUndefined();
  });

  test('pages only what a change-version window holds', rule('data.query-paging.cursor-paging'), async ({ api, data }) => {
    const g = await group(data, 6);
    const newest = ((await (await api.get(`${target.dataApi.baseUrl}/changeQueries/v1/availableChangeVersions`)).json()) as { newestChangeVersion: number }).newestChangeVersion;
    const window = `MinChangeVersion=${newest + 1}`;
    const [token] = await partitionTokens(api, g.query, 1);
    expect((await pageByToken(api, `${g.query}&${window}`, token, 10)).flat()).toEqual([]);
    expect((await pageByToken(api, `${g.query}&MinChangeVersion=0`, token, 10)).flat().sort()).toEqual([...g.ids].sort());
  });

  test('neither skips nor repeats a record that existed before paging began while another client writes', rule('data.query-paging.cursor-paging'), async ({ api, data }) => {
    const g = await group(data, 24);
    const [token] = await partitionTokens(api, g.query, 1);
    const namespace = decodeURIComponent(g.query.split('=')[1]);
    const deleted = new Set<string>();
    let round = 0;
    const write = async () => {
      round++;
      // A new record, an update of one already paged and of one still ahead, and a delete.
      await data.newDescriptor('academicSubject', { namespace });
      for (const id of [g.ids[round % 8], g.ids[23 - (round % 8)]]) {
        const got = await api.get(`${resource}/${id}`);
        expect(got.status(), `GET ${id}: ${await got.text()}`).toBe(200);
        const cur = (await got.json()) as Record<string, unknown>;
        const { id: _id, _etag, _lastModifiedDate, ...body } = cur;
        const put = await api.put(`${resource}/${id}`, { ...body, shortDescription: `changed ${round}` });
        expect(put.status(), await put.text()).toBe(204);
      }
      const victim = g.ids[10 + (round % 3)];
      if (!deleted.has(victim)) { expect((await api.delete(`${resource}/${victim}`)).status()).toBe(204); deleted.add(victim); }
    };
    const seen = (await pageByToken(api, g.query, token, 5, write)).flat();
    const existing = g.ids.filter((id) => !deleted.has(id));
    expect(new Set(seen).size, 'no repeats').toBe(seen.length);
    expect(existing.filter((id) => !seen.includes(id)), 'no record that existed and still exists is skipped').toEqual([]);
  });

  const mixed: [string, string][] = [
    ['offset=0&pageToken={token}', 'Both offset and pageToken parameters were provided, but they support alternative paging approaches and cannot be used together.'],
    ['limit=5&pageToken={token}', 'Use pageSize instead of limit when using cursor paging with pageToken.'],
    ['totalCount=true&pageToken={token}', 'Total count cannot be determined while using cursor paging (when pageToken is specified).'],
    ['limit=5&pageSize=5', 'Use limit instead of pageSize when using limit/offset paging.'],
    ['offset=5&pageSize=5', 'Use limit instead of pageSize when using limit/offset paging.'],
    ['pageSize=5', 'PageToken is required when pageSize is specified.'],
  ];
  for (const [query, message] of mixed) {
    test(`refuses ${query} with 400 parameter-validation-failed: "${message}"`, rule('data.query-paging.cursor-paging-modes'), async ({ api, data }) => {
      const g = await group(data, 1);
      const [token] = await partitionTokens(api, g.query, 1);
      const problem = await expectProblem(await api.get(`${resource}?${g.query}&${query.replace('{token}', encodeURIComponent(token))}`), 'bad-request:parameter-validation-failed');
      expect(problem.errors).toContain(message);
    });
  }

  for (const [what, query] of [['a token that is not one', 'pageToken=not-a-token'], ['pageSize 0', 'pageSize=0&pageToken={token}'], [`pageSize ${max + 1}`, `pageSize=${max + 1}&pageToken={token}`], ['a pageSize that is not a number', 'pageSize=ten&pageToken={token}']] as const) {
    test(`refuses ${what} with 400 parameter-validation-failed`, rule('data.query-paging.cursor-paging-modes'), async ({ api, data }) => {
      const g = await group(data, 1);
      const [token] = await partitionTokens(api, g.query, 1);
      await expectProblem(await api.get(`${resource}?${g.query}&${query.replace('{token}', encodeURIComponent(token))}`), 'bad-request:parameter-validation-failed');
    });
  }

  // The neighbours of a real token: one character no token alphabet holds, or more of the
  // alphabet's own, at either end. Padding (`=`) is left out: a standard-base64 decoder may take it.
  const altered: [string, (t: string) => string][] = [
    ['a real token after "!"', (t) => `!${t}`],
    ['a real token followed by "!"', (t) => `${t}!`],
    ['a real token after "AAAA"', (t) => `AAAA${t}`],
    ['a real token followed by "AAAA"', (t) => `${t}AAAA`],
  ];
  for (const [what, alter] of altered) {
    test(`refuses ${what} with 400 parameter-validation-failed`, rule('data.query-paging.cursor-paging-modes'), async ({ api, data }) => {
      const g = await group(data, 1);
      const [token] = await partitionTokens(api, g.query, 1);
      expect((await api.get(`${resource}?${g.query}&pageSize=5&pageToken=${encodeURIComponent(token)}`)).status(), 'the token itself').toBe(200);
      await expectProblem(await api.get(`${resource}?${g.query}&pageSize=5&pageToken=${encodeURIComponent(alter(token))}`), 'bad-request:parameter-validation-failed');
    });
  }

  test('accepts pageSize 1 and the maximum', rule('data.query-paging.cursor-paging-modes'), async ({ api, data }) => {
    const g = await group(data, 2);
    const [token] = await partitionTokens(api, g.query, 1);
    for (const size of [1, max]) expect((await api.get(`${resource}?${g.query}&pageSize=${size}&pageToken=${encodeURIComponent(token)}`)).status(), `pageSize ${size}`).toBe(200);
  });
});
