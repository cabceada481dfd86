import { test, expect } from '../_harness/data.js';
import type { Builder, Created } from '../_harness/builders.js';
import type { DataClient } from '../_harness/fixtures.js';
import { eventsOf, newestIfOffered, since } from '../_harness/changes.js';
import { check, checkNotApplicable, rule } from '../_harness/rules.js';
import { early } from '../_harness/in-parallel.js';
import { numericBounds } from '../../spec/generate/json-schema.js';
import type { CompiledResource } from '../../spec/model/compiled.js';
import type { ScalarField } from '../../spec/model/dsl.js';
import { model } from '../_harness/judged-model.js';
import { inGroups } from '../_harness/groups.js';

/**
 * Two rules about every resource the model has (decision 43), checked on one record per resource.
 *
 * Every scalar property plus `id` is an equality query parameter of GET collection (seed:
 * Endpoints): top-level scalars and descriptors by name, reference keys by their bare name. A
 * query naming the record's id and every member's value at once finds exactly it (each parameter
 * accepted, each value matching); then, for each member alone, the same id with another value of
 * the member's type leaves it out (the filter has effect), and for `id`, every member's value with
 * another id leaves it out. The id narrows each query to the one record, so a value many records
 * share (a boolean, the school year) proves the filter as well as a unique one, whatever else the
 * target holds. Values are those the record reads back with (its representation of dates, times
 * and server-assigned members such as a descriptor's `<name>DescriptorId`).
 *
 * Change tracking is offered per resource (seed: What the service does): the record's deletion is
 * listed in /deletes, and /keyChanges answers 200 with a JSON array; on the six resources whose
 * natural key PUT may change (x-Core-isUpdatable) the record's key is changed first and
 * /keyChanges lists it. As in change-queries/feeds.spec.ts an event is found by the record's id or
 * a key string it wrote, wherever it appears in the item (the seed shows no item fields).
 *
 * GET collection honours MinChangeVersion and MaxChangeVersion per resource too (seed: change
 * queries): once the record's last change is answered, the newest change version is read, and one
 * past it bounds the record's collection from both sides, whether the deployment's bounds are
 * inclusive or not (the seed does not say). change-queries/change-versions.spec.ts checks the
 * bounds in depth on one resource.
 *
 * School years are shared by every run: the worker's year is queried, never written, and both
 * feeds answer 200 with an array.
 *
 * Requests per resource: the newest change version, the record and what it references (a
 * descriptor: itself and a prior one, read), one read, 1 + n queries for its n members (9 on
 * average, 2,880 in all), one new descriptor per descriptor type among them (the other value), one
 * page of /keyChanges (updatable: the PUT and the page), the DELETE and one page of /deletes.
 * Requests that do not depend on each other's answers go together (`early`): a distant
 * deployment is paid about seven round trips per resource, not eleven. Each is still judged in
 * its own check, in the order above.
 */
type Body = Record<string, unknown>;
const at = (body: Body, path: string): unknown => path.slice(2).split('.').reduce<unknown>((v, s) => (v as Body | null | undefined)?.[s], body);
const idsOf = async (res: { json: () => Promise<unknown> }) => ((await res.json()) as { id: string }[]).map((i) => i.id);
const q = (pairs: [string, unknown][]) => pairs.map(([n, v]) => `${n}=${encodeURIComponent(String(v))}`).join('&');

/** The descriptor a descriptor-valued query field holds: a top-level member, or a reference's key member. */
function descriptorOf(r: CompiledResource, path: string): string {
  const top = r.descriptors.find((d) => d.path === path)?.descriptor;
  const inReference = r.references.flatMap((ref) => ref.fields.map((m) => ({ path: `${ref.path}.${m.property}`, descriptor: m.descriptor }))).find((m) => m.path === path)?.descriptor;
  const name = top ?? inReference;
  if (!name) throw new Error(`${r.name}: no descriptor known at ${path}`);
  return name;
}

