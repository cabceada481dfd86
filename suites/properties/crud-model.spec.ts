import fc from 'fast-check';
import { test, expect, target } from '../_harness/data.js';
import { availableChangeVersionsUrl, since, type DeleteItem } from '../_harness/changes.js';
import { all } from '../_harness/changes.js';
import type { DataClient } from '../_harness/fixtures.js';
import { unique } from '../_harness/fixtures.js';
import { rule } from '../_harness/rules.js';

/**
 * Model-based property: random sequences of POST, PUT, DELETE and GET (plus paged lists and the
 * /deletes feed) on two descriptor resources, checked step by step against an in-test model of
 * upsert semantics. Each run writes under its own namespace and deletes what is left at the end.
 *
 * Seed: fixed when CI is set, random otherwise; FC_SEED overrides both. On failure the seed, the
 * counterexample and the shrunk command path are printed and attached.
 */
const resources = ['academicSubjectDescriptors', 'absenceEventCategoryDescriptors'];
const CODES = 3;
const DESCRIPTIONS = ['alpha', 'beta', 'gamma'];

interface Rec { id: string; url: string; shortDescription: string; etag: string; etags: string[] }
interface Model { live: Map<string, Rec>; gone: Map<string, Rec>; deletes: Map<string, string>[]; version: number }
interface Real { api: DataClient; namespace: string; window: string; versions: boolean }

const keyOf = (res: number, code: number) => `${res}:${code}`;
const codeValue = (real: Real, code: number) => `code-${code}`;
const body = (real: Real, code: number, shortDescription: string) => ({ namespace: real.namespace, codeValue: codeValue(real, code), shortDescription });

async function etagOf(api: DataClient, url: string): Promise<string> {
  const res = await api.get(url);
  expect(res.status(), `GET ${url}`).toBe(200);
  return ((await res.json()) as { _etag: string })._etag;
}

/** The data store's change version must have grown since the last write (when the target tells it). */
async function versionGrew(m: Model, r: Real): Promise<void> {
  if (!r.versions) return;
  const res = await r.api.get(availableChangeVersionsUrl());
  const v = ((await res.json()) as { newestChangeVersion: number }).newestChangeVersion;
  expect(v, 'newestChangeVersion after a write').toBeGreaterThan(m.version);
  m.version = v;
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
      expect(response.status(), 'POST of an existing key').toBe(200);
      expect(response.headers().location?.split('/').pop()).toBe(rec.id);
      const etag = await etagOf(r.api, rec.url);
      if (this.desc === rec.shortDescription) expect(etag, 'etag after an identical upsert').toBe(rec.etag);
      else {
        expect(etag, 'etag after a changing upsert').not.toBe(rec.etag);
        rec.etags.push(rec.etag);
        rec.etag = etag;
        rec.shortDescription = this.desc;
        await versionGrew(m, r);
      }
    } else {
      expect(response.status(), 'POST of a new key').toBe(201);
      const url = response.headers().location;
      const id = url.split('/').pop()!;
      expect([...m.live.values()].map((x) => x.id)).not.toContain(id);
      m.live.set(key, { id, url, shortDescription: this.desc, etag: await etagOf(r.api, url), etags: [] });
      m.gone.delete(key);
      for (const [deletedId, k] of m.deletes[this.res]) if (k === key) m.deletes[this.res].delete(deletedId);
      await versionGrew(m, r);
    }
  }
  toString = () => `POST ${resources[this.res]} code-${this.code} ${this.desc}`;
}

