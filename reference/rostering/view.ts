import type { RosterType } from '../../spec/generate/openapi-rostering.js';
import type { CompiledModel } from '../../spec/model/compiled.js';
import type { DataStore } from '../store/store.js';
import { Mapping, type Row } from './mapping/index.js';
import type { Endpoint } from './endpoints.js';

/**
 * The OneRoster view of one data store at one change version: each type mapped once, when first
 * read, and indexed by sourcedId and by organization, and the rows a caller may see cached per (endpoint, claimed
 * organizations). A write through the data API bumps the store's change version, so the next
 * read maps afresh (decisions #25: no refresh delay) while reads in between cost no mapping.
 */
interface TypeIndex { byId: Map<string, Row>; byOrg: Map<string, Row[]> }

const CACHE_LIMIT = 500;

export class RosterView {
  private readonly types = new Map<RosterType, TypeIndex>();
  private readonly reaches = new Map<string, Reach>();
  private readonly visibleRows = new Map<string, Row[]>();

  private readonly mapping: Mapping;
  private readonly parents: Map<string, string[]>;
  private readonly children: Map<string, string[]>;

  constructor(readonly version: number, model: CompiledModel, store: DataStore) {
    this.mapping = new Mapping(model, store);
    this.parents = this.mapping.source.parents;
    this.children = this.mapping.source.children;
  }

  private index(type: RosterType): TypeIndex {
    let index = this.types.get(type);
    if (!index) {
      index = { byId: new Map(), byOrg: new Map() };
      for (const row of this.mapping.rows(type)) {
        index.byId.set(row.sourcedId, row);
        (index.byOrg.get(row.org) ?? index.byOrg.set(row.org, []).get(row.org)!).push(row);
      }
      this.types.set(type, index);
    }
    return index;
  }

  /** The rows of an endpoint the claimed organizations may see, in sourcedId order. */
  visible(endpoint: Endpoint, claimed: string[]): Row[] {
    const key = `${endpoint.name}|${claimed.join(',')}`;
    const hit = this.visibleRows.get(key);
    if (hit) return hit;
    const reach = this.reach(claimed);
    const index = this.index(endpoint.type);
    const rows: Row[] = [];
    for (const org of reach.all) {
      for (const row of index.byOrg.get(org) ?? []) {
        if ((reach.down.has(org) || row.reach === 'both') && endpoint.inSubset(row.data)) rows.push(row);
      }
    }
    rows.sort((a, b) => (a.sourcedId < b.sourcedId ? -1 : a.sourcedId > b.sourcedId ? 1 : 0));
    remember(this.visibleRows, key, rows);
    return rows;
  }

  /** One row by sourcedId, or undefined when absent, outside the subset or not visible. */
  find(endpoint: Endpoint, sourcedId: string, claimed: string[]): Row | undefined {
    const row = this.index(endpoint.type).byId.get(sourcedId);
    if (!row || !endpoint.inSubset(row.data)) return undefined;
    const reach = this.reach(claimed);
    return reach.down.has(row.org) || (row.reach === 'both' && reach.up.has(row.org)) ? row : undefined;
  }

  /**
   * Down(T): the claimed organizations and their descendants; Up(T): and their ancestors
   * (research §11). Unknown ids reach nothing.
   */
  private reach(claimed: string[]): Reach {
    const key = claimed.join(',');
    const hit = this.reaches.get(key);
    if (hit) return hit;
    const walk = (start: string[], next: Map<string, string[]>) => {
      const seen = new Set<string>();
      const stack = start.filter((id) => this.parents.has(id));
      while (stack.length) {
        const id = stack.pop()!;
        if (seen.has(id)) continue;
        seen.add(id);
        stack.push(...(next.get(id) ?? []));
      }
      return seen;
    };
    const down = walk(claimed, this.children);
    const up = walk(claimed, this.parents);
    const reach = { down, up, all: new Set([...down, ...up]) };
    remember(this.reaches, key, reach);
    return reach;
  }
}

interface Reach { down: Set<string>; up: Set<string>; all: Set<string> }

function remember<V>(cache: Map<string, V>, key: string, value: V): void {
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
  cache.set(key, value);
}

/** One view per data store, rebuilt when the store's change version moves. */
export class RosterViews {
  private readonly views = new WeakMap<DataStore, RosterView>();

  constructor(private readonly model: CompiledModel) {}

  of(store: DataStore): RosterView {
    const current = this.views.get(store);
    if (current && current.version === store.newestChangeVersion) return current;
    const view = new RosterView(store.newestChangeVersion, this.model, store);
    this.views.set(store, view);
    return view;
  }
}
