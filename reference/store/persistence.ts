import { basename, dirname } from 'node:path';
import { checksummedLine } from './checksummed-lines.js';
import { journalHeaderLine, readJournalHeader, readJournalLine, recordsIn, type JournalEntry } from './journal-entries.js';
import { decodeState, describeLost, encodeState, StoreFileError, type Lost, type PersistedState } from './state-file.js';
import { nodeFiles, type StoreFiles } from './store-files.js';
import { UnknownResourceError, type DataStore } from './store.js';

/**
 * Durable data stores: the in-memory store stays authoritative; every acknowledged write is
 * first appended (synchronously, one line) to a journal, and from time to time the whole state
 * is compacted into the state file (temp file and rename) in the background. A request never
 * waits for a rewrite of the whole file, and a write acknowledged before the process is killed
 * is in the journal when it starts again.
 *
 * Files for a store `…/name.json`: the state file `name.json` (records, feeds, counters, and the
 * journal generation it includes; state-file.ts) and journals `name.json.journal.<generation>`.
 * Loading reads the state and replays every journal of its generation or later, so a crash at
 * any point of a compaction loses nothing. A compaction that fails (a full or read-only disk)
 * is reported and tried again later; the journals keep every write meanwhile.
 *
 * Every line of both files carries a checksum (checksummed-lines.ts), so damage is seen, never
 * loaded or skipped in silence: a torn last journal line (a kill mid-append, never acknowledged)
 * is cut off; a bad line anywhere else stops start-up with the file and line, unless recovery is
 * asked for, which drops the bad lines and reports the records lost.
 */
export type { JournalEntry } from './journal-entries.js';
export { StoreFileError, type PersistedState } from './state-file.js';

/** Records of a resource the served standard lacks: written by a deployment of another data standard. */
const otherStandard = (file: string, err: UnknownResourceError) => new StoreFileError(
  `data store ${file} holds ${err.resource} records, a resource the data standard served does not have: it was written by a deployment of another data standard; start with that dataStandard, or use another dataStore`,
);

/** Files another standard's deployment wrote, as their header says: refused before any record is read. */
const writtenUnder = (file: string, found: string, served: string) => new StoreFileError(
  `data store ${file} was written by a deployment serving Data Standard ${found}, and this one serves ${served}: start with dataStandard "${found}", or use another dataStore`,
);

export interface PersistenceOptions {
  /**
   * The data standard served: recorded in the state file's header and at the head of each
   * journal, and checked against theirs at start-up (a standard's records read under another
   * would be misread or lost). Unset: nothing is recorded or checked (unit tests).
   */
  standard?: string;
  /**
   * fsync every journal append before the write is acknowledged (survives an OS crash, costs a
   * disk flush per write), and the state file and its directory before a compaction removes the
   * journals it covers.
   */
  fsync?: boolean;
  /** Drop damaged records instead of refusing to start; what was lost is reported. */
  recover?: boolean;
  /** Where recovery and failed compactions are reported (one line each). */
  warn?: (message: string) => void;
  /** The file system (tests inject failures). */
  files?: StoreFiles;
  /** Journal entries between two background compactions. */
  compactEvery?: number;
}

const COMPACT_EVERY = 20_000;

export class Persistence {
  private generation = 0;
  private entries = 0;
  /** The compaction in progress, if any; it never rejects (its caller hears of a failure). */
  private compacting: Promise<void> | undefined;
  private readonly files: StoreFiles;
  private readonly fsync: boolean;
  private readonly warn: (message: string) => void;
  private readonly compactEvery: number;
  private readonly standard: string | undefined;
  /** Whether the current generation's journal has begun (with its header, when a standard is set). */
  private journalBegun = false;

  private constructor(private readonly file: string, options: PersistenceOptions) {
    this.files = options.files ?? nodeFiles;
    this.fsync = options.fsync ?? false;
    this.warn = options.warn ?? ((m) => console.warn(m));
    this.compactEvery = options.compactEvery ?? COMPACT_EVERY;
    this.standard = options.standard;
  }