/** The date `days` after the one a date or date-time value starts with, the rest of the value kept. */
function plusDays(text: string, days: number): string {
  const d = new Date(`${text.slice(0, 10)}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return `${d.toISOString().slice(0, 10)}${text.slice(10)}`;
}

/**
 * Another value of the member's type, unlike the record's in a way no store ignores: strings
 * differ in their last letter (not only in case or trailing space, which case-insensitive or
 * padding collations would match), numbers by one within the member's bounds, dates by a day,
 * times by an hour, booleans flipped, descriptors name another existing descriptor.
 */
async function otherValue(r: CompiledResource, name: string, value: unknown, data: Builder, descriptors: Map<string, Promise<Created & { value: string }>>): Promise<unknown> {
  const field = r.queryFields[name];
  const own = field.path.split('.').length === 2 ? (r.fields[field.path.slice(2)] as ScalarField | undefined) : undefined;
  switch (field.kind) {
    case 'descriptor': {
      // One new descriptor per descriptor type, however many members name it (they are asked for at once).
      const descriptor = descriptorOf(r, field.path);
      if (!descriptors.has(descriptor)) descriptors.set(descriptor, data.newDescriptor(descriptor));
      return (await descriptors.get(descriptor)!).value;
    }
    case 'string': {
      const s = String(value);
      return `${s.slice(0, -1)}${s.slice(-1).toLowerCase() === 'q' ? 'z' : 'q'}`;
    }
    case 'int32':
    case 'int64':
    case 'double': {
      const n = Number(value);
      const { minimum = -Infinity, maximum = Infinity } = own ? numericBounds(own) : {};
      return n + 1 <= maximum ? n + 1 : n - 1 >= minimum ? n - 1 : undefined;
    }
    case 'boolean':
      return !value;
    case 'date':
    case 'date-time':
      return plusDays(String(value), 1);
    case 'time': {
      const s = String(value);
      return `${String((Number(s.slice(0, 2)) + 1) % 24).padStart(2, '0')}${s.slice(2)}`;
    }
    default:
      return undefined;
  }
}

/** A feed's answer: 200 with a JSON array. */
async function expectArray(res: { status: () => number; text: () => Promise<string> }, what: string): Promise<void> {
  const text = await res.text();
  expect(res.status(), `${what}: ${text.slice(0, 300)}`).toBe(200);
  expect(Array.isArray(JSON.parse(text)), `${what} answers a JSON array: ${text.slice(0, 300)}`).toBe(true);
}

/** What a feed item about the record would name: its id, and its key strings unique to the test (not dates, not descriptor values). */
const marksOf = (id: string, keys: Record<string, unknown>) => [id, ...Object.values(keys).filter((v): v is string => typeof v === 'string' && !v.includes('#') && !/^\d{4}-\d{2}-\d{2}/.test(v))];

/** The top-level string or date key member a PUT can change without another record (none where every key member is a reference's, e.g. 4.0's staffSectionAssociation). */
const changeableKeyPart = (r: CompiledResource) => r.identity.find((p) => p.path.split('.').length === 2 && (p.kind === 'string' || p.kind === 'date'));

/** A top-level key member PUT may change, and its new value: a string one letter longer (or with another last letter), a date a day later. */
function keyChange(r: CompiledResource, body: Body): { name: string; value: string } {
  const part = changeableKeyPart(r);
  if (!part) throw new Error(`${r.name}: no top-level string or date key member to change`);
  const old = String(body[part.name]);
  if (part.kind === 'date') return { name: part.name, value: plusDays(old, 1) };
  const f = r.fields[part.name];
  const max = f.kind === 'string' ? f.maxLength ?? 60 : 60;
  return { name: part.name, value: old.length < max ? `${old}r` : `${old.slice(0, -1)}${old.endsWith('q') ? 'z' : 'q'}` };
}

/** A record of the test's own with every member filled (a descriptor: with a prior descriptor), and another id no record of the resource has. */
async function recordOf(r: CompiledResource, api: DataClient, data: Builder): Promise<Created & { otherId?: string }> {
  if (!r.isDescriptor) return data.create(r.name, {}, { full: true, shared: true });
  const prior = await data.newDescriptor(r.name);
  const priorRead = (await (await api.get(prior.url)).json()) as Body;
  const idName = `${r.name}Id`;
  expect(Number.isInteger(priorRead[idName]), `${r.name} ${prior.id} reads back with ${idName}`).toBe(true);
  const created = await data.newDescriptor(r.name, { description: 'Conformance description', effectiveBeginDate: '2024-07-01', effectiveEndDate: '2025-06-30', priorDescriptorId: priorRead[idName] });
  return { ...created, otherId: prior.id };
}

/**
 * The queries on one record: by its id and every member's value at once (exactly the record),
 * then for each member alone another value, and for `id` another id (never the record).
 */
async function expectQueryable(r: CompiledResource, api: DataClient, data: Builder, id: string, read: Body, written: Body, spareId?: string): Promise<void> {
  const values = new Map<string, unknown>();
  const unvalued: string[] = [];
  for (const name of Object.keys(r.queryFields).filter((n) => n !== 'id')) {
    const path = r.queryFields[name].path;
    const value = at(read, path) ?? at(written, path);
    if (value === undefined || value === null) unvalued.push(name);
    else values.set(name, value);
  }
  expect(unvalued, `members of ${r.name} the record holds no value of`).toEqual([]);
  expect(values.size, `scalar members of ${r.name}`).toBeGreaterThan(0);
  const base = `${r.endpoint}?id=${encodeURIComponent(id)}`;

  // Every member's other value (a new descriptor per descriptor type) and another id, asked for
  // while the first query runs; judged in the equality check below.
  const descriptors = new Map<string, Promise<Created & { value: string }>>();
  const othersFound = early(Promise.all([...values].map(async ([name, value]) => [name, await otherValue(r, name, value, data, descriptors)] as const)));
  const otherIdFound = early(spareId !== undefined ? Promise.resolve(spareId)
    : othersFound.then(async () => (await [...descriptors.values()][0])?.id ?? (await data.newDescriptor('academicSubject')).id));

  // Whatever the test ends on, the records asked for early are made before it ends (its cleanup deletes them).
  try {
    // Every parameter at once, each with the record's value: exactly the record.
    const all = await api.get(`${base}&${q([...values])}`);
    if (all.status() !== 200 || JSON.stringify(await idsOf(all)) !== JSON.stringify([id])) {
      // Name the parameters that do not find it, each alone with the id (two items are enough to tell).
      const missed: string[] = [];
      await Promise.all([...values].map(async ([name, value]) => {
        const res = await api.get(`${base}&${q([[name, value]])}&limit=2`);
        const ids = res.status() === 200 ? await idsOf(res) : [];
        if (res.status() !== 200 || !ids.includes(id)) missed.push(`${name}=${String(value)} (${res.status()}${res.status() === 200 ? `, ids ${ids.join(', ') || 'none'}` : `: ${(await res.text()).slice(0, 200)}`})`);
      }));
      expect(missed, `query parameters of ${r.endpoint} that do not find the record by its own value (with id=${id})`).toEqual([]);
      expect(await idsOf(all), `${r.endpoint} queried by id and every member's value`).toEqual([id]);
    }

    await check(EQUALITY, `each query parameter of ${r.endpoint} with another value leaves the record out`, async () => {
      const others = new Map<string, unknown>(await othersFound);
      expect([...others].filter(([, v]) => v === undefined).map(([n]) => n), `members of ${r.name} no other value was found for`).toEqual([]);
      const otherId = await otherIdFound;
      const kept: string[] = [];
      // Each member with its other value, and every member's value with another id, all at once.
      await Promise.all([...[...others].map(async ([name, other]) => {
        const res = await api.get(`${base}&${q([[name, other]])}`);
        if (res.status() !== 200) kept.push(`${name}=${String(other)} (${res.status()}: ${(await res.text()).slice(0, 200)})`);
        else if ((await idsOf(res)).includes(id)) kept.push(`${name}=${String(other)} (the record, whose ${name} is ${String(values.get(name))}, is listed)`);
      }), (async () => {
        const byId = await api.get(`${r.endpoint}?${q([...values, ['id', otherId]])}`);
        if (byId.status() !== 200) kept.push(`id=${otherId} (${byId.status()}: ${(await byId.text()).slice(0, 200)})`);
        else if ((await idsOf(byId)).includes(id)) kept.push(`id=${otherId} with every member's value (the record, of id ${id}, is listed)`);
      })()]);
      expect(kept, `query parameters of ${r.endpoint} that do not restrict the collection to their value (with id=${id})`).toEqual([]);
    });
  } finally {
    await Promise.allSettled([othersFound, otherIdFound]);
  }
}

