/**
 * `npm run mutation [-- <group>...] [--suites] [--full] [--report]`: StrykerJS over the module
 * groups of groups.json, one Stryker run per group, then one score over every group's latest
 * report (--report: only that score, running nothing).
 *
 * Two kinds of tests judge a mutant. By default, the group's in-process node:test files: a whole
 * pass takes under 40 minutes here, so this kind is the gate. --suites judges with the group's
 * Playwright suite families instead, run black-box against the embedded reference built from the
 * mutated sources (suites/family.ts): a measure of the conformance suites themselves, at about
 * 5 s per mutant (a Playwright run and a reference start each), so a whole pass takes hours and
 * is run group by group. Each group and kind keeps its own incremental file, so a run re-tests
 * only mutants whose code or tests changed; --full ignores them. --file <module> (with one group)
 * judges that module alone and folds its results into the group's file (merge-incremental.ts), so
 * a group too long for one sitting is measured module by module. --retest-timeouts drops the
 * timed-out mutants from the incremental file first, so Stryker judges them again. --mutants
 * <line:col-line:col>,… (with --file) judges only the mutants in those ranges, e.g. the survivors
 * a new test is meant to kill, and merges them into the module's recorded results.
 * TARGET=<an embedded target file> (suites/targets/reference-upstream.json, reference-6.1.json)
 * judges with that configuration instead of 4.0's, for mutants only another data standard can
 * reach (an int64 id past 2^53: 4.0's ids are int32); each killed mutant's recorded reason then
 * names the target. A suites run that no longer kills a mutant another configuration killed
 * (a --full run on 4.0, say) judges it again with that configuration (judged-on.ts).
 *
 * A mutant counts as killed when a test failed or timed out under it (Stryker's "detected");
 * survivors and uncovered mutants count against the score, except those listed with a reason in
 * equivalent-survivors.json: an equivalent mutant is no fault, so it is left out of both counts
 * (as Stryker leaves out the mutants it ignores) and the number left out is printed beside each
 * score. An entry with `"only": "suites"` holds for the suites kind alone: either no request can
 * observe the change (`"class": "unobservable"`), or the mutated reference still meets every rule
 * (`"class": "no-rule"`: behaviour no seed rule or decision requires, such as a throttle; a
 * deployment without it is conformant, so no conformance test may require it, and the in-process
 * tests hold it). Any other survivor is printed, and fails the run, as does a score under the goal,
 * and as does a listed entry that explains no survivor of either kind (listed.ts: stale entries
 * hid a 49 % once).
 * A committed report may have been judged on an older version of a file: its mutants are matched
 * through the lines both versions share (line-map.ts), and the group is named as judged on an
 * older version, to be re-run.
 * Each group prints `suites mutation <group>: N% (killed K / M)` (or `mutation <group>` for the
 * in-process kind), then one overall line.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { writeManifests } from './suites/manifests.js';
import { appliesTo, isLeft, linesOf, names, unusedEntries, type Equivalent, type Kind, type Report } from './listed.js';
import { assertRangeable, forgetTimeouts, mergeModules, type IncrementalReport } from './merge-incremental.js';
import { demotedKills, targetName } from './judged-on.js';
import { mutatePatterns, strykerRange } from './ranges.js';

const GOAL = 85;
const here = (name: string) => fileURLToPath(new URL(name, import.meta.url));
const groups = JSON.parse(readFileSync(here('groups.json'), 'utf8')) as Record<string, { mutate: string[]; tests: string[]; suites: string[] }>;
/** The committed incremental file of a group and kind: its latest results. */
const reportPath = (kind: Kind, group: string) => here(`incremental/${kind === 'unit' ? '' : 'suites/'}${group}.json`);

const args = process.argv.slice(2);
// --file <module>: judge one module of the group; its results are folded into the group's file.
const fileAt = args.indexOf('--file');
const onlyFile = fileAt >= 0 ? args.splice(fileAt, 2)[1] : undefined;
// --mutants <l:c-l:c>,…: with --file, only the mutants inside these ranges (as reports print them;
// judge() turns them into Stryker's mutate ranges).
const rangesAt = args.indexOf('--mutants');
const ranges = rangesAt >= 0 ? args.splice(rangesAt, 2)[1].split(',') : undefined;
ranges?.forEach(strykerRange);
if (ranges && onlyFile === undefined) throw new Error('--mutants needs --file <module>');
const full = args.includes('--full');
// --retest-timeouts: mutants that timed out are judged again (a loaded machine times out mutants
// the suites would have killed or let survive; a timeout counts as killed).
const retestTimeouts = args.includes('--retest-timeouts');
const reportOnly = args.includes('--report');
const unit = !args.includes('--suites');
const kind = unit ? 'in-process tests' : 'suites';
const chosen = args.filter((a) => !a.startsWith('--'));
for (const g of chosen) if (!groups[g]) throw new Error(`unknown group ${g}; groups: ${Object.keys(groups).join(', ')}`);
if (onlyFile !== undefined && (chosen.length !== 1 || !groups[chosen[0]].mutate.includes(onlyFile))) {
  throw new Error(`--file names one module of one chosen group (${chosen.map((g) => groups[g].mutate.join(', ')).join('; ') || 'no group chosen'}), not ${onlyFile}`);
}

