import type { HttpClient } from '../../_harness/http.js';
import { intentOf } from '../../_harness/intents.js';
import { model } from '../../_harness/judged-model.js';
import { target } from '../../_harness/target.js';
import type { RosteringOrganizations } from '../../targets/types.js';
import { reachableFlows } from './flows.js';
import { DryWriter, Writer, buildDistrict, buildWorld } from './world.js';

/**
 * Rostering data an earlier run wrote and never deleted, found without its ledger (issue #24
 * point 1). A run killed where its ledger is lost with it (an ephemeral CI runner; shard 1 of a
 * shared run, which alone writes the data) leaves the world on the deployment, holding the
 * target's reserved organization ids: every later run finds them held and ends incomplete.
 *
 * The run's data is computed again, not searched for: every writer of the rostering data is
 * seeded (setup.ts), and the seed is in every name it writes (`State Agency w<seed>wx1`,
 * `Routing School r<seed>cx3`). So a name holding a reserved id gives the seed, a DryWriter with
 * that seed computes each record that run wrote, and each is found by its natural key. A record
 * is deleted only when it is the one the run wrote (written(): the seed in a key value, or in its
 * name as written): the suites never delete what they did not write. The school year is left
 * alone: the deployment may have had it before.
 */

/** The writers' seed labels: one each, so their keys never meet (setup.ts writes with these). */
export const SEED_LABEL = { world: 'w', context: 'c', tenant: 't', tenantContext: 'b' } as const;
type Label = keyof typeof SEED_LABEL;

/**
 * Whether an organization's name is one the suites write: a world's or a flow's district
 * (seedOfName), a worker's district (PAGING_DISTRICT), or an older harness's `<kind> r<run>`.
 */
export function writtenBySuites(name: string): boolean {
  return /(?:^|\s)[wr][0-9a-z]{6}(?:(?:[wctbs]|\d+)x\d+)?$/.test(name);
}

/** The run seed in a name the rostering data was written with, if it is one. */
export function seedOfName(name: string): string | undefined {
  return /(?:^|\s)[wr]([0-9a-z]{6})[wctb]x\d+$/.exec(name)?.[1];
}

/** What one writer of an earlier run wrote on one data API, in the order it wrote it. */
export interface EarlierData {
  dataApi: string;
  /** The writer's seed: in every record it wrote. */
  writerSeed: string;
  records: { resource: string; body: Record<string, unknown> }[];
}

/** The rostering data a run with `seed` wrote: the world on the target's data API, a district on each other flow's own. */
export async function dataOfRun(seed: string, ids: RosteringOrganizations): Promise<EarlierData[]> {
  const computed = async (dataApi: string, label: Label, build: (w: DryWriter) => Promise<unknown>): Promise<EarlierData> => {
    const w = new DryWriter(dataApi, `${seed}${SEED_LABEL[label]}`);
    await build(w);
    return { dataApi, writerSeed: `${seed}${SEED_LABEL[label]}`, records: w.computed };
  };
  const own = target.dataApi.baseUrl.replace(/\/$/, '');
  const flows = (['context', 'tenant', 'tenantContext'] as const)
    .map((name) => [name, reachableFlows()[name]?.dataApi.replace(/\/$/, '')] as const)
    .filter((f): f is readonly [Exclude<Label, 'world'>, string] => !!f[1] && f[1] !== own);
  return Promise.all([
    computed(own, 'world', (w) => buildWorld(w, ids)),
    ...flows.map(([name, dataApi]) => computed(dataApi, name, (w) => buildDistrict(w, { lea: ids.lea1, school: ids.schoolA }))),
  ]);
}

/**
 * Whether `found`, under the natural key `query` of a record the writer wrote as `body`, is that
 * record: a key value carries the writer's seed (a person, a descriptor of its namespace, an
 * association of them), or the key is the deployment's kind of value (an organization's id) and
 * every member the writer named with its seed (the organization's name) is there as written.
 * Carrying the seed anywhere is not enough: a record of the deployment's own may reference the
 * run's descriptors.
 */
