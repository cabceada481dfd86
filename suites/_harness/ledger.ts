import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * What each run created on the deployment and has not deleted yet, kept on disk as it happens,
 * so that a killed run's records can be found and removed later (`npm run cleanup`,
 * tools/cleanup.ts) and never block the next run (issue #24 point 1). One file per process of a
 * run (`<run>.<pid>.jsonl`: workers append without sharing a file), one line per record created
 * (`{"c":url}`) or deleted (`{"d":url}`), appended synchronously before the test goes on; a
 * `<run>.run` file holds the pid of the run's main process while it runs, so that a cleanup never
 * deletes the records of a run still in progress (another shard, on the same machine).
 *
 * A record's URL is known only once the deployment answered its POST, and a run killed between
 * the deployment's commit and that answer (a round trip: ~40 ms at a distance, while eight
 * workers POST) would leak it. So a POST is announced before it is sent (`{"i":query}`, the
 * collection queried by the body's natural key, intents.ts) and settled as soon as it is answered
 * (`{"s":query,"c"?:url}`, one line); an intent never settled is looked up by its query at cleanup.
 */
export const LEDGER_DIR = resolve(fileURLToPath(new URL('../../', import.meta.url)), process.env.CONFORMANCE_LEDGER_DIR ?? join(process.env.CONFORMANCE_REPORTS_DIR ?? 'reports', 'ledger'));

const runOf = (file: string) => file.slice(0, file.indexOf('.'));

/**
 * The process's ledger files, kept open for appending: opening, appending and closing a file
 * for every line (with the directory made again) cost a worker about 3 % of its CPU. A line is
 * in the file once writeSync returns, as it was with appendFileSync, so a killed process loses
 * nothing written. A run's files are removed only once it ended (endRun, forgetEmptyEndedRuns,
 * a cleanup of a run no longer in progress), by forget: it closes this process's files of the
 * run, so a line after it goes to a new file. (Asking the file system before every line whether
 * the file was removed meanwhile was another 1 % of a worker's CPU.)
 */
const openFiles = new Map<string, number>();

function append(run: string, line: object): void {
  const file = join(LEDGER_DIR, `${run}.${process.pid}.jsonl`);
  let fd = openFiles.get(file);
  if (fd === undefined) {
    mkdirSync(LEDGER_DIR, { recursive: true });
    fd = openSync(file, 'a');
    openFiles.set(file, fd);
  }
  writeSync(fd, `${JSON.stringify(line)}\n`);
}

/** The run's ledger: records created and deleted by this process, and POSTs announced and answered. */
export interface Ledger {
  created(url: string): void;
  deleted(url: string): void;
  /** A POST about to be sent: the query that finds its record by natural key. */
  intended(query: string): void;
  /** The POST announced by `query` was answered; `created`, the record's URL if it made one. */
  settled(query: string, created?: string): void;
}

export function ledgerOf(run: string): Ledger {
  return {
    created: (url) => append(run, { c: url }),
    deleted: (url) => append(run, { d: url }),
    intended: (query) => append(run, { i: query }),
    settled: (query, created) => append(run, created ? { s: query, c: created } : { s: query }),
  };
}

/** Marks a run as in progress (its main process), until `endRun`. */
export function beginRun(run: string): void {
  mkdirSync(LEDGER_DIR, { recursive: true });
  writeFileSync(join(LEDGER_DIR, `${run}.run`), String(process.pid));
}

/**
 * Ends a run: its ledger files go when every record it created was deleted; otherwise they stay
 * for `npm run cleanup`. Returns the URLs left.
 */
export function endRun(run: string): string[] {
  const left = [...remaining().get(run) ?? [], ...unsettled().get(run) ?? []];
  if (!left.length) forget(run);
  else rmSync(join(LEDGER_DIR, `${run}.run`), { force: true });
  return left;
}

/** Removes a run's ledger files (all its records are gone). */
export function forget(run: string): void {
  for (const [file, fd] of openFiles) {
    if (runOf(basename(file)) !== run) continue;
    closeSync(fd);
    openFiles.delete(file);
  }
  if (!existsSync(LEDGER_DIR)) return;
  for (const f of readdirSync(LEDGER_DIR)) if (runOf(f) === run) rmSync(join(LEDGER_DIR, f), { force: true });
}

/** Forgets runs that ended (their main process is gone) having left nothing: a run killed before it made a record keeps only its `.run` file. */
export function forgetEmptyEndedRuns(): void {
  if (!existsSync(LEDGER_DIR)) return;
  const left = remaining();
  const open = unsettled();
  for (const f of readdirSync(LEDGER_DIR).filter((n) => n.endsWith('.run'))) {
    const run = runOf(f);
    if (!inProgress(run) && !left.get(run)?.length && !open.get(run)?.length) forget(run);
  }
}

/** The runs on this machine whose main process is still running. */
export function runsInProgress(): string[] {
  if (!existsSync(LEDGER_DIR)) return [];
  return readdirSync(LEDGER_DIR).filter((n) => n.endsWith('.run')).map(runOf).filter(inProgress);
}

/** Whether a run's main process is still running (its `.run` file names a live pid). */
export function inProgress(run: string): boolean {
  const file = join(LEDGER_DIR, `${run}.run`);
  if (!existsSync(file)) return false;
  const pid = Number(readFileSync(file, 'utf8'));
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

interface RunEntries { created: string[]; deleted: Set<string>; intended: string[]; settled: Map<string, number> }

/**
 * Every run's entries, each process's file in its order. A torn last line (a process killed
 * mid-append) is skipped: its record, if any, was never acknowledged to the test, and its POST's
 * intent was written before it was sent.
 */
function entries(): Map<string, RunEntries> {
  const runs = new Map<string, RunEntries>();
  if (!existsSync(LEDGER_DIR)) return runs;
  for (const f of readdirSync(LEDGER_DIR).filter((n) => n.endsWith('.jsonl')).sort()) {
    const run = runs.get(runOf(f)) ?? { created: [], deleted: new Set<string>(), intended: [], settled: new Map<string, number>() };
    runs.set(runOf(f), run);
    for (const line of readFileSync(join(LEDGER_DIR, f), 'utf8').split('\n')) {
      let entry: { c?: unknown; d?: unknown; i?: unknown; s?: unknown };
      try { entry = JSON.parse(line) as typeof entry; } catch { continue; }
      if (typeof entry.c === 'string') run.created.push(entry.c);
      if (typeof entry.d === 'string') run.deleted.add(entry.d);
      if (typeof entry.i === 'string') run.intended.push(entry.i);
      if (typeof entry.s === 'string') run.settled.set(entry.s, (run.settled.get(entry.s) ?? 0) + 1);
    }
  }
  return runs;
}

/** Records created and not deleted, by run, in the order they were created (each process keeps its own order; a test's records are made in one process). */
export function remaining(): Map<string, string[]> {
  return new Map([...entries()].map(([run, { created, deleted }]) => [run, [...new Set(created)].filter((u) => !deleted.has(u))]));
}

/**
 * POSTs announced and never answered, by run (as queries, once each): the deployment may have
 * made their records. The same query may be announced more than once (an upsert, a retry); each
 * answer settles one announcement.
 */
export function unsettled(): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [run, { intended, settled }] of entries()) {
    const answers = new Map(settled);
    const open = intended.filter((q) => {
      const n = answers.get(q) ?? 0;
      if (n > 0) answers.set(q, n - 1);
      return n === 0;
    });
    if (open.length) out.set(run, [...new Set(open)]);
  }
  return out;
}
