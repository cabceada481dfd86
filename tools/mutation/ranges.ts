/**
 * Mutant positions as reports print them (`line:column-line:column`, columns from 1: what
 * `--mutants` takes and what judged-on.ts reads from a report) turned into Stryker's mutate
 * ranges, which read a range's columns from 0: a range starting at a mutant's printed column
 * would leave that mutant out. (The first re-judging of lost kills passed printed columns, and
 * Stryker instrumented one of the two mutants.)
 */
export function strykerRange(range: string): string {
  const m = /^(\d+):(\d+)-(\d+):(\d+)$/.exec(range);
  if (!m) throw new Error(`--mutants takes line:column-line:column ranges, not ${range}`);
  return `${m[1]}:${Number(m[2]) - 1}-${m[3]}:${m[4]}`;
}

/** MUTATION_MUTATE for some mutants of one module (stryker.config.mjs). */
export function mutatePatterns(module: string, ranges: string[]): string {
  return ranges.map((r) => `${module}:${strykerRange(r)}`).join(',');
}
