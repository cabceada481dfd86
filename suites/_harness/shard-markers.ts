import type { DataClient } from './fixtures.js';
import { ledger } from './fixtures.js';
import type { Marker, MarkerState, MarkerStore } from './shards.js';

/**
 * The shards' markers (shards.ts) on the deployment: descriptors of one kind every standard has,
 * in the run's own namespace (`<namespacePrefix>/shards/<run>`), the state in shortDescription
 * and the detail in description. A save is a POST, which upserts a descriptor by its namespace
 * and code value; a marker made here is in this shard's ledger, so a killed shard's is found
 * and removed by the next run or `npm run cleanup` on its machine.
 */
export const MARKER_RESOURCE = 'educationOrganizationCategoryDescriptors';
/** A descriptor's description holds at most 1,024 characters in every standard: a marker's detail fits in it. */
export const DETAIL_MAX = 1024;

export function shardMarkers(client: DataClient, namespacePrefix: string, run: string): MarkerStore {
  const namespace = `${namespacePrefix}/shards/${run}`;
  const urls = new Map<string, string>();
  const list = async (): Promise<(Marker & { id: string })[]> => {
    const res = await client.get(`${MARKER_RESOURCE}?namespace=${encodeURIComponent(namespace)}&limit=100`);
    if (res.status() !== 200) throw new Error(`shard markers: GET ${MARKER_RESOURCE} → ${res.status()} ${(await res.text()).slice(0, 200)}`);
    return ((await res.json()) as { id: string; codeValue: string; shortDescription: string; description?: string }[])
      .map((d) => ({ id: d.id, code: d.codeValue, state: d.shortDescription as MarkerState, detail: d.description ?? '' }));
  };
  return {
    list,
    save: async (m) => {
      if (m.detail.length > DETAIL_MAX) throw new Error(`shard markers: a detail of ${m.detail.length} characters (at most ${DETAIL_MAX})`);
      const body = { namespace, codeValue: m.code, shortDescription: m.state, ...(m.detail ? { description: m.detail } : {}) };
      const res = await client.post(MARKER_RESOURCE, body);
      if (res.status() !== 200 && res.status() !== 201) throw new Error(`shard markers: POST ${MARKER_RESOURCE} ${m.code} → ${res.status()} ${(await res.text()).slice(0, 200)}`);
      const location = res.headers().location;
      if (res.status() === 201 && location) {
        const url = client.url(`${MARKER_RESOURCE}/${location.split('/').pop()!}`);
        urls.set(m.code, url);
        ledger.created(url);
      }
    },
    remove: async (code) => {
      const found = (await list()).find((m) => m.code === code);
      if (!found) return;
      const res = await client.delete(`${MARKER_RESOURCE}/${found.id}`);
      if (res.status() !== 204 && res.status() !== 404) throw new Error(`shard markers: DELETE ${code} → ${res.status()}`);
    },
    // Done: the leader deletes it. Off this shard's ledger, or its end would report it left.
    handOver: (code) => {
      const url = urls.get(code);
      if (url) ledger.deleted(url);
    },
  };
}
