import { expect } from './expect.js';
import { model } from './judged-model.js';
import type { CompiledReference, CompiledResource } from '../../spec/model/compiled.js';
import type { Field, Fields, ScalarField } from '../../spec/model/dsl.js';
import { numericBounds } from '../../spec/generate/json-schema.js';
import { target } from './target.js';
import { RUN_ID, itemUrlOf, unique, type DataClient } from './fixtures.js';
import { SCHOOL_YEARS as YEARS, concurrentShards, yearsPerShard } from './run-id.js';
import { runMade } from './intents.js';
import { stringifyExact } from './exact-json.js';

/**
 * Model-driven bodies for what the suites create. Every natural key carries the run id (or a
 * random value where the key is too short for it), education organization ids come from a range
 * random per worker, and school years from one year per worker, so parallel tests and parallel
 * runs against one deployment do not collide.
 */
type Body = Record<string, unknown>;
const pascal = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** A descriptor body in the run's namespace: `<prefix>/<Name>Descriptor`. */
export function descriptorBody(name: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    codeValue: unique('d'),
    namespace: `${target.testData.namespacePrefix}/${pascal(name)}Descriptor`,
    shortDescription: `Conformance ${name}`,
    ...extra,
  };
}

export const descriptorValue = (body: Record<string, unknown>) => `${body.namespace as string}#${body.codeValue as string}`;

/** The compiled model entry of a resource, by singular name (`academicWeek`) or endpoint (`academicWeeks`). */
export function resourceOf(name: string): CompiledResource {
  const r = model.byName.get(name) ?? model.byEndpoint.get(name.toLowerCase());
  if (!r) throw new Error(`builders: no resource '${name}' in the model`);
  return r;
}

// ---- run-unique numbers ------------------------------------------------------------------------

const hash = (s: string) => [...s].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7);
const workerIndex = Number(process.env.TEST_PARALLEL_INDEX ?? '0');

/** The school year of worker slot `worker` of `shard` (shard 1 for a run alone). */
export function schoolYearOf(worker: number, shards = concurrentShards()): number {
  if (!shards) return 1992 + ((hash(RUN_ID) + worker) % YEARS);
  return 1992 + ((hash(shards.base) + (shards.current - 1) * yearsPerShard(shards.total) + worker) % YEARS);
}

export const WORKER_SCHOOL_YEAR = schoolYearOf(workerIndex);

/** The rostering world's year (world.ts): shard 1's first worker's, whichever shard computes it (every shard reads the one world). */
export const WORLD_SCHOOL_YEAR = ((shards = concurrentShards()) => schoolYearOf(0, shards && { ...shards, current: 1 }))();

/** Ids the target reserves for its school-limited client: never handed out here. */
const reserved = new Set(target.capabilities?.schoolLimited?.schoolIds ?? []);
// A random int32 range per worker process: collisions need two workers to draw within ~10^5.
let nextEducationOrganizationId = 100_000_000 + Math.floor(Math.random() * 1_800_000_000);

/** A new education organization id (int32, so it also fits communityOrganizationId). */
export function newEducationOrganizationId(): number {
  while (reserved.has(++nextEducationOrganizationId));
  runMade(nextEducationOrganizationId);
  return nextEducationOrganizationId;
}

/** A key string of at most `max` characters: the run-unique value, or random characters when that is too long. */
export function uniqueKey(max: number, prefix = 'k'): string {
  const u = unique(prefix);
  if (u.length <= max) return u;
  let r = '';
  while (r.length < max) r += Math.random().toString(36).slice(2);
  const key = `${prefix}${r}`.slice(0, max);
  runMade(key);
  return key;
}

// ---- the builder -------------------------------------------------------------------------------

export interface Created {
  resource: CompiledResource;
  url: string;
  id: string;
  location: string;
  body: Body;
  /** Natural-key values by query name (for organizations also `educationOrganizationId`). */
  keys: Record<string, unknown>;
}

