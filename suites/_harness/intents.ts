import { model } from './judged-model.js';

/**
 * What a POST announces in the run's ledger before it is sent (ledger.ts): the collection queried
 * by the body's natural key, so that a record the deployment made for a POST whose answer never
 * arrived (a killed run) is found and deleted later.
 *
 * A cleanup deletes what such a query finds, so an intent is written only where what it finds can
 * be nothing but this run's record: every identity member of the resource has a value in the
 * body, and either the POST is a creation by design (`creating`: the builders and the rostering
 * world, which make records under keys checked to be new) or one of those values was made by this
 * run (a string carrying the run's marker, or a value `runMade` registered: a drawn organization
 * id, a random key). A negative test's body with a missing key member announces nothing.
 */

const made = new Set<string | number>();

/** Registers a key value this run made that carries no run marker (a drawn number, random characters). */
export function runMade(value: string | number): void {
  made.add(value);
}

type Scalar = string | number | bigint | boolean;
const isScalar = (v: unknown): v is Scalar => typeof v === 'string' || typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean';

/**
 * The intent of a POST of `body` to `url` (a resource's collection of the judged model), or
 * undefined when it announces nothing. `marker`: the part of the run id every run-unique key
 * value carries.
 */
export function intentOf(url: string, body: unknown, o: { creating: boolean; marker: string }): string | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body) || url.includes('?')) return undefined;
  const resource = model.byEndpoint.get(url.slice(url.lastIndexOf('/') + 1).toLowerCase());
  if (!resource) return undefined;
  const keys: [string, Scalar][] = [];
  for (const p of resource.identity) {
    const value = p.path.slice(2).split('.').reduce<unknown>((v, s) => (v as Record<string, unknown> | undefined)?.[s], body);
    if (!isScalar(value)) return undefined;
    keys.push([p.name, value]);
  }
  if (!keys.length) return undefined;
  const ours = o.creating || keys.some(([, v]) => (typeof v === 'string' && v.includes(o.marker)) || made.has(v as string | number));
  return ours ? `${url}?${keys.map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`).join('&')}` : undefined;
}

/** The collection URL an intent's query is on. */
export const collectionOf = (query: string): string => query.slice(0, query.indexOf('?'));
