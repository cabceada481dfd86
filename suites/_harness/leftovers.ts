import type { HttpClient } from './http.js';
import { reachableFlows } from '../rostering/_support/flows.js';
import { isDescriptorUrl } from './deletion-order.js';
import { collectionOf } from './intents.js';
import { forget, forgetEmptyEndedRuns, inProgress, ledgerOf, remaining, unsettled } from './ledger.js';
import { credentials, target } from './target.js';
import { fetchToken } from './tokens.js';

/** What a removal of earlier runs' records did. */
export interface Removal {
  /** The runs whose records or unanswered POSTs were looked at (finished or killed, not in progress). */
  runs: string[];
  removed: number;
  /** Already gone (404): deleted by hand, or held by a deployment that has since restarted empty. */
  gone: number;
  /** `<url> → <status>` of each record that could not be removed. */
  failed: string[];
  /** Records of data APIs this target does not name, left alone (another target's runs). */
  elsewhere: number;
}

/** A run's records in an order that usually works: newest first, descriptors (which reference nothing) last. */
const deletionOrder = (urls: string[]) => {
  const newest = [...urls].reverse();
  return [...newest.filter((u) => !isDescriptorUrl(u)), ...newest.filter(isDescriptorUrl)];
};

/**
 * Deletes what earlier runs created and left behind (ledger.ts: a killed run, a failed cleanup),
 * except the records of `current` and of runs still in progress. Passes are repeated while one
 * removes something, so a record another run's record still referenced (409) goes once that one
 * has: the dependency order need not be known. 204 and 404 count as done and are written to the
 * run's ledger; a run with nothing left is forgotten. POSTs a run announced and never saw
 * answered are first looked up by natural key (findUnanswered), and what they made goes too. Only URLs under `dataApis` are touched,
 * each with the token `tokenFor` gives for its data API.
 */
export async function removeLeftovers(request: HttpClient, dataApis: string[], tokenFor: (dataApi: string) => Promise<string>, current?: string): Promise<Removal> {
  const bases = dataApis.map((b) => b.replace(/\/$/, ''));
  const baseOf = (url: string) => bases.find((b) => url.startsWith(`${b}/`));
  const tokens = new Map<string, Promise<string>>();
  const token = (base: string) => (tokens.get(base) ?? tokens.set(base, tokenFor(base)).get(base)!);
  const earlier = (run: string) => run !== current && !inProgress(run);
  const lookups = await findUnanswered(request, [...unsettled()].filter(([run]) => earlier(run)), baseOf, token);
  const runs = [...remaining()].filter(([run, urls]) => earlier(run) && urls.length);
  const result: Removal = { runs: [...new Set([...runs.map(([run]) => run), ...lookups.runs])], removed: 0, gone: 0, failed: lookups.failed, elsewhere: lookups.elsewhere };
  let pending: { run: string; url: string; base: string; status?: string }[] = [];
  for (const [run, urls] of runs) {
    for (const url of deletionOrder(urls)) {
      const base = baseOf(url);
      if (base) pending.push({ run, url, base });
      else result.elsewhere++;
    }
  }
  while (pending.length) {
    const next: typeof pending = [];
    for (const item of pending) {
      const res = await request.delete(item.url, { headers: { Authorization: `Bearer ${await token(item.base)}` } }).catch((err: Error) => err);
      const status = res instanceof Error ? res.message.split('\n')[0] : res.status();
      if (status === 204 || status === 404) {
        if (status === 204) result.removed++;
        else result.gone++;
        ledgerOf(item.run).deleted(item.url);
      } else {
        next.push({ ...item, status: String(status) });
      }
    }
    const progress = next.length < pending.length;
    pending = next;
    if (!progress) break;
  }
  result.failed.push(...pending.map((p) => `${p.url} → ${p.status}`));
  const left = remaining();
  const open = unsettled();
  for (const run of result.runs) if (!left.get(run)?.length && !open.get(run)?.length) forget(run);
  forgetEmptyEndedRuns();
  return result;
}

/**
 * POSTs earlier runs announced and never saw answered (ledger.ts): each is looked up by its
 * natural-key query, and a record found is written into its run's ledger as created, to be
 * deleted with the rest; the intent is then settled. A lookup that fails stays for next time.
 */
async function findUnanswered(request: HttpClient, runs: [string, string[]][], baseOf: (url: string) => string | undefined, token: (base: string) => Promise<string>): Promise<{ runs: string[]; failed: string[]; elsewhere: number }> {
  const out = { runs: runs.map(([run]) => run), failed: [] as string[], elsewhere: 0 };
  await Promise.all(runs.flatMap(([run, queries]) => queries.map(async (query) => {
    const collection = collectionOf(query);
    const base = baseOf(collection);
    if (!base) return void out.elsewhere++;
    const res = await request.get(query, { headers: { Authorization: `Bearer ${await token(base)}` } }).catch((err: Error) => err);
    const items = res instanceof Error || res.status() !== 200 ? undefined : ((await res.json().catch(() => undefined)) as unknown);
    if (!Array.isArray(items)) return void out.failed.push(`${query} → ${res instanceof Error ? res.message.split('\n')[0] : res.status()}`);
    const ledger = ledgerOf(run);
    for (const item of items as { id?: unknown }[]) if (typeof item?.id === 'string') ledger.created(`${collection}/${item.id}`);
    ledger.settled(query);
  })));
  return out;
}

/** One line saying what a removal did, or undefined when there was nothing to do. */
export function describeRemoval(r: Removal): string | undefined {
  if (!r.removed && !r.gone && !r.failed.length) return undefined;
  const parts = [`removed ${r.removed} record${r.removed === 1 ? '' : 's'} earlier runs left (${r.runs.join(', ')})`];
  if (r.gone) parts.push(`${r.gone} already gone`);
  if (r.failed.length) parts.push(`${r.failed.length} could not be removed: ${r.failed.slice(0, 3).join(', ')}${r.failed.length > 3 ? ', …' : ''}`);
  return parts.join('; ');
}

/**
 * The data APIs of the target (its own, and each routing flow's), each with a token of the
 * primary client: `known` gives one already fetched for a base, else one is fetched.
 */
export function targetDataApis(request: HttpClient, known: Record<string, string> = {}): { dataApis: string[]; tokenFor: (dataApi: string) => Promise<string> } {
  const flows = Object.values(reachableFlows()).map((f) => f?.dataApi).filter((u): u is string => !!u);
  const dataApis = [...new Set([target.dataApi.baseUrl, ...flows].map((b) => b.replace(/\/$/, '')))];
  const creds = credentials(target.clients.primary);
  return {
    dataApis,
    tokenFor: async (dataApi) => {
      if (known[dataApi]) return known[dataApi];
      if (!creds) throw new Error('the primary client\'s credentials are not set');
      return fetchToken(request, { ...target, dataApi: { ...target.dataApi, baseUrl: dataApi } }, creds);
    },
  };
}