interface BuildOptions {
  /**
   * Fill every member, optional ones included (optional references, every collection); or, with
   * a predicate, the optional members it picks and the optional objects and collections holding
   * one at any depth, so a test about those members creates no optional reference or descriptor
   * it does not need.
   */
  full?: Fill;
  /** Values to use for same-named key members (key unification), by query name. */
  context?: Record<string, unknown>;
  /**
   * Take the body's dependencies (descriptors, referenced records, organizations, school years)
   * from the worker's pool: made once per worker process and deleted when it ends, not per test.
   * Only for tests that write bodies and read back their own records: they never change or delete
   * a dependency, nor query by one's key (another test's records share it). A deployment 40 ms
   * away spends most of a generated test making and deleting dependencies.
   */
  shared?: boolean;
  /**
   * With `shared`: a body sent only to be refused, so no record ever holds its natural key; its
   * key's references and descriptors come from the pool too, not only its other dependencies. A
   * deployment that wrongly accepts one makes a record the test then deletes (refusedPaths).
   */
  refusedOnly?: boolean;
}

/** Which optional members a body carries: none, all, or those a predicate picks (with what holds them). */
type Fill = boolean | ((f: Field) => boolean);
const holds = (f: Field, pick: (f: Field) => boolean): boolean =>
  (f.kind === 'object' && Object.values(f.fields).some((x) => pick(x) || holds(x, pick)))
  || (f.kind === 'collection' && Object.values(f.item).some((x) => pick(x) || holds(x, pick)));
const fills = (full: Fill, f: Field) => full === true || (typeof full === 'function' && (full(f) || holds(f, full)));

/**
 * Values already chosen at one level of the document, by query name (key unification).
 * `reusable`: the same for every test of the worker (a pool record's key, a pool descriptor, a
 * value no key makes unique), so a record pinned by such values alone may be the pool's.
 */
type Context = Map<string, { value: unknown; kind: string; reusable?: boolean }>;
/** A value's kind for unification: an int64 past 2^53, held as a bigint (exact-json.ts), is a number. */
const kindOf = (v: unknown): string => (typeof v === 'bigint' ? 'number' : typeof v);

/**
 * Builds bodies from the model and creates whatever they reference: descriptors, the school
 * year, organizations and any referenced record, reusing what this test already created.
 * Everything goes through `api.create()`, so it is deleted after the test, newest first.
 */
export class Builder {
  /** Descriptor values by bare name; a promise, so that members resolved together make one each. */
  private readonly descriptors = new Map<string, Promise<string>>();
  private readonly records: Created[] = [];
  private readonly years = new Set<number>();

  /**
   * @param pool the worker's Builder, whose records outlive the test (BuildOptions.shared)
   * @param runDescriptors for the worker's pool: the run's descriptors (run-pool.ts), handed out
   * instead of making its own
   */
  constructor(readonly api: DataClient, private readonly pool?: Builder, private readonly runDescriptors?: ReadonlyMap<string, string>) {}

  /** A descriptor value `<namespace>#<codeValue>` of the given descriptor, created once per test (or the run's). */
  async descriptor(name: string): Promise<string> {
    const bare = name.replace(/Descriptor$/, '');
    const run = this.runDescriptors?.get(bare);
    if (run) return run;
    let value = this.descriptors.get(bare);
    if (!value) {
      value = this.newDescriptor(bare).then((created) => created.value);
      this.descriptors.set(bare, value);
    }
    return value;
  }

  /** A new descriptor of the given descriptor resource (always created). */
  async newDescriptor(name: string, extra: Body = {}): Promise<Created & { value: string }> {
    const bare = name.replace(/Descriptor$/, '');
    const resource = resourceOf(`${bare}Descriptor`);
    const body = descriptorBody(bare, extra);
    const made = await this.api.create(resource.endpoint, body);
    const created = { resource, ...made, body, keys: { namespace: body.namespace, codeValue: body.codeValue }, value: descriptorValue(body) };
    this.records.push(created);
    return created;
  }

