import { readFileSync, writeFileSync } from 'node:fs';

/**
 * One module of a group judged on its own (`npm run mutation -- --suites <group> --file <path>`)
 * folded back into the group's incremental file.
 *
 * Stryker writes its incremental file from the run's report, which holds only the modules that
 * run mutated: a run narrowed to one module would otherwise drop every other module's results,
 * and a whole group (the validation group: ~580 mutants, ~4.5 h judged by the suites here) could
 * only ever be measured in one sitting. So the group's file is kept from before the run, and the
 * narrowed run's module replaces its own entry in it.
 *
 * A report names its tests by number (Stryker remaps test ids to "0", "1", … per report), so the
 * narrowed run's `killedBy` and `coveredBy` are translated through the test names into the group
 * file's numbering; a test the group file does not know yet is added under a fresh number. The
 * test files themselves are taken from the narrowed run: they are today's, and a module whose
 * results were judged by other versions of them is re-tested by Stryker's own diff next time.
 */
interface TestDefinition { id: string; name: string }
interface TestFile { tests: TestDefinition[]; source?: string }
interface Position { line: number; column: number }
export interface Mutant { id: string; status?: string; statusReason?: string; mutatorName?: string; replacement?: string; killedBy?: string[]; coveredBy?: string[]; location?: { start: Position; end?: Position } }
export interface IncrementalReport {
  files: Record<string, { mutants: Mutant[]; source?: string }>;
  testFiles?: Record<string, TestFile>;
  [other: string]: unknown;
}

const namesById = (report: IncrementalReport) => {
  const names = new Map<string, string>();
  for (const file of Object.values(report.testFiles ?? {})) for (const t of file.tests) names.set(t.id, t.name);
  return names;
};

/**
 * Whether `a` (of a report whose lines `at` maps onto b's; unchanged by default) and `b` are one
 * mutant: the same place, mutator and replacement.
 */
export function sameMutant(a: Mutant, b: Mutant, at: (line: number) => number | undefined = (line) => line): boolean {
  return a.mutatorName === b.mutatorName && a.replacement === b.replacement
    && a.location !== undefined && at(a.location.start.line) === b.location?.start.line && a.location.start.column === b.location?.start.column;
}

/**
 * Some mutants of a module can only be judged against results recorded for the module's code as
 * it is: a ranged run of a changed module is refused (run.ts asks before starting Stryker, so
 * the refusal costs a second, not the run).
 */
export function assertRangeable(group: IncrementalReport | undefined, module: string, source: string | undefined): void {
  const before = group?.files[module];
  if (before && before.source !== source) throw new Error(`${module} changed since its results were recorded: judge the whole module, not some of its mutants`);
}

/**
 * `group` with `modules` replaced by their entries in `narrowed` (which also brings today's test
 * files). `ranged`: the narrowed run judged only some mutants of each module (`--mutants`), so
 * those replace their namesakes (same place, mutator and replacement) and the rest are kept; both
 * runs must then have read the same source.
 */
export function mergeModules(group: IncrementalReport | undefined, narrowed: IncrementalReport, modules: string[], ranged = false): IncrementalReport {
  if (!group) return narrowed;
  for (const m of modules) if (!narrowed.files[m]) throw new Error(`the narrowed run's report has no results for ${m}`);
  const idByName = new Map([...namesById(group)].map(([id, name]) => [name, id]));
  let next = Math.max(-1, ...[...idByName.values()].map(Number).filter(Number.isInteger)) + 1;
  const groupId = (name: string) => {
    if (!idByName.has(name)) idByName.set(name, String(next++));
    return idByName.get(name)!;
  };
  const narrowedNames = namesById(narrowed);
  const translate = (ids?: string[]) => ids?.map((id) => {
    const name = narrowedNames.get(id);
    if (name === undefined) throw new Error(`the narrowed run's report names test ${id}, which none of its test files defines`);
    return groupId(name);
  });
  const files = { ...group.files };
  for (const m of modules) {
    const judged = narrowed.files[m].mutants.map((x) => ({ ...x, killedBy: translate(x.killedBy), coveredBy: translate(x.coveredBy) }));
    const before = group.files[m];
    if (!ranged || !before) {
      files[m] = { ...narrowed.files[m], mutants: judged };
      continue;
    }
    assertRangeable(group, m, narrowed.files[m].source);
    // Fresh ids past the group's, so no two mutants of the file share one.
    let id = Math.max(0, ...Object.values(group.files).flatMap((f) => f.mutants.map((x) => Number(x.id))).filter(Number.isInteger)) + 1;
    const fresh = judged.map((x) => ({ ...x, id: String(id++) }));
    files[m] = { ...before, mutants: [...before.mutants.filter((x) => !fresh.some((j) => sameMutant(x, j))), ...fresh] };
  }
  const testFiles: Record<string, TestFile> = {};
  for (const [path, file] of Object.entries({ ...group.testFiles, ...narrowed.testFiles })) {
    const fromNarrowed = narrowed.testFiles?.[path] !== undefined;
    testFiles[path] = { ...file, tests: file.tests.map((t) => ({ ...t, id: fromNarrowed ? groupId(t.name) : t.id })) };
  }
  return { ...group, files, testFiles };
}

/**
 * Drops the timed-out mutants of `modules` from an incremental file, so that Stryker, finding no
 * earlier result for them, judges them again. Answers how many were dropped.
 */
export function forgetTimeouts(path: string, modules: string[]): number {
  const report = JSON.parse(readFileSync(path, 'utf8')) as IncrementalReport;
  let dropped = 0;
  for (const m of modules) {
    const file = report.files[m];
    if (!file) continue;
    const kept = file.mutants.filter((x) => x.status !== 'Timeout');
    dropped += file.mutants.length - kept.length;
    file.mutants = kept;
  }
  writeFileSync(path, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`mutation: ${dropped} timed-out mutant(s) of ${modules.join(', ')} to be judged again`);
  return dropped;
}
