/**
 * Kills only one configuration can make. Some mutants are reached only on another data standard
 * (an int64 id past 2^53: 4.0's ids are int32), so they are judged with TARGET=<an embedded
 * target file>, and family.ts writes that file's name into the kill's reason ("suites/x on
 * reference-upstream.json: …"). A later whole-group run on another configuration cannot reach
 * them and records them as survivors: `--full` on 4.0 turned two 5.2 kills of collection.ts
 * into survivors, which would have hidden that the suites do kill them. run.ts judges such
 * mutants again on the configuration that killed them (demotedKills).
 */
import { basename } from 'node:path';
import { lineMap } from './line-map.js';
import { sameMutant, type IncrementalReport, type Mutant } from './merge-incremental.js';

/** The embedded target file a suites kill was judged with, by its name; '' for the default (4.0). */
export function judgedOn(reason: string | undefined): string {
  return /^suites\/[\w-]+ on ([\w.-]+\.json):/.exec(reason ?? '')?.[1] ?? '';
}

const killed = (m: Mutant) => m.status === 'Killed' || m.status === 'Timeout';

/**
 * The mutants of `modules` killed before on a configuration other than `target` (a target file's
 * name, '' for the default) and not killed now, matched through the lines the module's two
 * versions share (line-map.ts; a mutant on a changed line is a new one): by configuration, then
 * module, their ranges as `--mutants` takes them (columns from 1, as reports print them).
 */
export function demotedKills(before: IncrementalReport | undefined, after: IncrementalReport, modules: string[], target: string): Map<string, Map<string, string[]>> {
  const found = new Map<string, Map<string, string[]>>();
  for (const module of modules) {
    const was = before?.files[module];
    const now = after.files[module];
    if (!was || !now) continue;
    const at = lineMap(was.source ?? '', now.source ?? '');
    for (const m of now.mutants) {
      if (killed(m)) continue;
      const earlier = was.mutants.find((x) => sameMutant(x, m, at));
      const on = earlier && killed(earlier) ? judgedOn(earlier.statusReason) : undefined;
      if (on === undefined || on === target || !m.location?.end) continue;
      const byModule = found.get(on) ?? new Map<string, string[]>();
      found.set(on, byModule);
      const { start, end } = m.location;
      byModule.set(module, [...(byModule.get(module) ?? []), `${start.line}:${start.column}-${end.line}:${end.column}`]);
    }
  }
  return found;
}

/** A TARGET value's name as judgedOn reads it ('' without one). */
export const targetName = (target: string | undefined) => (target ? basename(target) : '');