  /**
   * Makes sure a school year exists (default: this worker's year). School years are shared keys:
   * an existing one is used as it is and never deleted; one created here is deleted afterwards.
   * The worker's year is the pool's when there is one: the pool's records reference it and outlive
   * the test, so a test that made it could not delete it (409), and every test shares it anyway.
   */
  async schoolYear(year = WORKER_SCHOOL_YEAR): Promise<number> {
    if (this.pool && year === WORKER_SCHOOL_YEAR) return this.pool.schoolYear(year);
    if (this.years.has(year)) return year;
    const found = await this.api.get(`schoolYearTypes?schoolYear=${year}`);
    expect(found.status(), `GET schoolYearTypes?schoolYear=${year}`).toBe(200);
    if (!((await found.json()) as unknown[]).length) {
      // New, as just seen: announced in the ledger like any creation (DataClient.postNew).
      const res = await this.api.postNew('schoolYearTypes', { schoolYear: year, currentSchoolYear: false, schoolYearDescription: `${year - 1}-${year}` });
      expect([200, 201], `POST schoolYearTypes ${year}: ${await res.text()}`).toContain(res.status());
      if (res.status() === 201) this.api.track(itemUrlOf('schoolYearTypes', res.headers().location));
    }
    this.years.add(year);
    return year;
  }

  /** A complete, valid body of `resource` (dependencies created), with `overrides` applied on top. */
  async body(resource: string, overrides: Body = {}, opts: BuildOptions = {}): Promise<Body> {
    const r = resourceOf(resource);
    if (r.isDescriptor) {
      const body = descriptorBody(r.name.replace(/Descriptor$/, ''), overrides);
      for (const [k, v] of Object.entries(overrides)) if (v === undefined) delete body[k];
      return body;
    }
    const ctx: Context = new Map(Object.entries(opts.context ?? {}).map(([k, v]) => [k, { value: v, kind: kindOf(v) }]));
    // Overridden members feed the unification context, so the rest agrees with them.
    for (const [name, value] of Object.entries(overrides)) {
      const f = r.fields[name];
      if (!f || value === undefined || value === null) continue;
      if (f.kind === 'reference') {
        const ref = r.references.find((x) => x.path === `$.${name}`)!;
        for (const m of ref.fields) if ((value as Body)[m.property] !== undefined) ctx.set(m.queryName, { value: (value as Body)[m.property], kind: kindOf((value as Body)[m.property]) });
      } else if (f.kind !== 'collection' && f.kind !== 'object' && f.kind !== 'extension') ctx.set(name, { value, kind: kindOf(value) });
    }
    const skip = new Set(Object.keys(overrides));
    const deps = opts.shared && this.pool ? this.pool : this;
    const body = await this.fields(r, r.fields, '$', ctx, opts.full ?? false, skip, deps, opts.refusedOnly ? deps : this);
    for (const [k, v] of Object.entries(overrides)) {
      if (v === undefined) delete body[k];
      else body[k] = v;
    }
    return body;
  }

  /** Builds and POSTs a new record (201 expected); deleted after the test. */
  async create(resource: string, overrides: Body = {}, opts: BuildOptions = {}): Promise<Created> {
    const r = resourceOf(resource);
    if (r.isDescriptor) return this.newDescriptor(r.name, overrides);
    if (r.isSchoolYearEnumeration) throw new Error('builders: use schoolYear() for school years');
    const body = await this.body(r.name, overrides, opts);
    return this.post(r, body);
  }

  /** POSTs a body built elsewhere (201 expected) and remembers it for reuse. */
  async post(r: CompiledResource, body: Body): Promise<Created> {
    const made = await this.api.create(r.endpoint, body);
    const created: Created = { resource: r, ...made, body, keys: keysOf(r, body) };
    this.records.push(created);
    return created;
  }

