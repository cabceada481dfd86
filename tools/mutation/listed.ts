import { lineMap } from './line-map.js';

/**
 * The listed equivalents (equivalent-survivors.json) and the mutants they name. An entry names its
 * mutant by file, line, mutator and replacement; `column` where two mutants share them. The line
 * is the report's, or today's where the entry was moved with the file and the report is older
 * (`at`, line-map.ts): entries written against either match.
 */
export interface Equivalent { file: string; line: number; column?: number; mutator: string; replacement?: string; reason: string; only?: 'suites'; class?: 'unobservable' | 'no-rule' }
export interface Mutant { id: string; mutatorName: string; replacement?: string; status: string; location: { start: { line: number; column: number } } }
export interface Report { files: Record<string, { mutants: Mutant[]; source?: string }> }
export type Kind = 'unit' | 'suites';

export const isLeft = (m: Mutant) => m.status === 'Survived' || m.status === 'NoCoverage';

export function names(e: Equivalent, file: string, m: Mutant, at: (line: number) => number | undefined): boolean {
  return e.file === file && (e.line === m.location.start.line || e.line === at(m.location.start.line))
    && (e.column === undefined || e.column === m.location.start.column)
    && e.mutator === m.mutatorName && (e.replacement === undefined || e.replacement === m.replacement);
}

/** An entry `"only": "suites"` explains a survivor of the suites kind alone. */
export const appliesTo = (e: Equivalent, kind: Kind) => kind === 'suites' || !e.only;

/** `source` (the report's copy of a file) mapped onto `today`'s lines. */
export const linesOf = (source: string | undefined, today: string) => (source === undefined ? (line: number) => line : lineMap(source, today));

/**
 * The entries that explain no survivor of any report, of either kind: the mutant they name was
 * killed since, or its code changed, so they explain nothing. They are not harmless: an entry
 * left at a line that now holds other code would explain a new survivor there (82 entries of
 * content-checks.ts named the lines from before the write plan, and hid that its suites score
 * was 49 %). Entries of a file no report holds are not judged.
 */
export function unusedEntries(entries: Equivalent[], reports: { kind: Kind; report: Report }[], today: (file: string) => string): Equivalent[] {
  const used = new Set<Equivalent>();
  const reported = new Set<string>();
  for (const { kind, report } of reports) {
    for (const [file, { mutants, source }] of Object.entries(report.files)) {
      reported.add(file);
      const candidates = entries.filter((e) => e.file === file && appliesTo(e, kind));
      if (!candidates.length) continue;
      const at = linesOf(source, today(file));
      for (const m of mutants.filter(isLeft)) for (const e of candidates) if (names(e, file, m, at)) used.add(e);
    }
  }
  return entries.filter((e) => reported.has(e.file) && !used.has(e));
}
