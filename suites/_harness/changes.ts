import { expect } from './expect.js';
import type { DataClient } from './fixtures.js';
import { target } from './target.js';

/** Change-tracking helpers: paging through a feed or collection, and the newest change version. */

/** Every page of a feed or collection from `path` (which may carry its own query). */
export async function all<T>(api: DataClient, path: string, pageSize = 500): Promise<T[]> {
  const out: T[] = [];
  for (let offset = 0; ; offset += pageSize) {
    const res = await api.get(`${path}${path.includes('?') ? '&' : '?'}offset=${offset}&limit=${pageSize}`);
    expect(res.status(), `${path}: ${await res.text()}`).toBe(200);
    const page = (await res.json()) as T[];
    out.push(...page);
    if (page.length < pageSize) return out;
  }
}

export const availableChangeVersionsUrl = () => `${target.dataApi.baseUrl}/changeQueries/v1/availableChangeVersions`;

/** GET {base_url}/changeQueries/v1/availableChangeVersions → newestChangeVersion (200 expected). */
export async function newestChangeVersion(api: DataClient): Promise<number> {
  const res = await api.get(availableChangeVersionsUrl());
  expect(res.status(), `availableChangeVersions: ${await res.text()}`).toBe(200);
  return ((await res.json()) as { newestChangeVersion: number }).newestChangeVersion;
}

/**
 * Feeds grow with every run: a test reads only the window since it started (`?MinChangeVersion=`)
 * when the target tells its newest change version, else the whole feed (`''`). The bound is the
 * newest version itself, not the next one: the seed does not say bounds are inclusive, and under
 * an exclusive bound the next version would leave out the test's first change.
 */
export async function since(api: DataClient): Promise<string> {
  const newest = await newestIfOffered(api);
  return newest === undefined ? '' : `?MinChangeVersion=${newest}`;
}

/**
 * Whether a feed item speaks of a record: one of the marks the test holds for it (its id, a
 * unique natural-key value it wrote) appears anywhere in the item. The seed shows no item fields
 * ("Fields of delete-tracking items and key-change items: not shown"), so the MUST tests find
 * their events this way; the item shape (decision 18) is a SHOULD rule of its own.
 */
export function mentions(item: unknown, marks: string[]): boolean {
  const text = JSON.stringify(item);
  return marks.some((m) => text.includes(m));
}

/** The items of a feed that speak of a record (see mentions()). */
export async function eventsOf(api: DataClient, endpoint: string, feed: 'deletes' | 'keyChanges', marks: string[], query = ''): Promise<unknown[]> {
  return (await all<unknown>(api, `${endpoint}/${feed}${query}`)).filter((i) => mentions(i, marks));
}

/** newestChangeVersion when the deployment offers it (a SHOULD endpoint), else undefined. */
export async function newestIfOffered(api: DataClient): Promise<number | undefined> {
  const res = await api.get(availableChangeVersionsUrl());
  if (res.status() !== 200) return undefined;
  const newest = ((await res.json().catch(() => ({}))) as { newestChangeVersion?: unknown }).newestChangeVersion;
  return typeof newest === 'number' && Number.isSafeInteger(newest) ? newest : undefined;
}

/**
 * The bounds that reach a change, found through the filter alone: the seed shows neither item
 * fields nor whether bounds are inclusive, so a test asks the deployment which bounds list the
 * change. `listed(query)` says whether the change is listed under `query` (one or two bounds).
 * Returns the smallest MaxChangeVersion and the largest MinChangeVersion that list it (both the
 * change's version when bounds are inclusive). A deployment that ignores a bound answers the
 * search's extremes, by which no two changes can be told apart. `before`: newestChangeVersion
 * before the test's changes, where offered; it only narrows the reads.
 */
export async function reachOf(listed: (query: string) => Promise<boolean>, before?: number, after?: number): Promise<{ max: number; min: number }> {
  const floor = before === undefined ? '' : `MinChangeVersion=${before}&`;
  const top = after !== undefined && await listed(`${floor}MaxChangeVersion=${after + 1}`) ? after + 1 : Number.MAX_SAFE_INTEGER;
  expect(await listed(`${floor}MaxChangeVersion=${top}`), `the change is listed under MaxChangeVersion=${top}`).toBe(true);
  let [lo, hi] = [before ?? 0, top];
  while (lo < hi) {
    const mid = lo + Math.floor((hi - lo) / 2);
    if (await listed(`${floor}MaxChangeVersion=${mid}`)) hi = mid;
    else lo = mid + 1;
  }
  const max = lo;
  [lo, hi] = [before ?? 0, top];
  while (lo < hi) {
    const mid = lo + Math.ceil((hi - lo) / 2);
    if (await listed(`MinChangeVersion=${mid}`)) lo = mid;
    else hi = mid - 1;
  }
  return { max, min: lo };
}

export interface DeleteItem { id: string; changeVersion: number; keyValues: Record<string, unknown> }
export interface KeyChangeItem { id: string; changeVersion: number; oldKeyValues: Record<string, unknown>; newKeyValues: Record<string, unknown> }

/** The feed's items, from `query` (a window from since(), or explicit bounds). */
export const deletesOf = (api: DataClient, endpoint: string, query = '') => all<DeleteItem>(api, `${endpoint}/deletes${query}`);
export const keyChangesOf = (api: DataClient, endpoint: string, query = '') => all<KeyChangeItem>(api, `${endpoint}/keyChanges${query}`);