  /** The reference object naming a created record (`{ schoolId }`, `{ calendarCode, schoolId, schoolYear }`). */
  referenceTo(created: Created): Body {
    return Object.fromEntries(created.resource.identity.map((p) => [p.name, created.keys[p.name]]));
  }

  /** A new school (the default education organization). */
  school(overrides: Body = {}, opts: BuildOptions = {}): Promise<Created> {
    return this.create('school', { schoolId: newEducationOrganizationId(), ...overrides }, opts);
  }

  // ---- internals ----------------------------------------------------------------------------

  /** `deps` makes the dependencies: this Builder, or the worker's pool; `keyDeps`, those of the record's own key. */
  private async fields(r: CompiledResource, fields: Fields, base: string, ctx: Context, full: Fill, skip = new Set<string>(), deps: Builder = this, keyDeps: Builder = this): Promise<Body> {
    const out: Body = {};
    const wanted = Object.entries(fields).filter(([name, f]) => !skip.has(name) && (f.required || f.identity || fills(full, f)) && f.kind !== 'extension' && !('readOnly' in f && f.readOnly));
    // Scalars and descriptors first, then references (pinned by the scalars), then nested members.
    // The record's own key members never come from the pool (but for a body sent only to be
    // refused, BuildOptions.refusedOnly): two tests' records would share a key. Unless the key
    // holds a string member this body makes unique (scalar(): uniqueKey, at least 8 characters):
    // then the key is unique whatever records the rest of it names (a session's school and year).
    const ownUniqueKey = base === '$' && wanted.some(([name, f]) => f.identity && f.kind === 'string' && !ctx.has(name) && (f.maxLength ?? 60) >= 8);
    const from = (f: Field) => (base === '$' && f.identity && !ownUniqueKey ? keyDeps : deps);
    // The level's descriptors are made together (one round trip, not one each): member names are
    // unique within a level, so no descriptor member's value depends on another's.
    const descriptorValue = async (name: string, f: Field): Promise<unknown> => {
      const known = ctx.get(name);
      return known?.kind === 'string' ? known.value : from(f).descriptor((f as Extract<Field, { kind: 'descriptor' }>).descriptor);
    };
    const descriptorMembers = wanted.filter(([, f]) => f.kind === 'descriptor');
    const descriptorValues = new Map(await Promise.all(descriptorMembers.map(async ([name, f]) => [name, await descriptorValue(name, f)] as const)));
    for (const [name, f] of wanted) {
      if (f.kind === 'descriptor') {
        out[name] = descriptorValues.get(name);
        const known = ctx.get(name);
        ctx.set(name, { value: out[name], kind: 'string', reusable: known?.kind === 'string' ? known.reusable : from(f) !== this });
      } else if (f.kind !== 'reference' && f.kind !== 'collection' && f.kind !== 'object' && f.kind !== 'extension') {
        const value = this.scalar(r, name, f, base);
        const known = ctx.get(name);
        const unified = known && known.kind === kindOf(value);
        out[name] = unified ? known.value : value;
        // A key member's value is unique to the test (scalar()); any other is the same in every body.
        ctx.set(name, { value: out[name], kind: kindOf(out[name]), reusable: unified ? known.reusable : !f.identity && !(base === '$' && r.educationOrganization?.idField === name) });
      }
    }
    if (r.isSchoolYearEnumeration) return out;
    const refs = wanted.filter(([, f]) => f.kind === 'reference').map(([name, f]) => {
      const ref = r.references.find((x) => x.path === `${base}.${name}`);
      if (!ref) throw new Error(`builders: no compiled reference at ${base}.${name} of ${r.name}`);
      return { name, ref, deps: from(f) };
    });
    // References sharing a key member (key unification: a session's and a school's schoolId) are
    // made one after another, each pinned by those before it; the others at the same time, since
    // none reads a key another sets. A deployment 40 ms away pays one round trip per level, not
    // one per referenced record.
    const shares = (a: CompiledReference, b: CompiledReference) => a.fields.some((m) => b.fields.some((n) => n.queryName === m.queryName));
    const coupled = refs.filter((a) => refs.some((b) => b !== a && shares(a.ref, b.ref)));
    const made = new Map<string, Body>();
    const sharing = deps !== this;
    await Promise.all([
      (async () => { for (const x of coupled) made.set(x.name, await this.reference(x.ref, ctx, x.deps, sharing)); })(),
      ...refs.filter((x) => !coupled.includes(x)).map(async (x) => { made.set(x.name, await this.reference(x.ref, ctx, x.deps, sharing)); }),
    ]);
    for (const { name } of refs) out[name] = made.get(name);
    for (const [name, f] of wanted) {
      if (f.kind === 'collection') out[name] = [await this.fields(r, f.item, `${base}.${name}[*]`, new Map(ctx), full, undefined, deps)];
      else if (f.kind === 'object') out[name] = await this.fields(r, f.fields, `${base}.${name}`, new Map(ctx), full, undefined, deps);
    }
    return out;
  }

