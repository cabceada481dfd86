import type { HttpClient } from './http.js';
import { credentials, target as runTarget, type ResolvedTarget } from './target.js';

/**
 * The target's store digest (capability `storeDigest`): taken before and after a run, equal
 * digests prove the run left the store as it found it. Undefined without the capability.
 */
export async function storeDigest(request: HttpClient, target: ResolvedTarget = runTarget): Promise<string | undefined> {
  const cap = target.capabilities?.storeDigest;
  if (!cap) return undefined;
  const creds = credentials(cap);
  const url = /^https?:/i.test(cap.url) ? cap.url : `${target.dataApi.baseUrl}/${cap.url.replace(/^\//, '')}`;
  const res = await request.get(url, { headers: creds ? { Authorization: `Basic ${Buffer.from(`${creds.key}:${creds.secret}`).toString('base64')}` } : {} });
  if (res.status() !== 200) throw new Error(`store digest ${url} answered ${res.status()}`);
  return JSON.stringify(await res.json());
}

export const DIGEST_ENV = 'CONFORMANCE_STORE_DIGEST';
