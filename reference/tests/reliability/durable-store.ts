import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { model } from '../../../spec/model/index.js';
import type { ClientConfig } from '../../config/types.js';
import { StoreRegistry } from '../../store/registry.js';
import { decodeState } from '../../store/state-file.js';
import type { DataStore } from '../../store/store.js';
import { startChildReference, type ChildReference } from '../../../tools/child-reference.js';

/**
 * What the durability tests share (durability.test.ts, durability-restart.test.ts): a child-process
 * reference on a durable store (`file:<path>`: journal + state file) and a client for it, its
 * SIGKILL, and the checks of the files it leaves. Two files, not one, so that neither comes near
 * the unit tests' per-file timeout on a loaded machine (issue 23 point 11).
 */
export const CLIENT: ClientConfig = { key: 'durable', secret: 'durable-secret' };

export interface Api {
  child: ChildReference;
  call: (method: string, path: string, body?: unknown, headers?: Record<string, string>) => Promise<{ status: number; etag: string | null; location: string | null; json: () => unknown }>;
}

export async function connect(child: ChildReference): Promise<Api> {
  const res = await fetch(`${child.dataApiBaseUrl}/oauth/token`, {
    method: 'POST',
    headers: { Authorization: `Basic ${Buffer.from(`${CLIENT.key}:${CLIENT.secret}`).toString('base64')}`, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials',
  });
  const token = ((await res.json()) as { access_token: string }).access_token;
  return {
    child,
    call: async (method, path, body, headers = {}) => {
      const url = path.startsWith('/') ? `${child.dataApiBaseUrl}${path}` : `${child.dataApiBaseUrl}/data/v3/core/${path}`;
      const r = await fetch(url, { method, headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...headers }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
      const text = await r.text();
      return { status: r.status, etag: r.headers.get('etag'), location: r.headers.get('location'), json: () => JSON.parse(text) as unknown };
    },
  };
}

export const start = (dir: string, demoData = false) => startChildReference({ dir, config: { clients: [CLIENT], dataStore: `file:${join(dir, 'store.json')}`, demoData } }).then(connect);
export const killed = async (api: Api) => { api.child.kill('SIGKILL'); await api.child.exited; };
export const versionOf = (etag: string | null) => Number(String(etag).replace(/"/g, ''));
export const idOf = (location: string | null) => String(location).split('/').pop()!;

/** Every line of every journal parses, except perhaps a torn last line; the state file, if any, loads (every checksum holds). */
export function checkFiles(dir: string): string[] {
  const problems: string[] = [];
  for (const f of readdirSync(dir).filter((x) => x.startsWith('store.json'))) {
    const text = readFileSync(join(dir, f), 'utf8');
    if (f === 'store.json') {
      try { decodeState(f, text, false); } catch (err) { problems.push((err as Error).message); }
      continue;
    }
    const lines = text.split('\n');
    lines.forEach((line, i) => {
      if (!line || i === lines.length - 1) return;
      try { JSON.parse(line); } catch { problems.push(`${f} line ${i + 1} is not JSON: ${line.slice(0, 80)}`); }
    });
  }
  return problems;
}

/** The store as a fresh process loads it from the files (opened in this process, read only). */
export const load = (dir: string): DataStore => new StoreRegistry(model).open(`file:${join(dir, 'store.json')}`);