/**
 * What is wrong with the record's collection bounded one past `newest` change version (read once
 * the record's last change was answered): MaxChangeVersion there lists it, MinChangeVersion there
 * leaves it out. Undefined when the deployment does not tell its newest change version.
 */
async function changeWindowMisses(r: CompiledResource, api: DataClient, id: string): Promise<string[] | undefined> {
  const newest = await newestIfOffered(api);
  if (newest === undefined) return undefined;
  const base = `${r.endpoint}?id=${encodeURIComponent(id)}`;
  const [within, past] = await Promise.all([api.get(`${base}&MaxChangeVersion=${newest + 1}`), api.get(`${base}&MinChangeVersion=${newest + 1}`)]);
  const wrong: string[] = [];
  if (within.status() !== 200 || !(await idsOf(within)).includes(id)) wrong.push(`MaxChangeVersion=${newest + 1} does not list it (${within.status()})`);
  if (past.status() !== 200 || (await idsOf(past)).includes(id)) wrong.push(`MinChangeVersion=${newest + 1} lists it or is refused (${past.status()})`);
  return wrong;
}

const QUERYABLE = 'data.query-paging.scalar-properties-and-id-queryable';
const EQUALITY = 'data.query-paging.property-equality-filter';
const DELETES = 'data.change-queries.deletes-feed-offered';
const KEY_CHANGES = 'data.change-queries.key-changes-feed-offered';
const CHANGE_WINDOW = 'data.change-queries.collection-change-version-filter';

