import type { HttpClient } from '../../_harness/http.js';
import { allValues, ownValues, readCollection, type Rec } from './read.js';
import { RESOURCES, reservedOrganizations, rosterUrl } from './service.js';
import type { OrgName, World } from './world.js';

/**
 * Whose data a record is, without assuming how the service maps records (the seed shows no
 * fields): a record is an organization's when it holds, as its own value, one the world wrote
 * for that organization alone (world.marks); a record that only refers to others (an enrollment)
 * is found through their sourcedIds, learnt from a reader that sees the whole world.
 *
 * A token naming some organizations may see their data, and (readings differ) their descendants'
 * (upstream) and ancestors' (upstream shows a district's courses to its schools). The data of every
 * other organization of the world is what it must not see (seed: "education organizations the
 * caller may access").
 */
const PARENT: Partial<Record<OrgName, OrgName>> = { lea1: 'sea', lea2: 'sea', schoolA: 'lea1', schoolB: 'lea1', schoolC: 'lea2' };
const ORGS = ['sea', 'lea1', 'lea2', 'schoolA', 'schoolB', 'schoolC', 'schoolD'] as const satisfies readonly OrgName[];

const ancestors = (o: OrgName): OrgName[] => (PARENT[o] ? [PARENT[o]!, ...ancestors(PARENT[o]!)] : []);

/** The world's organizations a token naming `claimed` may see data of, under any reading. */
export function related(claimed: OrgName[]): Set<OrgName> {
  return new Set(ORGS.filter((o) => claimed.some((c) => c === o || ancestors(o).includes(c) || ancestors(c).includes(o))));
}

/** Record identities (sourcedIds) by the organizations whose values the record holds. */
export type Attribution = Map<string, OrgName[]>;

/** What a reader of the whole world sees: every resource's records, and their attribution. */
export interface WorldView { records: Map<string, Rec[]>; attributed: Attribution }

/** The organizations whose marks a record holds as its own values. */
const ownersOf = (world: World, record: Rec): OrgName[] => {
  const own = new Set(ownValues(record));
  return ORGS.filter((o) => world.marks[o].some((m) => own.has(m)));
};

/**
 * What a reader of the whole world sees, attributed: each record with a sourcedId that holds
 * some organization's marks. Organizations themselves are left out of the attribution: records
 * of related organizations refer to them (a school names its district), so their ids prove nothing.
 */
export async function readWorld(request: HttpClient, world: World, reader: string): Promise<WorldView> {
  const view: WorldView = { records: new Map(), attributed: new Map() };
  for (const resource of RESOURCES) {
    const records = await readCollection(request, rosterUrl(resource), reader);
    view.records.set(resource, records);
    if (resource === 'orgs' || resource === 'schools') continue;
    for (const record of records) {
      const owners = ownersOf(world, record);
      if (owners.length && typeof record.sourcedId === 'string') view.attributed.set(record.sourcedId, owners);
    }
  }
  return view;
}

/** A record of the resource the reader sees that belongs to an organization a token naming `claimed` must not see. */
export function recordOutside(world: World, view: WorldView, claimed: OrgName[], resource: string): Rec | undefined {
  const allowed = related(claimed);
  return view.records.get(resource)?.find((r) => typeof r.sourcedId === 'string' && ownersOf(world, r).some((o) => !allowed.has(o)));
}

/** What a token naming `claimed` must not be shown: the marks and record ids of the other organizations. */
export function forbiddenFor(world: World, claimed: OrgName[], { attributed }: WorldView): { marks: Map<string, string>; ids: Map<string, string> } {
  const allowed = related(claimed);
  const marks = new Map<string, string>();
  for (const o of ORGS.filter((x) => !allowed.has(x))) for (const m of world.marks[o]) marks.set(m, o);
  // The paging district is the world's neighbour under no organization (its schools come and go).
  marks.set(String(reservedOrganizations().pagingLea), 'pagingLea');
  const ids = new Map<string, string>();
  for (const [id, owners] of attributed) {
    const other = owners.find((o) => !allowed.has(o));
    if (other) ids.set(id, other);
  }
  return { marks, ids };
}

/** How each record shows forbidden data: a mark it holds, or a forbidden record it names. */
export function leaks(records: Rec[], forbidden: ReturnType<typeof forbiddenFor>): string[] {
  const found: string[] = [];
  for (const r of records) {
    const who = typeof r.sourcedId === 'string' ? r.sourcedId : JSON.stringify(r).slice(0, 80);
    for (const v of ownValues(r)) if (forbidden.marks.has(v)) found.push(`${who} holds '${v}', written for ${forbidden.marks.get(v)}`);
    for (const v of allValues(r)) if (forbidden.ids.has(v) && v !== r.sourcedId) found.push(`${who} names ${v}, a record of ${forbidden.ids.get(v)}`);
    if (typeof r.sourcedId === 'string' && forbidden.ids.has(r.sourcedId)) found.push(`${who} is a record of ${forbidden.ids.get(r.sourcedId)}`);
  }
  return found;
}