const started = Date.now();
for (const group of reportOnly ? [] : chosen.length ? chosen : Object.keys(groups)) {
  console.log(`\n== mutation group ${group} (${kind}): ${groups[group].mutate.join(', ')}`);
  if (!unit) writeManifests(groups[group].suites);
  const t0 = Date.now();
  const incremental = reportPath(unit ? 'unit' : 'suites', group);
  if (retestTimeouts && existsSync(incremental)) forgetTimeouts(incremental, onlyFile ? [onlyFile] : groups[group].mutate);
  const before = existsSync(incremental) ? JSON.parse(readFileSync(incremental, 'utf8')) as IncrementalReport : undefined;
  if (ranges && onlyFile !== undefined) assertRangeable(before, onlyFile, readFileSync(here(`../../${onlyFile}`), 'utf8'));
  const modules = onlyFile !== undefined ? [onlyFile] : groups[group].mutate;
  judge(group, before, { modules: onlyFile !== undefined ? modules : undefined, ranges, force: full, target: process.env.TARGET });
  // Kills only another configuration made, lost by this run (judged-on.ts): judged there again.
  if (!unit) {
    for (const [on, byModule] of demotedKills(before, readIncremental(incremental), modules, targetName(process.env.TARGET))) {
      for (const [module, found] of byModule) {
        console.log(`== ${found.length} mutant(s) of ${module} killed on ${on || 'the default target'} before, not killed now: judged there again`);
        judge(group, readIncremental(incremental), { modules: [module], ranges: found, force: true, target: on ? `suites/targets/${on}` : undefined });
      }
    }
  }
  console.log(`== group ${group} took ${((Date.now() - t0) / 60000).toFixed(1)} min`);
}

function readIncremental(path: string): IncrementalReport {
  return JSON.parse(readFileSync(path, 'utf8')) as IncrementalReport;
}

/**
 * One Stryker run over a group, or over some of its modules (folded into the group's file), or
 * over ranges of one module (positions as reports print them); force re-tests what the
 * incremental file already holds; target: the embedded target file to judge with (TARGET), none
 * for 4.0's.
 */
function judge(group: string, before: IncrementalReport | undefined, o: { modules?: string[]; ranges?: string[]; force: boolean; target?: string }): void {
  const env: NodeJS.ProcessEnv = {
    ...process.env, MUTATION_GROUP: group, ...(unit ? {} : { MUTATION_SUITES: '1' }), ...(o.force ? { MUTATION_FULL: '1' } : {}),
    ...(o.modules ? { MUTATION_MUTATE: o.ranges ? mutatePatterns(o.modules[0], o.ranges) : o.modules.join(',') } : {}),
  };
  if (o.target) env.TARGET = o.target;
  else delete env.TARGET;
  const run = spawnSync(here('../../node_modules/.bin/stryker'), ['run', here('stryker.config.mjs')], { stdio: 'inherit', env });
  if (run.status !== 0) throw new Error(`stryker failed for group ${group} (exit ${run.status})`);
  if (o.modules) {
    const incremental = reportPath(unit ? 'unit' : 'suites', group);
    const merged = mergeModules(before, readIncremental(incremental), o.modules, o.ranges !== undefined);
    writeFileSync(incremental, `${JSON.stringify(merged, null, 2)}\n`);
  }
}

const listedEntries = JSON.parse(readFileSync(here('equivalent-survivors.json'), 'utf8')) as Equivalent[];
const equivalents = listedEntries.filter((e) => appliesTo(e, unit ? 'unit' : 'suites'));
const stale: string[] = [];
const timedOut: string[] = [];

let killed = 0;
let total = 0;
let listed = 0;
const unexplained: string[] = [];
const rows: string[] = [];
const groupScores: { group: string; killed: number; total: number; listed: number }[] = [];
const missing: string[] = [];
const label = unit ? 'mutation' : 'suites mutation';
const scoreLine = (name: string, k: number, n: number, eq: number) =>
  `${label} ${name}: ${(n ? (100 * k) / n : 100).toFixed(1)}% (killed ${k} / ${n}${eq ? `; ${eq} listed as equivalent, not counted` : ''})`;