  /**
   * Opens (or creates) the files of a store and replays them into the given empty store. Every
   * failure is a StoreFileError: one line naming the file, never a stack or stored data.
   */
  static open(file: string, store: DataStore, options: PersistenceOptions = {}): Persistence {
    const p = new Persistence(file, options);
    store.attach(p);
    try {
      const recovered = p.load(store, options.recover ?? false);
      // What recovery kept is written down at once, so the next start needs no recovery.
      if (recovered) p.compactInBackground();
    } catch (err) {
      throw err instanceof StoreFileError ? err : fileSystemError(file, err);
    }
    return p;
  }

  /** Loads state and journals; true when recovery changed what the files say. */
  private load(store: DataStore, recover: boolean): boolean {
    this.files.makeDirectory(dirname(this.file));
    const journals = this.journalGenerations();
    let recovered = false;
    if (this.files.exists(this.file)) {
      const { state, lost } = decodeState(this.file, this.files.readText(this.file), recover);
      if (state.standard && this.standard && state.standard !== this.standard) throw writtenUnder(this.file, state.standard, this.standard);
      try {
        store.restore(state);
      } catch (err) {
        if (err instanceof UnknownResourceError) throw otherStandard(this.file, err);
        // Lines of the right form whose records contradict each other, or an earlier version's
        // file of the wrong shape inside: the same one line, not a stack trace.
        throw new StoreFileError(`data store file ${this.file} cannot be loaded: its collections are not data store records; restore it from a backup or move it away`);
      }
      this.generation = state.generation;
      if (lost.size) {
        this.warn(`data store file ${this.file}: recovery dropped ${describeLost(lost)}`);
        recovered = true;
      }
    } else if (journals.length && journals[0] > 0) {
      // Journals of generation g > 0 exist only after a compaction wrote the state file: it is
      // gone, and with it every record compacted before them.
      if (!recover) throw new StoreFileError(`data store file ${this.file} is missing, but its journals from generation ${journals[0]} on are present: the records compacted into it would be lost; restore it from a backup, or start with --recover to start from the journals alone`);
      this.warn(`data store file ${this.file} is missing: recovery starts from the journals of generation ${journals[0]} on; the records compacted before them are lost (their number was in the missing file)`);
      recovered = true;
    }
    for (const g of journals.filter((x) => x >= this.generation)) {
      recovered = this.replayJournal(store, g, recover) || recovered;
      this.generation = Math.max(this.generation, g);
    }
    // A journal already begun (by this version or an earlier one) is appended to as it is.
    this.journalBegun = journals.includes(this.generation);
    return recovered;
  }

  /** Replays one journal into the store; true when recovery dropped lines of it. */
  private replayJournal(store: DataStore, generation: number, recover: boolean): boolean {
    const journal = this.journalFile(generation);
    const text = this.files.readText(journal);
    // A torn last line (killed mid-append) was never acknowledged: cut it off, so that the
    // next append starts a line of its own instead of joining (and losing) it.
    const whole = text.slice(0, text.lastIndexOf('\n') + 1);
    if (whole.length < text.length) this.files.truncate(journal, Buffer.byteLength(whole));
    const lines = whole.split('\n').slice(0, -1);
    const kept: string[] = [];
    const dropped: number[] = [];
    const lost: Lost = new Map();
    let exact = true;
    let offset = 0;
    for (const [i, line] of lines.entries()) {
      const header = readJournalHeader(line);
      if (header) {
        if (this.standard && header.standard !== this.standard) throw writtenUnder(journal, header.standard, this.standard);
        kept.push(line);
        offset += Buffer.byteLength(line) + 1;
        continue;
      }
      const entries = readJournalLine(line);
      if (entries) {
        try {
          for (const e of entries) store.replay(e);
        } catch (err) {
          if (err instanceof UnknownResourceError) throw otherStandard(journal, err);
          throw new StoreFileError(`data store journal ${journal} cannot be replayed at line ${i + 1} (byte ${offset}): its records contradict the state; restore the store from a backup`);
        }
        kept.push(line);
      } else if (recover) {
        dropped.push(i + 1);
        const records = recordsIn(line);
        for (const [r, n] of records.byResource) lost.set(r, (lost.get(r) ?? 0) + n);
        exact &&= records.exact;
      } else {
        throw new StoreFileError(`data store journal ${journal} is damaged at line ${i + 1} (byte ${offset}), or written in a form this version cannot read: start with --recover to drop the damaged records`);
      }
      offset += Buffer.byteLength(line) + 1;
    }
    if (!dropped.length) return false;
    // Rewritten without them, so that the next start is clean (temp file and rename: all or nothing).
    this.files.replaceSync(journal, kept.map((l) => `${l}\n`).join(''), this.fsync);
    this.warn(`data store journal ${journal}: recovery dropped ${describeLost(lost, exact)} in ${dropped.length} damaged line${dropped.length === 1 ? '' : 's'} (${dropped.join(', ')})`);
    return true;
  }