test.describe('every resource: its scalar members and id as query parameters, its /deletes and /keyChanges feeds', () => {
  inGroups(model.resources, (r) => {
    if (r.isSchoolYearEnumeration) {
      // School years are shared by every run: the worker's year is read, never written.
      test(`finds the ${r.name} by its id and each scalar member's value in ${r.endpoint} queries but not by another value, and offers ${r.endpoint}/deletes and ${r.endpoint}/keyChanges`, rule(QUERYABLE, EQUALITY, DELETES, KEY_CHANGES), async ({ api, data }) => {
        const year = await data.schoolYear();
        const res = await api.get(`${r.endpoint}?schoolYear=${year}`);
        expect(res.status()).toBe(200);
        const [read] = (await res.json()) as Body[];
        expect(read, `${r.endpoint}?schoolYear=${year}`).toBeDefined();
        await expectQueryable(r, api, data, read.id as string, read, {});
        await check(DELETES, `${r.endpoint}/deletes answers 200 with a JSON array`, async () => expectArray(await api.get(`${r.endpoint}/deletes?limit=1`), `${r.endpoint}/deletes`));
        await check(KEY_CHANGES, `${r.endpoint}/keyChanges answers 200 with a JSON array`, async () => expectArray(await api.get(`${r.endpoint}/keyChanges?limit=1`), `${r.endpoint}/keyChanges`));
      });
      return;
    }
    // A key that only references hold is changed by pointing at another record: this test then
    // checks that the feed is offered, as for a resource whose key cannot change.
    const keyChanges = r.updatable && !!changeableKeyPart(r);
    const title = keyChanges
      ? `finds a ${r.name} by its id and each scalar member's value in ${r.endpoint} queries but not by another value, bounds it by change version, and lists its natural-key change in ${r.endpoint}/keyChanges and its deletion in ${r.endpoint}/deletes`
      : `finds a ${r.name} by its id and each scalar member's value in ${r.endpoint} queries but not by another value, bounds it by change version, lists its deletion in ${r.endpoint}/deletes, and offers ${r.endpoint}/keyChanges`;
    test(title, rule(QUERYABLE, EQUALITY, DELETES, KEY_CHANGES, CHANGE_WINDOW), async ({ api, data }) => {
      // The window is read while the record is made: only the key change and the deletion, sent
      // after it is known, must fall inside it.
      const windowRead = early(since(api));
      const created = await recordOf(r, api, data);
      const window = await windowRead;
      let { body, keys } = created;
      // A key that cannot change: the feed is only asked to answer, while the record is read.
      const offered = keyChanges ? undefined : early(api.get(`${r.endpoint}/keyChanges${window}${window ? '&' : '?'}limit=1`));
      const read = keyChanges ? undefined : early(api.get(created.url));
      await check(KEY_CHANGES, keyChanges ? `${r.endpoint}/keyChanges lists the key change` : `${r.endpoint}/keyChanges answers 200 with a JSON array`, async () => {
        if (offered) return expectArray(await offered, `${r.endpoint}/keyChanges`);
        const change = keyChange(r, body);
        body = { ...body, [change.name]: change.value };
        const put = await api.put(created.url, body);
        expect(put.status(), `PUT ${r.name} with ${change.name} ${change.value}: ${await put.text()}`).toBe(204);
        keys = { ...keys, [change.name]: change.value };
        expect(await eventsOf(api, r.endpoint, 'keyChanges', marksOf(created.id, keys), window), `${r.endpoint}/keyChanges${window} items naming ${created.id}`).not.toEqual([]);
      });
      const res = await (read ?? api.get(created.url));
      expect(res.status()).toBe(200);
      // Its last change (the creation, or the key change) is answered: asked now, judged after the queries.
      const windowMisses = early(changeWindowMisses(r, api, created.id));
      await expectQueryable(r, api, data, created.id, (await res.json()) as Body, body, created.otherId);
      const bounded = `${r.endpoint} lists the record under MaxChangeVersion and leaves it out under MinChangeVersion, each one past the newest change version`;
      // A failed request is the check's failure; only an untold newest change version is not applicable.
      const newestTold = await windowMisses.then((misses) => misses !== undefined, () => true);
      if (!newestTold) checkNotApplicable(CHANGE_WINDOW, bounded, 'the deployment does not tell its newest change version (availableChangeVersions)');
      else await check(CHANGE_WINDOW, bounded, async () => expect(await windowMisses, `${r.endpoint}?id=${created.id} bounded by change version`).toEqual([]));
      await check(DELETES, `${r.endpoint}/deletes lists the deletion`, async () => {
        const deleted = await api.delete(created.url);
        expect(deleted.status(), `DELETE ${created.url}: ${await deleted.text()}`).toBe(204);
        expect(await eventsOf(api, r.endpoint, 'deletes', marksOf(created.id, keys), window), `${r.endpoint}/deletes${window} items naming ${created.id}`).not.toEqual([]);
      });
    });
  });
});