function written(query: string, body: Record<string, unknown>, found: Record<string, unknown>, seed: string): boolean {
  if ([...new URL(query).searchParams.values()].some((v) => v.includes(seed))) return true;
  const named = Object.entries(body).filter(([, v]) => typeof v === 'string' && v.includes(seed));
  return named.length > 0 && named.every(([k, v]) => found[k] === v);
}

/** What a removal of an earlier run's data did. */
export interface EarlierRemoval { removed: number; absent: number; failed: string[] }

/**
 * Finds each record of `data` by its natural key and deletes it, newest first; what a pass could
 * not delete (still referenced: 409) goes again in the next, while a pass removes something. A
 * record found under the key but not carrying the writer's seed is someone else's and stays.
 */
export async function removeEarlierData(request: HttpClient, data: EarlierData, token: string): Promise<EarlierRemoval> {
  const w = new Writer(request, token, data.dataApi);
  const out: EarlierRemoval = { removed: 0, absent: 0, failed: [] };
  let pending: string[] = [];
  for (const { resource, body } of [...data.records].reverse()) {
    const query = intentOf(w.client.url(resource), body, { creating: true, marker: '' });
    if (!query) { out.failed.push(`${resource}: no natural-key query for its body`); continue; }
    const res = await w.client.get(query);
    const items = res.status() === 200 ? ((await res.json()) as { id?: string; [member: string]: unknown }[]) : undefined;
    if (!items) { out.failed.push(`${query} → ${res.status()}`); continue; }
    const ours = items.filter((item) => typeof item.id === 'string' && written(query, body, item, data.writerSeed));
    if (!ours.length) out.absent++;
    pending.push(...ours.map((item) => `${w.client.url(resource)}/${item.id!}`));
  }
  while (pending.length) {
    const refused: string[] = [];
    for (const url of pending) {
      const status = (await w.client.delete(url)).status();
      if (status === 204) out.removed++;
      else if (status === 404) out.absent++;
      else refused.push(`${url} → ${status}`);
    }
    if (refused.length === pending.length) { out.failed.push(...refused); break; }
    pending = refused.map((r) => r.slice(0, r.lastIndexOf(' → ')));
  }
  return out;
}

/** What holds a reserved id: its kind and name; `seed` when a run of the suites wrote it, and when it was last written (`_lastModifiedDate`) where the deployment says. */
export interface Holder { kind: string; name: string; seed?: string; lastModified?: string }

/** The holder of each of `ids` the deployment already has (see reservedIdsInUse). */
export async function holdersOf(w: Writer, ids: Partial<RosteringOrganizations>): Promise<Partial<Record<keyof RosteringOrganizations, Holder>>> {
  const first = ['stateEducationAgency', 'localEducationAgency', 'school'];
  const kinds = model.resources.filter((r) => r.educationOrganization).sort((a, b) => rank(first, a.name) - rank(first, b.name));
  const held: Partial<Record<keyof RosteringOrganizations, Holder>> = {};
  await Promise.all((Object.entries(ids) as [keyof RosteringOrganizations, number][]).map(async ([field, id]) => {
    const holders = await Promise.all(kinds.map(async (kind) => {
      const res = await w.client.get(`${kind.endpoint}?${kind.educationOrganization!.idField}=${id}`);
      return res.status() === 200 ? ((await res.json()) as { nameOfInstitution?: string; _lastModifiedDate?: string }[])[0] : undefined;
    }));
    const at = holders.findIndex((h) => h);
    if (at < 0) return;
    const { nameOfInstitution: name = '', _lastModifiedDate: lastModified } = holders[at]!;
    const seed = seedOfName(name);
    held[field] = { kind: kinds[at].name, name, ...(seed ? { seed } : {}), ...(typeof lastModified === 'string' ? { lastModified } : {}) };
  }));
  return held;
}

/** The position of `name` in `order`, names not in it after every one that is. */
const rank = (order: string[], name: string) => (order.includes(name) ? order.indexOf(name) : order.length);

/**
 * How old rostering data that holds the reserved ids, and that no ledger here names, must be
 * before a run's start removes it by itself (`npm run cleanup` removes it at any age): a run on
 * another machine reads its data for minutes, and a run that old is over.
 */