  /**
   * `deps` is this Builder or the worker's pool: the pool's record when it has one that fits, else
   * this test's. `sharing`: the body being built takes its dependencies from the pool
   * (BuildOptions.shared), so a record made here for it does too (ensureNow).
   */
  private async reference(ref: CompiledReference, ctx: Context, deps: Builder = this, sharing = false): Promise<Body> {
    const pinned: Body = {};
    let reusable = true;
    for (const m of ref.fields) {
      const known = ctx.get(m.queryName);
      if (!known) continue;
      pinned[m.property] = known.value;
      reusable &&= !!known.reusable;
    }
    const pooled = deps !== this ? await deps.reuse(ref.target, pinned, reusable) : undefined;
    const keys = pooled ?? await this.ensure(ref.target, pinned, sharing);
    const out: Body = {};
    for (const m of ref.fields) {
      out[m.property] = keys[m.property];
      ctx.set(m.queryName, { value: keys[m.property], kind: kindOf(keys[m.property]), reusable: pooled !== undefined });
    }
    return out;
  }

  /**
   * For the worker's pool: keys of a pool record of `target` matching `pinned`. One is made when
   * every pinned value is `reusable` (none pinned, or only the pool's keys and values no key makes
   * unique); a record made for other pinned keys would reference the test's own records, which
   * are deleted before the pool's, and would serve no other test.
   */
  private async reuse(targetName: string, pinned: Body, reusable: boolean): Promise<Body | undefined> {
    if (targetName === 'schoolYearType' || reusable) return this.ensure(targetName, pinned);
    return this.find(targetName, pinned);
  }

  /** Keys of a record of `target` matching `pinned` that this Builder made, if any. */
  private find(targetName: string, pinned: Body): Body | undefined {
    const matches = (c: Created) => Object.entries(pinned).every(([k, v]) => c.keys[k] === v);
    if (targetName === 'educationOrganization') return this.records.find((c) => c.resource.educationOrganization && matches(c))?.keys;
    const name = concreteTarget(targetName);
    return this.records.find((c) => c.resource.name === name && matches(c))?.keys;
  }

  /** Records being made, by target and pinned keys: references resolved at the same time make one, not two. */
  private readonly making = new Map<string, Promise<Body>>();

  /** Keys of a record of `target` matching `pinned`: one this Builder made (or is making), or a new one. */
  private ensure(targetName: string, pinned: Body, sharing = false): Promise<Body> {
    const key = `${targetName}\u0000${stringifyExact(pinned)}`;
    let pending = this.making.get(key);
    if (!pending) {
      pending = this.ensureNow(targetName, pinned, sharing).finally(() => this.making.delete(key));
      this.making.set(key, pending);
    }
    return pending;
  }