  /** Appends the entries of one operation, as one checksummed line, before the write is acknowledged. */
  append(entries: JournalEntry[]): void {
    // A journal's first write carries its header too: one append, so no journal is without it.
    const header = !this.journalBegun && this.standard ? journalHeaderLine(this.standard) : '';
    this.files.appendLine(this.journalFile(this.generation), header + checksummedLine(entries), this.fsync);
    this.journalBegun = true;
    this.entries += entries.length;
    if (this.entries >= this.compactEvery && !this.compacting) this.compactInBackground();
  }

  /**
   * Writes the whole state into the state file and then drops the journals it covers; new
   * writes go to the next journal generation meanwhile. Rejects when the state file cannot be
   * written: nothing is lost then, since no journal was removed.
   */
  compact(): Promise<void> {
    const state = this.stateOf?.();
    if (!state) return Promise.resolve();
    const covered = this.generation;
    this.generation = covered + 1;
    this.journalBegun = false;
    this.entries = 0;
    state.generation = this.generation;
    if (this.standard) state.standard = this.standard;
    // Serialised now, so that the file holds exactly this change version.
    const text = encodeState(state);
    const work = this.files.replace(this.file, text, this.fsync).then(() => {
      for (const g of this.journalGenerations()) if (g <= covered) this.files.remove(this.journalFile(g));
    });
    this.compacting = work.catch(() => undefined).finally(() => { this.compacting = undefined; });
    return work;
  }

  /** A compaction nobody waits for: a failure is reported, and the next one is tried after as many writes again. */
  private compactInBackground(): void {
    this.compact().catch((err: unknown) => {
      this.warn(`data store ${this.file}: compaction failed (${describeError(err)}); every write stays in the journals, and it is tried again after ${this.compactEvery} more writes`);
    });
  }

  /** Set by the store: its current state, serialisable. */
  stateOf?: () => PersistedState;

  /** Settles when no compaction is in progress (it never rejects). */
  async idle(): Promise<void> {
    await this.compacting;
  }

  /**
   * Clean shutdown: waits for a compaction in progress, then compacts once more. Never rejects:
   * a compaction that fails leaves every write in the journals, replayed at the next start.
   */
  async flush(): Promise<void> {
    await this.idle();
    try {
      await this.compact();
    } catch (err) {
      this.warn(`data store ${this.file}: compaction at shutdown failed (${describeError(err)}); every write stays in the journals and is replayed at the next start`);
    }
  }

  private journalFile(generation: number): string {
    return `${this.file}.journal.${generation}`;
  }

  private journalGenerations(): number[] {
    const prefix = `${basename(this.file)}.journal.`;
    return this.files.list(dirname(this.file)).filter((f) => f.startsWith(prefix)).map((f) => Number(f.slice(prefix.length))).filter(Number.isInteger).sort((a, b) => a - b);
  }
}

/** `EACCES on /srv/store.json.tmp`: the code and the path, not the stored data. */
function describeError(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  return e?.code ? `${e.code}${e.path ? ` on ${e.path}` : ''}` : String((e as Error)?.message ?? err).split('\n')[0];
}

/** A file-system failure at start-up (a path under a regular file, no permission …) as one line. */
function fileSystemError(file: string, err: unknown): StoreFileError {
  const code = (err as NodeJS.ErrnoException)?.code;
  const why: Record<string, string> = { ENOTDIR: 'a part of its path is a regular file, not a directory', EEXIST: 'a regular file is where its directory should be', EACCES: 'permission denied', EPERM: 'operation not permitted', EISDIR: 'a directory is where a file should be', EROFS: 'the file system is read-only', ENOSPC: 'the disk is full' };
  return new StoreFileError(`data store ${file} cannot be opened: ${(code && why[code]) ?? 'it cannot be read'} (${describeError(err)})`);
}