export const STALE_ROSTERING_MS = 60 * 60 * 1000;

/** The reserved ids the world is written with (setup.ts WORLD_FIELDS; the paging district's, a worker's, is removePagingDistrict's). */
const WORLD_IDS = ['sea', 'lea1', 'lea2', 'schoolA', 'schoolB', 'schoolC', 'schoolD'] as const;

/** What removeEarlierRostering did. */
export interface EarlierRunsRemoval extends EarlierRemoval {
  /** Seeds of the earlier runs whose data was looked for. */
  seeds: string[];
  /** Seeds left alone: their run is still in progress on this machine, or is the current one. */
  inProgress: string[];
  /** Seeds left alone under `staleAfterMs`: written more recently, or at a time the deployment does not say. */
  recent: string[];
}

/**
 * Removes the rostering data of earlier runs that holds the target's reserved organization ids
 * (on the target's data API, and the district ids on each other flow's data API), found by the
 * seed in the holders' names. A run whose seed is `current`'s, or one still running on this
 * machine (`runsInProgress`: its ledger's run ids), is left alone; with `staleAfterMs` (a run's
 * own start-up, which cannot know of runs on other machines), so is a run whose data was written
 * less than that long ago by the deployment's `_lastModifiedDate`, or whose time it does not
 * give. Undefined when the target declares no reserved ids.
 */
export async function removeEarlierRostering(request: HttpClient, tokenFor: (dataApi: string) => Promise<string>, o: { runsInProgress: string[]; current?: string; staleAfterMs?: number; now?: number }): Promise<EarlierRunsRemoval | undefined> {
  const ids = target.rostering?.organizations;
  if (!ids) return undefined;
  const own = target.dataApi.baseUrl.replace(/\/$/, '');
  const apis = [...new Set([own, ...Object.values(reachableFlows()).map((f) => f?.dataApi.replace(/\/$/, '')).filter((u): u is string => !!u)])];
  const found = await Promise.all(apis.map(async (dataApi) => {
    const fields = dataApi === own ? WORLD_IDS : (['lea1', 'schoolA'] as const);
    const held = await holdersOf(new Writer(request, await tokenFor(dataApi), dataApi), Object.fromEntries(fields.map((f) => [f, ids[f]])));
    return Object.values(held).filter((h): h is Holder & { seed: string } => !!h?.seed);
  }));
  const holders = found.flat();
  const running = (seed: string) => seed === o.current || o.runsInProgress.some((run) => run.replace(/s\d+$/, '').endsWith(seed));
  const now = o.now ?? Date.now();
  const old = (h: Holder) => o.staleAfterMs === undefined || now - Date.parse(h.lastModified ?? '') > o.staleAfterMs;
  const stale = (seed: string) => holders.filter((h) => h.seed === seed).every(old);
  const seeds = [...new Set(holders.map((h) => h.seed))];
  const out: EarlierRunsRemoval = {
    seeds: seeds.filter((s) => !running(s) && stale(s)), inProgress: seeds.filter(running), recent: seeds.filter((s) => !running(s) && !stale(s)),
    removed: 0, absent: 0, failed: [],
  };
  const add = (r: EarlierRemoval) => {
    out.removed += r.removed;
    out.absent += r.absent;
    out.failed.push(...r.failed);
  };
  for (const seed of out.seeds) for (const data of await dataOfRun(seed, ids)) add(await removeEarlierData(request, data, await tokenFor(data.dataApi)));
  // The paging district (query.spec.ts) is a worker's, and its schools' ids were drawn: found by what names its district.
  const ownWriter = new Writer(request, await tokenFor(own), own);
  const paging = ids.pagingLea === undefined ? undefined : (await holdersOf(ownWriter, { pagingLea: ids.pagingLea })).pagingLea;
  const run = paging && PAGING_DISTRICT.exec(paging.name)?.[1];
  if (paging && run) {
    if (running(run)) out.inProgress.push(run);
    else if (!old(paging)) out.recent.push(run);
    else {
      out.seeds.push(run);
      add(await removePagingDistrict(ownWriter, ids.pagingLea!, run));
    }
  }
  return out;
}

