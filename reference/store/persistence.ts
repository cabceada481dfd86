import { appendFileSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, truncateSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { Low } from 'lowdb';
import { DataFile, DataFileSync } from 'lowdb/node';
import { parseExact, stringifyExact } from '../http/exact-json.js';
import type { DataStore, DeleteEvent, KeyChangeEvent, StoredRecord } from './store.js';

/**
 * Durable data stores: the in-memory store stays authoritative; every acknowledged write is
 * first appended (synchronously, one line) to a journal, and from time to time the whole state
 * is compacted into a lowdb file (atomic temp-file-and-rename) in the background. A request
 * never waits for a rewrite of the whole file, and a write acknowledged before the process is
 * killed is in the journal when it starts again.
 *
 * Files for a store `…/name.json`: the lowdb state `name.json` (records, feeds, counters, and
 * the journal generation it includes) and journals `name.json.journal.<generation>`. Loading
 * reads the state and replays every journal of its generation or later, so a crash at any
 * point of a compaction loses nothing.
 */
export type JournalEntry =
  | { t: 'put'; r: string; rec: StoredRecord; v: number; d: number }
  | { t: 'del'; r: string; ev: DeleteEvent; v: number; d: number }
  | { t: 'kc'; r: string; ev: KeyChangeEvent; v: number; d: number }
  | { t: 'undel'; r: string; key: string; v: number; d: number };

interface PersistedState {
  generation: number;
  version: number;
  descriptorIds: number;
  collections: Record<string, { records: StoredRecord[]; deletes: DeleteEvent[]; keyChanges: KeyChangeEvent[] }>;
}

const COMPACT_EVERY = 20_000;
const codec = { parse: (s: string) => parseExact(s) as PersistedState, stringify: (d: PersistedState) => stringifyExact(d) };

export class Persistence {
  private generation = 0;
  private entries = 0;
  private compacting: Promise<void> | undefined;
  private readonly low: Low<PersistedState>;

  private constructor(private readonly file: string) {
    this.low = new Low<PersistedState>(new DataFile(file, codec), emptyState());
  }

  /** Opens (or creates) the files of a store and replays them into the given empty store. */
  static open(file: string, store: DataStore): Persistence {
    mkdirSync(dirname(file), { recursive: true });
    const p = new Persistence(file);
    const state = new DataFileSync<PersistedState>(file, codec).read();
    if (state) {
      store.restore(state);
      p.generation = state.generation;
    }
    for (const g of p.journalGenerations().filter((x) => x >= p.generation)) {
      const text = readFileSync(p.journalFile(g), 'utf8');
      // A torn last line (killed mid-append) was never acknowledged: cut it off, so that the
      // next append starts a line of its own instead of joining (and losing) it.
      if (text && !text.endsWith('\n')) truncateSync(p.journalFile(g), Buffer.byteLength(text.slice(0, text.lastIndexOf('\n') + 1)));
      for (const line of text.split('\n')) {
        if (!line.trim()) continue;
        let entry: JournalEntry | JournalEntry[];
        try { entry = parseExact(line) as JournalEntry | JournalEntry[]; } catch { continue; }
        for (const e of Array.isArray(entry) ? entry : [entry]) store.replay(e);
      }
      p.generation = Math.max(p.generation, g);
    }
    return p;
  }

  /** Appends the entries of one operation, as one line (one entry, or an array), before the write is acknowledged. */
  append(entries: JournalEntry[]): void {
    appendFileSync(this.journalFile(this.generation), `${stringifyExact(entries.length === 1 ? entries[0] : entries)}\n`);
    this.entries += entries.length;
    if (this.entries >= COMPACT_EVERY && !this.compacting) void this.compact();
  }

  /**
   * Writes the whole state into the lowdb file and drops the journals it covers. New writes go
   * to the next journal generation meanwhile.
   */
  compact(state?: PersistedState): Promise<void> {
    const snapshot = state ?? this.stateOf?.();
    if (!snapshot) return Promise.resolve();
    const covered = this.generation;
    this.generation = covered + 1;
    this.entries = 0;
    snapshot.generation = this.generation;
    this.low.data = snapshot;
    this.compacting = this.low.write().then(() => {
      for (const g of this.journalGenerations()) if (g <= covered) rmSync(this.journalFile(g), { force: true });
    }).finally(() => { this.compacting = undefined; });
    return this.compacting;
  }

  /** Set by the store: its current state, serialisable. */
  stateOf?: () => PersistedState;

  /** Waits for a compaction in progress (clean shutdown). */
  async flush(): Promise<void> {
    await this.compacting;
    await this.compact();
  }

  private journalFile(generation: number): string {
    return `${this.file}.journal.${generation}`;
  }

  private journalGenerations(): number[] {
    const dir = dirname(this.file);
    if (!existsSync(dir)) return [];
    const prefix = `${basename(this.file)}.journal.`;
    return readdirSync(dir).filter((f) => f.startsWith(prefix)).map((f) => Number(f.slice(prefix.length))).filter(Number.isInteger).sort((a, b) => a - b);
  }
}

function emptyState(): PersistedState {
  return { generation: 0, version: 0, descriptorIds: 0, collections: {} };
}

export type { PersistedState };
