import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * What each run created on the deployment and has not deleted yet, kept on disk as it happens,
 * so that a killed run's records can be found and removed later (`npm run cleanup`,
 * tools/cleanup.ts) and never block the next run (issue #24 point 1). One file per process of a
 * run (`<run>.<pid>.jsonl`: workers append without sharing a file), one line per record created
 * (`{"c":url}`) or deleted (`{"d":url}`), appended synchronously before the test goes on; a
 * `<run>.run` file holds the pid of the run's main process while it runs, so that a cleanup never
 * deletes the records of a run still in progress (another shard, on the same machine).
 */
export const LEDGER_DIR = resolve(fileURLToPath(new URL('../../', import.meta.url)), process.env.CONFORMANCE_LEDGER_DIR ?? join(process.env.CONFORMANCE_REPORTS_DIR ?? 'reports', 'ledger'));

const runOf = (file: string) => file.slice(0, file.indexOf('.'));

function append(run: string, line: object): void {
  mkdirSync(LEDGER_DIR, { recursive: true });
  appendFileSync(join(LEDGER_DIR, `${run}.${process.pid}.jsonl`), `${JSON.stringify(line)}\n`);
}

/** The run's ledger: records created and deleted by this process. */
export function ledgerOf(run: string): { created(url: string): void; deleted(url: string): void } {
  return {
    created: (url) => append(run, { c: url }),
    deleted: (url) => append(run, { d: url }),
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
  const left = remaining().get(run) ?? [];
  if (!left.length) forget(run);
  else rmSync(join(LEDGER_DIR, `${run}.run`), { force: true });
  return left;
}

/** Removes a run's ledger files (all its records are gone). */
export function forget(run: string): void {
  if (!existsSync(LEDGER_DIR)) return;
  for (const f of readdirSync(LEDGER_DIR)) if (runOf(f) === run) rmSync(join(LEDGER_DIR, f), { force: true });
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

/**
 * Records created and not deleted, by run, in the order they were created (each process keeps
 * its own order; a test's records are made in one process). A torn last line (a process killed
 * mid-append) is skipped: its record, if any, was never acknowledged to the test.
 */
export function remaining(): Map<string, string[]> {
  const runs = new Map<string, { created: string[]; deleted: Set<string> }>();
  if (!existsSync(LEDGER_DIR)) return new Map();
  for (const f of readdirSync(LEDGER_DIR).filter((n) => n.endsWith('.jsonl')).sort()) {
    const run = runs.get(runOf(f)) ?? { created: [], deleted: new Set<string>() };
    runs.set(runOf(f), run);
    for (const line of readFileSync(join(LEDGER_DIR, f), 'utf8').split('\n')) {
      let entry: { c?: unknown; d?: unknown };
      try { entry = JSON.parse(line) as typeof entry; } catch { continue; }
      if (typeof entry.c === 'string') run.created.push(entry.c);
      if (typeof entry.d === 'string') run.deleted.add(entry.d);
    }
  }
  return new Map([...runs].map(([run, { created, deleted }]) => [run, [...new Set(created)].filter((u) => !deleted.has(u))]));
}