/** The name of a worker's district (an unseeded writer: `r<run><worker>x<n>`), with the run's six characters. */
const PAGING_DISTRICT = /^Routing District r([0-9a-z]{6})(?:\d+|s)x\d+$/;

/**
 * Removes the paging district a run left on `lea`: the schools under it that the run made
 * (`Paging School <id>`, or the district's own `Routing School r<run>…`), 25 at a time, then
 * the district, then the district's descriptors in the run's own namespace
 * (`<namespacePrefix>/rostering/n<run>…`). A school of anyone else under it stays, and so then
 * does the district (its DELETE is refused); a removal run again finishes the work.
 */
async function removePagingDistrict(w: Writer, lea: number, run: string): Promise<EarlierRemoval> {
  const out: EarlierRemoval = { removed: 0, absent: 0, failed: [] };
  const schools: Record<string, unknown>[] = [];
  const page = target.dataApi.pageSizeMaximum ?? 500;
  for (let offset = 0; ; offset += page) {
    const res = await w.client.get(`schools?localEducationAgencyId=${lea}&limit=${page}&offset=${offset}`);
    if (res.status() !== 200) { out.failed.push(`schools under ${lea} → ${res.status()}`); return out; }
    const found = (await res.json()) as Record<string, unknown>[];
    schools.push(...found);
    if (found.length < page) break;
  }
  const ownSchool = new RegExp(`^Routing School r${run}(?:\\d+|s)x\\d+$`);
  const ours = schools.filter((s) => s.nameOfInstitution === `Paging School ${String(s.schoolId)}` || ownSchool.test(String(s.nameOfInstitution)));
  const [district] = (await (await w.client.get(`localEducationAgencies?localEducationAgencyId=${lea}`)).json()) as Record<string, unknown>[];
  const namespace = `${target.testData.namespacePrefix}/rostering/n${run}`;
  const descriptors = new Set<string>();
  const collect = (v: unknown): void => {
    if (typeof v === 'string' && v.startsWith(namespace) && v.includes('#')) descriptors.add(v);
    else if (v && typeof v === 'object') for (const x of Object.values(v)) collect(x);
  };
  collect([...ours, district]);
  // Those only a removed school named (an earlier removal that stopped half-way) are the district's
  // own in the same namespace: buildDistrict's descriptors, as a DryWriter computes them.
  const dry = new DryWriter(target.dataApi.baseUrl, 'x');
  await buildDistrict(dry);
  const bases = new Set([...descriptors].map((v) => v.slice(0, v.lastIndexOf('/'))));
  for (const { resource, body } of dry.computed) {
    if (!resource.endsWith('Descriptors')) continue;
    const ns = String(body.namespace);
    for (const base of bases) descriptors.add(`${base}${ns.slice(ns.lastIndexOf('/'))}#${String(body.codeValue)}`);
  }
  const remove = async (url: string) => {
    const status = (await w.client.delete(url)).status();
    if (status === 204) out.removed++;
    else if (status === 404) out.absent++;
    else out.failed.push(`${url} → ${status}`);
  };
  for (let i = 0; i < ours.length; i += 25) await Promise.all(ours.slice(i, i + 25).map((s) => remove(`schools/${String(s.id)}`)));
  if (district) await remove(`localEducationAgencies/${String(district.id)}`);
  await Promise.all([...descriptors].map(async (value) => {
    const [ns, code] = [value.slice(0, value.lastIndexOf('#')), value.slice(value.lastIndexOf('#') + 1)];
    const type = ns.slice(ns.lastIndexOf('/') + 1);
    const resource = `${type.charAt(0).toLowerCase()}${type.slice(1)}s`;
    const res = await w.client.get(`${resource}?namespace=${encodeURIComponent(ns)}&codeValue=${encodeURIComponent(code)}`);
    const [found] = res.status() === 200 ? ((await res.json()) as { id: string }[]) : [];
    if (found) await remove(`${resource}/${found.id}`);
  }));
  return out;
}
