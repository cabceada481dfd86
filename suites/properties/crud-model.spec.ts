import fc from 'fast-check';
import { test, expect, target } from '../_harness/data.js';
import { availableChangeVersionsUrl, since, type DeleteItem } from '../_harness/changes.js';
import { all } from '../_harness/changes.js';
import type { DataClient } from '../_harness/fixtures.js';
import { unique } from '../_harness/fixtures.js';
import { check, rule } from '../_harness/rules.js';

/**
 * Model-based property: random sequences of POST, PUT, DELETE and GET (plus paged lists and the
 * /deletes feed) on two descriptor resources, checked step by step against an in-test model of
 * upsert semantics. Each run writes under its own namespace and deletes what is left at the end.
 *
 * Each assertion names its rule (decision 34): a MUST step that fails stops the run and fails
 * that rule (`must`); a SHOULD difference (Total-Count, stable paging, a Location on 200, the
 * change version, what /deletes lists) is noted (`should`) and the run goes on, and after the
 * runs one check per SHOULD rule reports what was noted. Where the seed and decisions say
 * nothing (an identical write keeping its etag), the model only follows the server.
 *
 * Seed: fixed when CI is set, random otherwise; FC_SEED overrides both. On failure the seed, the
 * counterexample and the shrunk command path are printed and attached.
 */
const resources = ['academicSubjectDescriptors', 'absenceEventCategoryDescriptors'];
const CODES = 3;
const DESCRIPTIONS = ['alpha', 'beta', 'gamma'];

const PRIMARY = 'data.upsert.locate-by-natural-key';
const MUST = [
  'data.upsert.new-key-201-location', 'data.upsert.existing-key-200-update', 'data.put.update-by-id-204', 'data.delete.existing-record-204', 'data.delete.unknown-id-404',
  'data.etag.etag-changes-on-update', 'data.etag.if-match-mismatch-put-412', 'data.etag.if-match-mismatch-delete-412', 'data.etag.if-match-match-proceeds',
  'data.query-paging.offset-limit-paging', 'data.query-paging.get-by-id-200', 'data.change-queries.deletes-feed-offered',
];
const SHOULD = [
  'data.upsert.location-on-200', 'data.query-paging.stable-order', 'data.query-paging.total-count-header', 'data.change-queries.change-version-monotonic',
  'data.change-queries.deletes-exclude-recreated', 'data.change-queries.feed-order-ascending', 'data.change-queries.deletes-item-shape',
];

interface Rec { id: string; url: string; shortDescription: string; etag: string; etags: string[] }
interface Model { live: Map<string, Rec>; gone: Map<string, Rec>; deletes: Map<string, string>[]; version: number }
interface Real { api: DataClient; namespace: string; window: string; versions: boolean; noted: Noted }
/** SHOULD differences seen so far, by rule (a few each: the runs and their shrinking repeat them). */
type Noted = Map<string, Set<string>>;

/** A MUST step's failure, carrying the rule it fails. */
class RuleFailure extends Error {
  constructor(readonly rule: string, cause: unknown) {
    super(`[${rule}] ${cause instanceof Error ? cause.message : String(cause)}`);
  }
}

/** Runs a step of a MUST rule: its failure names the rule (the primary's steps use plain expect). */
async function must<T>(ruleId: string, step: () => T | Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (err) {
    throw err instanceof RuleFailure ? err : new RuleFailure(ruleId, err);
  }
}

/** Notes a SHOULD difference when `ok` is false; the run goes on. */
function should(r: Real, ruleId: string, ok: boolean, what: string): void {
  if (ok) return;
  const seen = r.noted.get(ruleId) ?? new Set<string>();
  if (seen.size < 5) seen.add(what);
  r.noted.set(ruleId, seen);
}

const keyOf = (res: number, code: number) => `${res}:${code}`;
const codeValue = (code: number) => `code-${code}`;
const body = (real: Real, code: number, shortDescription: string) => ({ namespace: real.namespace, codeValue: codeValue(code), shortDescription });

async function etagOf(api: DataClient, url: string): Promise<string> {
  return must('data.query-paging.get-by-id-200', async () => {
    const res = await api.get(url);
    expect(res.status(), `GET ${url}`).toBe(200);
    return ((await res.json()) as { _etag: string })._etag;
  });
}