  /**
   * A record this test makes for a body built with `shared` (one of its key's references, a
   * school the key names) is the test's own, deleted with it, but what it references in turn
   * comes from the pool as the body's other dependencies do (its descriptors, a school its own
   * key does not make unique): a school made for a key took two descriptors of its own, four
   * requests of the five it cost.
   */
  private async ensureNow(targetName: string, pinned: Body, sharing: boolean): Promise<Body> {
    if (targetName === 'schoolYearType') return { schoolYear: await this.schoolYear(pinned.schoolYear as number | undefined) };
    // Keys pinned by a pool record may name more of the pool's records: never make those again.
    const found = this.find(targetName, pinned) ?? (Object.keys(pinned).length ? this.pool?.find(targetName, pinned) : undefined);
    if (found) return found;
    if (targetName === 'educationOrganization') {
      return (await this.school({ schoolId: (pinned.educationOrganizationId as number | undefined) ?? newEducationOrganizationId() }, { shared: sharing })).keys;
    }
    const r = resourceOf(concreteTarget(targetName));
    if (r.isDescriptor) throw new Error(`builders: descriptor references are values, not objects (${targetName})`);
    const overrides: Body = {};
    if (r.educationOrganization) overrides[r.educationOrganization.idField] = pinned[r.educationOrganization.idField] ?? newEducationOrganizationId();
    return (await this.create(r.name, overrides, { context: pinned, shared: sharing })).keys;
  }

  private scalar(r: CompiledResource, name: string, f: ScalarField, base: string): unknown {
    if (base === '$' && r.educationOrganization?.idField === name) return newEducationOrganizationId();
    if (r.isSchoolYearEnumeration && name === 'schoolYear') return WORKER_SCHOOL_YEAR;
    switch (f.kind) {
      case 'string': {
        const max = f.maxLength ?? 60;
        if (name === 'namespace') return `${target.testData.namespacePrefix}/${unique('ns')}`.slice(0, max);
        if (f.identity) return uniqueKey(max);
        return `${name}-value`.slice(0, max).padEnd(f.minLength ?? 0, 'x');
      }
      case 'int32':
      case 'int64': {
        // Within the data standard's bounds (fiscalYear 2020-2040, counts from 1 ...).
        const { minimum = 1, maximum = 1_000_000 } = numericBounds(f);
        return f.identity ? minimum + Math.floor(Math.random() * (Math.min(maximum, minimum + 1_000_000) - minimum + 1)) : Math.min(Math.max(7, minimum), maximum);
      }
      case 'double': {
        const { minimum = 0, maximum = 2.5 } = numericBounds(f);
        return Math.min(Math.max(2.5, minimum), maximum);
      }
      case 'boolean':
        return true;
      case 'date':
        return /end|expiration/i.test(name) ? '2025-06-06' : '2024-08-26';
      case 'date-time':
        return '2024-08-26T12:00:00Z';
      case 'time':
        return /end/i.test(name) ? '15:30:00' : '08:30:00';
    }
  }
}

/**
 * The resource a reference target names: itself, or for an abstract target other than
 * educationOrganization (general student program associations) the member built for it, since
 * members share the identity.
 */
function concreteTarget(name: string): string {
  const abstract = model.abstracts.find((a) => a.name === name);
  return abstract ? abstract.members.find((m) => m.resource === 'studentProgramAssociation')?.resource ?? abstract.members[0].resource : name;
}

/** Natural-key values of a body by query name; organizations also by `educationOrganizationId`. */
export function keysOf(r: CompiledResource, body: Body): Record<string, unknown> {
  const keys: Record<string, unknown> = {};
  for (const p of r.identity) keys[p.name] = p.path.slice(2).split('.').reduce<unknown>((v, s) => (v as Body | undefined)?.[s], body);
  if (r.educationOrganization) keys.educationOrganizationId = body[r.educationOrganization.idField];
  return keys;
}

export type { Field };