class Put implements Cmd {
  constructor(readonly res: number, readonly code: number, readonly desc: string, readonly ifMatch: 'none' | 'current' | 'stale') {}
  check = (m: Readonly<Model>) => m.live.has(keyOf(this.res, this.code));
  async run(m: Model, r: Real) {
    const rec = m.live.get(keyOf(this.res, this.code))!;
    const stale = rec.etags.at(-1) ?? `${rec.etag}-stale`;
    const headers: Record<string, string> = this.ifMatch === 'current' ? { 'If-Match': `"${rec.etag}"` } : this.ifMatch === 'stale' ? { 'If-Match': `"${stale}"` } : {};
    const response = await r.api.put(rec.url, body(r, this.code, this.desc), headers);
    if (this.ifMatch === 'stale') {
      expect(response.status(), 'PUT with a stale If-Match').toBe(412);
      expect(await etagOf(r.api, rec.url), 'etag after a refused PUT').toBe(rec.etag);
      return;
    }
    expect(response.status(), 'PUT').toBe(204);
    const etag = await etagOf(r.api, rec.url);
    if (this.desc === rec.shortDescription) expect(etag, 'etag after an identical PUT').toBe(rec.etag);
    else {
      expect(etag, 'etag after a changing PUT').not.toBe(rec.etag);
      rec.etags.push(rec.etag);
      rec.etag = etag;
      rec.shortDescription = this.desc;
      await versionGrew(m, r);
    }
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
      expect((await r.api.delete(m.gone.get(key)!.url)).status(), 'DELETE of a deleted record').toBe(404);
      return;
    }
    const headers: Record<string, string> = this.ifMatch === 'current' ? { 'If-Match': `"${rec.etag}"` } : this.ifMatch === 'stale' ? { 'If-Match': `"${rec.etags.at(-1) ?? `${rec.etag}-stale`}"` } : {};
    const response = await r.api.delete(rec.url, headers);
    if (this.ifMatch === 'stale') {
      expect(response.status(), 'DELETE with a stale If-Match').toBe(412);
      return;
    }
    expect(response.status(), 'DELETE').toBe(204);
    m.live.delete(key);
    m.gone.set(key, rec);
    m.deletes[this.res].set(rec.id, key);
    await versionGrew(m, r);
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
      expect((await r.api.get(m.gone.get(key)!.url)).status(), 'GET of a deleted record').toBe(404);
      return;
    }
    const response = await r.api.get(rec.url);
    expect(response.status()).toBe(200);
    expect(await response.json()).toMatchObject({ id: rec.id, codeValue: codeValue(r, this.code), shortDescription: rec.shortDescription, _etag: rec.etag });
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
      expect(response.status()).toBe(200);
      expect(response.headers()['total-count'], 'Total-Count').toBe(String(expected.length));
      const page = ((await response.json()) as { id: string }[]).map((x) => x.id);
      expect(page.length).toBeLessThanOrEqual(this.pageSize);
      seen.push(...page);
    }
    expect(seen.length, 'paging repeats no item').toBe(new Set(seen).size);
    expect(new Set(seen), 'paging skips no item').toEqual(new Set(expected));
  }
  toString = () => `LIST ${resources[this.res]} pages of ${this.pageSize}`;
}

class Deletes implements Cmd {
  constructor(readonly res: number) {}
  check = () => true;
  async run(m: Model, r: Real) {
    const items = (await all<DeleteItem>(r.api, `${resources[this.res]}/deletes${r.window}`)).filter((i) => i.keyValues.namespace === r.namespace);
    const versions = items.map((i) => i.changeVersion);
    for (let i = 1; i < versions.length; i++) expect(versions[i], 'change versions strictly increase along /deletes').toBeGreaterThan(versions[i - 1]);
    expect(new Set(items.map((i) => i.id)), '/deletes lists exactly the deleted records').toEqual(new Set(m.deletes[this.res].keys()));
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
  test('agrees with an upsert model under any sequence of POST, PUT, DELETE and GET on descriptors', rule(
    'data.upsert.locate-by-natural-key',
    'data.upsert.new-key-201-location', 'data.upsert.existing-key-200-update', 'data.put.update-by-id-204', 'data.delete.existing-record-204', 'data.delete.unknown-id-404',
    'data.etag.etag-changes-on-update', 'data.etag.if-match-mismatch-put-412', 'data.etag.if-match-mismatch-delete-412', 'data.etag.if-match-match-proceeds',
    'data.query-paging.offset-limit-paging', 'data.query-paging.stable-order', 'data.query-paging.total-count-header',
    'data.change-queries.change-version-monotonic', 'data.change-queries.deletes-feed-offered', 'data.change-queries.deletes-exclude-recreated',
  ), async ({ api }) => {
    test.setTimeout(60_000);
    const seed = process.env.FC_SEED ? Number(process.env.FC_SEED) : process.env.CI ? 20_261_122 : Date.now() % 2_147_483_647;
    test.info().annotations.push({ type: 'seed', description: String(seed) });
    const versions = (await api.get(availableChangeVersionsUrl())).status() === 200;
    const property = fc.asyncProperty(commands, async (cmds) => {
      const real: Real = { api, namespace: `${target.testData.namespacePrefix}/${unique('prop')}`, window: await since(api), versions };
      const model: Model = { live: new Map(), gone: new Map(), deletes: resources.map(() => new Map()), version: 0 };
      if (versions) model.version = ((await (await api.get(availableChangeVersionsUrl())).json()) as { newestChangeVersion: number }).newestChangeVersion;
      try {
        await fc.asyncModelRun(() => ({ model, real }), cmds);
      } finally {
        for (const rec of model.live.values()) await api.delete(rec.url);
      }
    });
    try {
      await fc.assert(property, { seed, numRuns: Number(process.env.FC_RUNS ?? 15) });
    } catch (err) {
      const message = `fast-check seed ${seed} (rerun with FC_SEED=${seed})\n${(err as Error).message}`;
      console.error(message);
      await test.info().attach('fast-check counterexample', { body: message, contentType: 'text/plain' });
      throw err;
    }
  });
});