/** After a write that changed data, the data store's change version has grown (when the target tells it). */
async function versionGrew(m: Model, r: Real, what: string): Promise<void> {
  if (!r.versions) return;
  const res = await r.api.get(availableChangeVersionsUrl());
  const v = res.status() === 200 ? ((await res.json()) as { newestChangeVersion: number }).newestChangeVersion : undefined;
  should(r, 'data.change-queries.change-version-monotonic', typeof v === 'number' && v > m.version, `newestChangeVersion ${v} after ${what}, was ${m.version}`);
  if (typeof v === 'number') m.version = Math.max(m.version, v);
}

/** Follows the server's etag after a successful write: a changed record MUST change it, an identical one may. */
async function followEtag(m: Model, r: Real, rec: Rec, changed: boolean, what: string): Promise<void> {
  const etag = await etagOf(r.api, rec.url);
  if (changed) await must('data.etag.etag-changes-on-update', () => expect(etag, `etag after ${what}`).not.toBe(rec.etag));
  if (etag !== rec.etag) {
    rec.etags.push(rec.etag);
    rec.etag = etag;
  }
  if (changed) await versionGrew(m, r, what);
}

type Cmd = fc.AsyncCommand<Model, Real>;

class Post implements Cmd {
  constructor(readonly res: number, readonly code: number, readonly desc: string) {}
  check = () => true;
  async run(m: Model, r: Real) {
    const key = keyOf(this.res, this.code);
    const rec = m.live.get(key);
    const response = await r.api.post(resources[this.res], body(r, this.code, this.desc));
    if (rec) {
      await must('data.upsert.existing-key-200-update', () => expect(response.status(), 'POST of an existing key').toBe(200));
      should(r, 'data.upsert.location-on-200', response.headers().location?.split('/').pop() === rec.id, `Location ${response.headers().location} on a 200 for ${rec.id}`);
      const changed = this.desc !== rec.shortDescription;
      await followEtag(m, r, rec, changed, 'a changing upsert');
      rec.shortDescription = this.desc;
    } else {
      const url = await must('data.upsert.new-key-201-location', () => {
        expect(response.status(), 'POST of a new key').toBe(201);
        const location = response.headers().location;
        expect(location, 'Location').toBeTruthy();
        return r.api.url(location);
      });
      const id = url.split('/').pop()!;
      expect([...m.live.values()].map((x) => x.id), 'a new key is a new record').not.toContain(id);
      m.live.set(key, { id, url, shortDescription: this.desc, etag: await etagOf(r.api, url), etags: [] });
      m.gone.delete(key);
      for (const [deletedId, k] of m.deletes[this.res]) if (k === key) m.deletes[this.res].delete(deletedId);
      await versionGrew(m, r, 'a create');
    }
  }
  toString = () => `POST ${resources[this.res]} code-${this.code} ${this.desc}`;
}

class Put implements Cmd {
  constructor(readonly res: number, readonly code: number, readonly desc: string, readonly ifMatch: 'none' | 'current' | 'stale') {}
  check = (m: Readonly<Model>) => m.live.has(keyOf(this.res, this.code));
  async run(m: Model, r: Real) {
    const rec = m.live.get(keyOf(this.res, this.code))!;
    // The etag value as the body gives it (the seed: If-Match carries the etag value).
    const stale = rec.etags.at(-1) ?? `${rec.etag}-stale`;
    const headers: Record<string, string> = this.ifMatch === 'current' ? { 'If-Match': rec.etag } : this.ifMatch === 'stale' ? { 'If-Match': stale } : {};
    const response = await r.api.put(rec.url, body(r, this.code, this.desc), headers);
    if (this.ifMatch === 'stale') {
      await must('data.etag.if-match-mismatch-put-412', async () => {
        expect(response.status(), 'PUT with a stale If-Match').toBe(412);
        expect(await etagOf(r.api, rec.url), 'etag after a refused PUT').toBe(rec.etag);
      });
      return;
    }
    await must(this.ifMatch === 'current' ? 'data.etag.if-match-match-proceeds' : 'data.put.update-by-id-204', () => expect(response.status(), 'PUT').toBe(204));
    await followEtag(m, r, rec, this.desc !== rec.shortDescription, 'a changing PUT');
    rec.shortDescription = this.desc;
  }
  toString = () => `PUT ${resources[this.res]} code-${this.code} ${this.desc} If-Match:${this.ifMatch}`;
}

