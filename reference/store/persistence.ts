import { createHash } from 'node:crypto';
import { closeSync, existsSync, fstatSync, fsyncSync, ftruncateSync, mkdirSync, openSync, readFileSync, readdirSync, renameSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
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
 *
 * Each journal line is `{"c":"<checksum>","e":[entries]}`, the checksum taken over the text of
 * the entries, so damage is seen, never replayed or skipped in silence: a torn last line (a kill
 * mid-append, never acknowledged) is cut off; a bad line anywhere else stops start-up with the
 * file and line, unless recovery is asked for, which drops the bad lines and says how many.
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

/** A data store file that cannot be loaded: one line naming the file and where, never its content. */
export class StoreFileError extends Error {}

export interface PersistenceOptions {
  /** fsync every journal append before the write is acknowledged (survives an OS crash, costs a disk flush per write). */
  fsync?: boolean;
  /** Drop damaged journal lines instead of refusing to start; their count is reported. */
  recover?: boolean;
  /** Where recovery reports what it dropped. */
  warn?: (message: string) => void;
}

const COMPACT_EVERY = 20_000;
const checksum = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 16);
const journalLine = (entries: JournalEntry[]) => { const text = stringifyExact(entries); return `{"c":"${checksum(text)}","e":${text}}\n`; };
const LINE = /^\{"c":"([0-9a-f]{16})","e":(\[.*\])\}$/s;

/** The entries of a journal line, or undefined when it is damaged (checksum, form). */
function readJournalLine(line: string): JournalEntry[] | undefined {
  const m = LINE.exec(line);
  if (!m) return legacyJournalLine(line);
  if (checksum(m[2]) !== m[1]) return undefined;
  try { return parseExact(m[2]) as JournalEntry[]; } catch { return undefined; }
}

/**
 * A line written before lines carried a checksum (an entry, or an array of them), read so that
 * a store left by an earlier version still opens; only its form can be checked.
 */
function legacyJournalLine(line: string): JournalEntry[] | undefined {
  let v: unknown;
  try { v = parseExact(line); } catch { return undefined; }
  const entries = (Array.isArray(v) ? v : [v]) as Partial<JournalEntry>[];
  const isEntry = (e: Partial<JournalEntry>) => !!e && typeof e === 'object' && ['put', 'del', 'kc', 'undel'].includes(e.t as string) && typeof e.r === 'string' && typeof e.v === 'number';
  return entries.length && entries.every(isEntry) ? entries as JournalEntry[] : undefined;
}
const codec = { parse: (s: string) => parseExact(s) as PersistedState, stringify: (d: PersistedState) => stringifyExact(d) };

export class Persistence {
  private generation = 0;
  private entries = 0;
  private compacting: Promise<void> | undefined;
  private readonly low: Low<PersistedState>;

  private constructor(private readonly file: string, private readonly fsync: boolean) {
    this.low = new Low<PersistedState>(new DataFile(file, codec), emptyState());
  }

  /** Opens (or creates) the files of a store and replays them into the given empty store. */
  static open(file: string, store: DataStore, options: PersistenceOptions = {}): Persistence {
    mkdirSync(dirname(file), { recursive: true });
    const p = new Persistence(file, options.fsync ?? false);
    const state = readState(file);
    if (state) {
      try {
        store.restore(state);
      } catch {
        // Valid JSON of the wrong shape inside: the same one line, not a stack trace.
        throw new StoreFileError(`data store file ${file} cannot be loaded: its collections are not data store records; restore it from a backup or move it away`);
      }
      p.generation = state.generation;
    }
    for (const g of p.journalGenerations().filter((x) => x >= p.generation)) {
      const journal = p.journalFile(g);
      const text = readFileSync(journal, 'utf8');
      // A torn last line (killed mid-append) was never acknowledged: cut it off, so that the
      // next append starts a line of its own instead of joining (and losing) it.
      const whole = text.slice(0, text.lastIndexOf('\n') + 1);
      if (whole.length < text.length) truncateSync(journal, Buffer.byteLength(whole));
      const lines = whole.split('\n').slice(0, -1);
      const kept: string[] = [];
      const dropped: number[] = [];
      let offset = 0;
      for (const [i, line] of lines.entries()) {
        const entries = readJournalLine(line);
        if (entries) {
          for (const e of entries) store.replay(e);
          kept.push(line);
        } else if (options.recover) {
          dropped.push(i + 1);
        } else {
          throw new StoreFileError(`data store journal ${journal} is damaged at line ${i + 1} (byte ${offset}): start with --recover to drop damaged records`);
        }
        offset += Buffer.byteLength(line) + 1;
      }
      if (dropped.length) {
        // Rewritten without them, so that the next start is clean (temp file and rename: all or nothing).
        writeFileSync(`${journal}.tmp`, kept.map((l) => `${l}\n`).join(''));
        renameSync(`${journal}.tmp`, journal);
        (options.warn ?? console.warn)(`data store journal ${journal}: recovery dropped ${dropped.length} damaged record${dropped.length === 1 ? '' : 's'} (line${dropped.length === 1 ? '' : 's'} ${dropped.join(', ')})`);
      }
      p.generation = Math.max(p.generation, g);
    }
    return p;
  }

  /** Appends the entries of one operation, as one checksummed line, before the write is acknowledged. */
  append(entries: JournalEntry[]): void {
    const fd = openSync(this.journalFile(this.generation), 'a');
    const size = fstatSync(fd).size;
    try {
      writeFileSync(fd, journalLine(entries));
      if (this.fsync) fsyncSync(fd);
    } catch (err) {
      // The write is refused (and taken back in memory): a part of its line left behind would
      // join the next line and damage it, so cut it off if the file lets us.
      try { ftruncateSync(fd, size); } catch { /* the error below is the one that matters */ }
      throw err;
    } finally {
      closeSync(fd);
    }
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

/** The compacted state, if there is one; a file that cannot be read as one stops start-up with one line. */
function readState(file: string): PersistedState | undefined {
  let state: PersistedState | null;
  try {
    state = new DataFileSync<PersistedState>(file, codec).read();
  } catch (err) {
    // The parser's message quotes the file's content: say only what and where.
    const why = err instanceof SyntaxError ? (readFileSync(file, 'utf8').trim() ? 'it is not valid JSON (damaged or truncated)' : 'it is empty') : `it cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'})`;
    throw new StoreFileError(`data store file ${file} cannot be loaded: ${why}; restore it from a backup or move it away`);
  }
  if (state === null) return undefined;
  const s = state as Partial<PersistedState> | null;
  if (!s || typeof s !== 'object' || typeof s.generation !== 'number' || typeof s.version !== 'number' || typeof s.collections !== 'object' || s.collections === null) {
    throw new StoreFileError(`data store file ${file} cannot be loaded: it is not a data store state (generation, version, collections); restore it from a backup or move it away`);
  }
  return state;
}

function emptyState(): PersistedState {
  return { generation: 0, version: 0, descriptorIds: 0, collections: {} };
}

export type { PersistedState };
