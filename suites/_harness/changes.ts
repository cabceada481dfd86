import { expect } from '@playwright/test';
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
 * when the target tells its newest change version, else the whole feed (`''`).
 */
export async function since(api: DataClient): Promise<string> {
  const res = await api.get(availableChangeVersionsUrl());
  if (res.status() !== 200) return '';
  return `?MinChangeVersion=${((await res.json()) as { newestChangeVersion: number }).newestChangeVersion + 1}`;
}

export interface DeleteItem { id: string; changeVersion: number; keyValues: Record<string, unknown> }
export interface KeyChangeItem { id: string; changeVersion: number; oldKeyValues: Record<string, unknown>; newKeyValues: Record<string, unknown> }

/** The feed's items, from `query` (a window from since(), or explicit bounds). */
export const deletesOf = (api: DataClient, endpoint: string, query = '') => all<DeleteItem>(api, `${endpoint}/deletes${query}`);
export const keyChangesOf = (api: DataClient, endpoint: string, query = '') => all<KeyChangeItem>(api, `${endpoint}/keyChanges${query}`);