class Delete implements Cmd {
  constructor(readonly res: number, readonly code: number, readonly ifMatch: 'none' | 'current' | 'stale') {}
  check = (m: Readonly<Model>) => m.live.has(keyOf(this.res, this.code)) || m.gone.has(keyOf(this.res, this.code));
  async run(m: Model, r: Real) {
    const key = keyOf(this.res, this.code);
    const rec = m.live.get(key);
    if (!rec) {
      const again = await r.api.delete(m.gone.get(key)!.url);
      await must('data.delete.unknown-id-404', () => expect(again.status(), 'DELETE of a deleted record').toBe(404));
      return;
    }
    const headers: Record<string, string> = this.ifMatch === 'current' ? { 'If-Match': rec.etag } : this.ifMatch === 'stale' ? { 'If-Match': rec.etags.at(-1) ?? `${rec.etag}-stale` } : {};
    const response = await r.api.delete(rec.url, headers);
    if (this.ifMatch === 'stale') {
      await must('data.etag.if-match-mismatch-delete-412', () => expect(response.status(), 'DELETE with a stale If-Match').toBe(412));
      return;
    }
    await must(this.ifMatch === 'current' ? 'data.etag.if-match-match-proceeds' : 'data.delete.existing-record-204', () => expect(response.status(), 'DELETE').toBe(204));
    m.live.delete(key);
    m.gone.set(key, rec);
    m.deletes[this.res].set(rec.id, key);
    await versionGrew(m, r, 'a delete');
  }
  toString = () => `DELETE ${resources[this.res]} code-${this.code} If-Match:${this.ifMatch}`;
}

class Get implements Cmd {
  constructor(readonly res: number, readonly code: number) {}
  check = (m: Readonly<Model>) => m.live.has(keyOf(this.res, this.code)) || m.gone.has(keyOf(this.res, this.code));
  async run(m: Model, r: Real) {
    const key = keyOf(this.res, this.code);
    const rec = m.live.get(key);
    if (!rec) {
      const gone = await r.api.get(m.gone.get(key)!.url);
      await must('data.delete.existing-record-204', () => expect(gone.status(), 'GET of a deleted record').toBe(404));
      return;
    }
    const response = await r.api.get(rec.url);
    await must('data.query-paging.get-by-id-200', async () => {
      expect(response.status()).toBe(200);
      expect(await response.json()).toMatchObject({ id: rec.id, codeValue: codeValue(this.code), shortDescription: rec.shortDescription, _etag: rec.etag });
    });
  }
  toString = () => `GET ${resources[this.res]} code-${this.code}`;
}

class List implements Cmd {
  constructor(readonly res: number, readonly pageSize: number) {}
  check = () => true;
  async run(m: Model, r: Real) {
    const expected = [...m.live.entries()].filter(([k]) => k.startsWith(`${this.res}:`)).map(([, rec]) => rec.id);
    const seen: string[] = [];
    for (let offset = 0; offset <= expected.length; offset += this.pageSize) {
      const response = await r.api.get(`${resources[this.res]}?namespace=${encodeURIComponent(r.namespace)}&offset=${offset}&limit=${this.pageSize}&totalCount=true`);
      const page = await must('data.query-paging.offset-limit-paging', async () => {
        expect(response.status()).toBe(200);
        const ids = ((await response.json()) as { id: string }[]).map((x) => x.id);
        expect(ids.length, 'a page holds at most limit items').toBeLessThanOrEqual(this.pageSize);
        return ids;
      });
      const total = response.headers()['total-count'];
      should(r, 'data.query-paging.total-count-header', total === String(expected.length), `Total-Count ${total} for ${expected.length} matches`);
      seen.push(...page);
    }
    const repeats = seen.length - new Set(seen).size;
    const skipped = expected.filter((id) => !seen.includes(id)).length;
    should(r, 'data.query-paging.stable-order', repeats === 0 && skipped === 0 && seen.length === expected.length, `pages of ${this.pageSize}: ${repeats} repeated, ${skipped} skipped, ${seen.length} seen of ${expected.length}`);
  }
  toString = () => `LIST ${resources[this.res]} pages of ${this.pageSize}`;
}