for (const group of Object.keys(groups)) {
  // The committed incremental file holds the group's last results (the same statuses as the
  // JSON report in reports/, which a clean clone does not have).
  const path = reportPath(unit ? 'unit' : 'suites', group);
  if (!existsSync(path)) { missing.push(group); continue; }
  const report = JSON.parse(readFileSync(path, 'utf8')) as Report;
  let groupKilled = 0;
  let groupTotal = 0;
  let groupListed = 0;
  for (const [file, { mutants, source }] of Object.entries(report.files).sort()) {
    const today = existsSync(file) ? readFileSync(file, 'utf8') : '';
    const at = linesOf(source, today);
    if (source !== undefined && source !== today) stale.push(`${group}: ${file}`);
    const left = mutants.filter(isLeft);
    const equivalent = left.filter((m) => equivalents.some((e) => names(e, file, m, at)));
    const count = (...s: string[]) => mutants.filter((m) => s.includes(m.status)).length;
    const k = count('Killed', 'Timeout');
    if (count('Timeout')) timedOut.push(`${file} ${count('Timeout')}`);
    const n = count('Killed', 'Timeout', 'Survived', 'NoCoverage') - equivalent.length;
    groupKilled += k;
    groupTotal += n;
    groupListed += equivalent.length;
    rows.push(`${file.padEnd(48)} ${String(n).padStart(5)} ${String(k).padStart(7)} ${String(count('Survived')).padStart(8)} ${String(count('NoCoverage')).padStart(8)} ${String(equivalent.length).padStart(6)} ${String(count('RuntimeError', 'CompileError')).padStart(7)} ${(n ? (100 * k) / n : 100).toFixed(1).padStart(6)}%`);
    for (const m of left.filter((x) => !equivalent.includes(x))) {
      unexplained.push(`${file}:${m.location.start.line}:${m.location.start.column} ${m.mutatorName} ${m.status}${m.replacement !== undefined ? ` → ${JSON.stringify(m.replacement).slice(0, 100)}` : ''}`);
    }
  }
  killed += groupKilled;
  total += groupTotal;
  listed += groupListed;
  groupScores.push({ group, killed: groupKilled, total: groupTotal, listed: groupListed });
}
console.log(`\nmutants judged by the ${kind} (valid: killed, survived and not covered, less those listed as equivalent)`);
console.log(`${'module'.padEnd(48)} ${'valid'.padStart(5)} ${'killed'.padStart(7)} ${'survived'.padStart(8)} ${'no cover'.padStart(8)} ${'listed'.padStart(6)} ${'errors'.padStart(7)} ${'score'.padStart(7)}`);
for (const r of rows) console.log(r);
if (unexplained.length) console.log(`\nsurvivors neither killed nor listed as equivalent: ${unexplained.length}\n  ${unexplained.join('\n  ')}`);
// Entries are judged against the reports of both kinds: an entry without `only` may explain an
// in-process survivor the suites kill, or the other way round.
const committed = (['unit', 'suites'] as Kind[]).flatMap((k) => Object.keys(groups).map((g) => reportPath(k, g))
  .filter(existsSync).map((p) => ({ kind: k, report: JSON.parse(readFileSync(p, 'utf8')) as Report })));
const unused = unusedEntries(listedEntries, committed, (file) => (existsSync(file) ? readFileSync(file, 'utf8') : ''));
if (unused.length) {
  console.log(`\nlisted equivalents that explain no survivor of either kind's reports (killed since, or their code changed): ${unused.length}; remove them, or move them with their code`);
  for (const e of unused) console.log(`  ${e.file}:${e.line}${e.column !== undefined ? `:${e.column}` : ''} ${e.mutator}${e.replacement !== undefined ? ` → ${JSON.stringify(e.replacement).slice(0, 100)}` : ''}`);
}
// A timeout counts as a kill, but a loaded machine times out mutants that would survive (six of
// seven in content-checks.ts, judged again): the count is shown so that it is checked.
if (timedOut.length) console.log(`\ntimed out, counted as killed (judge again on a quiet machine with --retest-timeouts if the run shared its cores): ${timedOut.join(', ')}`);
// A report judged on an older version of a file still counts, but says so: re-run the group.
if (stale.length) console.log(`\njudged on an older version of the file (listed entries matched through the unchanged lines; re-run to judge today's code): ${stale.join(', ')}`);
if (missing.length) console.log(`groups without a report (not counted; run \`npm run mutation -- ${unit ? '' : '--suites '}${missing.join(' ')}\`): ${missing.join(', ')}`);
console.log(`run time: ${((Date.now() - started) / 60000).toFixed(1)} min\n`);
for (const g of groupScores) console.log(scoreLine(g.group, g.killed, g.total, g.listed));
if (!total) {
  console.log(`${label} overall: none (no report)`);
  process.exit(1);
}
const score = (100 * killed) / total;
// The suites kind is measured group by group: a group not yet measured is named, not a failure.
if (score < GOAL || groupScores.some((g) => g.total > 0 && (100 * g.killed) / g.total < GOAL) || unexplained.length || unused.length || (unit && missing.length)) process.exitCode = 1;
console.log(`${scoreLine('overall', killed, total, listed)}${missing.length ? `, ${missing.length} group(s) not measured` : ''}`);