class Deletes implements Cmd {
  constructor(readonly res: number) {}
  check = () => true;
  async run(m: Model, r: Real) {
    const items = await must('data.change-queries.deletes-feed-offered', () => all<DeleteItem>(r.api, `${resources[this.res]}/deletes${r.window}`));
    const shaped = items.every((i) => typeof i?.id === 'string' && typeof i.changeVersion === 'number' && i.keyValues && typeof i.keyValues === 'object');
    should(r, 'data.change-queries.deletes-item-shape', shaped, `a /deletes item is not {id, changeVersion, keyValues}: ${JSON.stringify(items.find((i) => typeof i?.id !== 'string'))}`);
    if (!shaped) return;
    const mine = items.filter((i) => i.keyValues.namespace === r.namespace);
    const versions = mine.map((i) => i.changeVersion);
    should(r, 'data.change-queries.feed-order-ascending', versions.every((v, i) => i === 0 || v > versions[i - 1]), `change versions along /deletes: ${versions.join(', ')}`);
    const listed = new Set(mine.map((i) => i.id));
    const expected = new Set(m.deletes[this.res].keys());
    should(r, 'data.change-queries.deletes-exclude-recreated', listed.size === expected.size && [...expected].every((id) => listed.has(id)), `/deletes lists ${[...listed].join(', ')}; the model, ${[...expected].join(', ')}`);
  }
  toString = () => `DELETES ${resources[this.res]}`;
}

const res = fc.integer({ min: 0, max: resources.length - 1 });
const code = fc.integer({ min: 0, max: CODES - 1 });
const desc = fc.constantFrom(...DESCRIPTIONS);
const ifMatch = fc.constantFrom('none' as const, 'current' as const, 'stale' as const);
const post = fc.tuple(res, code, desc).map(([a, b, c]) => new Post(a, b, c));
// POST three times over: most other commands need a record to act on.
const arbitraries: fc.Arbitrary<Cmd>[] = [
  post, post, post,
  fc.tuple(res, code, desc, ifMatch).map(([a, b, c, d]) => new Put(a, b, c, d)),
  fc.tuple(res, code, ifMatch).map(([a, b, c]) => new Delete(a, b, c)),
  fc.tuple(res, code).map(([a, b]) => new Get(a, b)),
  fc.tuple(res, fc.integer({ min: 1, max: 4 })).map(([a, b]) => new List(a, b)),
  res.map((a) => new Deletes(a)),
];
const commands = fc.commands(arbitraries, { maxCommands: 30, size: 'large' });

test.describe('properties of the data API', () => {
  test('agrees with an upsert model under any sequence of POST, PUT, DELETE and GET on descriptors', rule(PRIMARY, ...MUST, ...SHOULD), async ({ api }) => {
    test.setTimeout(60_000);
    const seed = process.env.FC_SEED ? Number(process.env.FC_SEED) : process.env.CI ? 20_261_122 : Date.now() % 2_147_483_647;
    test.info().annotations.push({ type: 'seed', description: String(seed) });
    const versions = (await api.get(availableChangeVersionsUrl())).status() === 200;
    const noted: Noted = new Map();
    const property = fc.asyncProperty(commands, async (cmds) => {
      const real: Real = { api, namespace: `${target.testData.namespacePrefix}/${unique('prop')}`, window: await since(api), versions, noted };
      const model: Model = { live: new Map(), gone: new Map(), deletes: resources.map(() => new Map()), version: 0 };
      if (versions) model.version = ((await (await api.get(availableChangeVersionsUrl())).json()) as { newestChangeVersion: number }).newestChangeVersion;
      try {
        await fc.asyncModelRun(() => ({ model, real }), cmds);
      } finally {
        for (const rec of model.live.values()) await api.delete(rec.url);
      }
    });
    let failure: unknown;
    try {
      await fc.assert(property, { seed, numRuns: Number(process.env.FC_RUNS ?? 15) });
    } catch (err) {
      failure = err;
      const cause = (err as Error & { cause?: unknown }).cause;
      const message = `fast-check seed ${seed} (rerun with FC_SEED=${seed})\n${(err as Error).message}${cause instanceof Error ? `\n${cause.message}` : ''}`;
      console.error(message);
      await test.info().attach('fast-check counterexample', { body: message, contentType: 'text/plain' });
    }
    // SHOULD rules first: their checks never stop the test.
    for (const ruleId of SHOULD) {
      if (ruleId === 'data.change-queries.change-version-monotonic' && !versions) continue;
      await check(ruleId, 'no difference in any model run', () => expect([...(noted.get(ruleId) ?? [])]).toEqual([]));
    }
    if (failure === undefined) return;
    // A MUST step's error (fast-check's cause) names its rule; the primary's steps name none.
    const cause = (failure as Error & { cause?: unknown }).cause;
    const failed = cause instanceof RuleFailure ? cause.rule : undefined;
    if (failed && MUST.includes(failed)) await check(failed, 'agrees with the upsert model', () => { throw failure; });
    throw failure;
  });
});
