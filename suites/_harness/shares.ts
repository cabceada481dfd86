import { readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DataStandard } from '../../spec/model/upstream.js';
import { inheritedDecision, judgedFor } from './data-standard.js';

/**
 * Shares of the spec files for a run with many workers (issue #24 point 5): each share is a
 * Playwright project with its own workers, so a worker runs, loads and warms up the files of one
 * share only, not of the whole run.
 *
 * Why: Playwright hands the next test group to whichever worker is free, so with twenty workers
 * every worker ends up loading nearly every spec file (declaring every test of it, cloning the
 * file's tests for each group it runs) and warming up the code of every suite. That cost grows
 * with the workers, not with the tests: the whole 4.0 run against the embedded reference took
 * the workers 23 CPU-seconds with three workers, 38 with eight and 68 with twenty. Through a
 * 40 ms delay proxy on two cores, alternated in one hour, twenty workers in four shares of five:
 * 93 CPU-seconds and 60.0 / 59.7 s, against 103–104 CPU-seconds and 63.4 / 64.0 s in one pool.
 *
 * Nothing a test does changes: the same tests, titles, fixtures and groups, each file in exactly
 * one share. A share's project name shows before a test's file in Playwright's own output
 * (`[share 2 of 4] › validation/markup.spec.ts › …`); the conformance report leaves it out. A run
 * with fewer than twice WORKERS_PER_SHARE workers (every run against the embedded reference) has
 * one pool, as before.
 */
export const WORKERS_PER_SHARE = 5;

/**
 * What each spec file weighs, per data standard judged: its tests' seconds added up, in a whole
 * run of that standard's embedded reference through a 40 ms delay proxy with twenty workers
 * (`npm run strength -- --remote-latency 40 [--target …]`, results JSON; 4.0's in four shares,
 * 5.2's and 6.1's in one pool), rounded, at least 1. The shares are balanced by these weights: a share that ends early leaves its workers
 * idle while the others go on. The standards weigh their files differently (6.1's int64 suite
 * weighs 72 where 4.0's weighs 1): 6.1 in shares balanced by 4.0's weights ended its last share
 * 16 s after the others, 93.3 s against 85.8 s in one pool. One row per spec file, its weight in
 * 4.0, 5.2 and 6.1; every spec file has one (shares.test.ts).
 */
const MEASURED: Readonly<Record<string, readonly [number, number, number]>> = {
  'authentication/bearer.spec.ts': [9, 9, 9], 'authentication/expiry.spec.ts': [8, 9, 9], 'authentication/wording.spec.ts': [1, 1, 1],
  'authorization/authorization.spec.ts': [9, 10, 10],
  'change-queries/authorization.spec.ts': [1, 1, 1], 'change-queries/change-versions.spec.ts': [5, 4, 4], 'change-queries/every-feed.spec.ts': [5, 5, 6], 'change-queries/feeds.spec.ts': [16, 17, 17],
  'delete/delete.spec.ts': [2, 2, 1],
  'descriptors/descriptors.spec.ts': [2, 2, 2], 'descriptors/shape.spec.ts': [52, 62, 78], 'descriptors/values.spec.ts': [6, 5, 5],
  'discovery/client-surface.spec.ts': [1, 1, 1], 'discovery/endpoints.spec.ts': [3, 3, 3], 'discovery/every-resource-json.spec.ts': [82, 97, 132], 'discovery/interface-description.spec.ts': [3, 5, 2], 'discovery/upstream-surface.spec.ts': [4, 5, 6],
  'errors/order.spec.ts': [3, 3, 3], 'errors/problem-details.spec.ts': [15, 16, 16], 'errors/problem-types.spec.ts': [2, 2, 2],
  'etag/etag.spec.ts': [5, 6, 5],
  'limits/every-collection.spec.ts': [10, 12, 16], 'limits/limits.spec.ts': [16, 17, 17],
  'profiles/profiles.spec.ts': [1, 1, 1],
  'properties/crud-model.spec.ts': [24, 26, 25],
  'put/put.spec.ts': [3, 3, 3],
  'query-paging/cursor.spec.ts': [10, 11, 10], 'query-paging/every-collection.spec.ts': [11, 13, 16], 'query-paging/every-resource.spec.ts': [117, 136, 182], 'query-paging/id-parameter.spec.ts': [1, 1, 1], 'query-paging/paging.spec.ts': [6, 6, 6], 'query-paging/query.spec.ts': [5, 6, 5],
  'references/references.spec.ts': [3, 3, 3], 'references/shapes.spec.ts': [17, 21, 29], 'references/unification.spec.ts': [13, 17, 25],
  'rostering/errors.spec.ts': [4, 6, 5], 'rostering/paths.spec.ts': [5, 6, 5], 'rostering/query.spec.ts': [6, 7, 7], 'rostering/read-only.spec.ts': [20, 22, 22], 'rostering/resources.spec.ts': [7, 11, 10], 'rostering/routing.spec.ts': [4, 5, 5], 'rostering/scopes.spec.ts': [12, 12, 13], 'rostering/tokens.spec.ts': [34, 31, 32], 'rostering/visibility.spec.ts': [14, 14, 14],
  'snapshot/snapshot.spec.ts': [4, 5, 4],
  'token/jwt.spec.ts': [1, 1, 1], 'token/token-endpoint.spec.ts': [2, 2, 2],
  'upsert/round-trip.spec.ts': [23, 28, 40], 'upsert/upsert.spec.ts': [3, 4, 4],
  'validation/body.spec.ts': [9, 9, 10], 'validation/empty-arrays.spec.ts': [1, 2, 2], 'validation/fields.spec.ts': [8, 11, 9], 'validation/int64.spec.ts': [1, 50, 72], 'validation/integers.spec.ts': [20, 26, 38], 'validation/lengths.spec.ts': [48, 50, 69], 'validation/markup.spec.ts': [54, 63, 87], 'validation/nullable.spec.ts': [20, 21, 30], 'validation/numeric-text.spec.ts': [2, 3, 3], 'validation/required.spec.ts': [36, 42, 56], 'validation/unicode.spec.ts': [1, 1, 1], 'validation/upstream-values.spec.ts': [4, 4, 4], 'validation/whitespace.spec.ts': [7, 8, 12],
  'versioning/versioning.spec.ts': [1, 1, 1],
};
/** The standards of MEASURED's columns. */
const COLUMNS: readonly DataStandard[] = ['4.0', '5.2', '6.1'];
export const WEIGHTS = Object.fromEntries(COLUMNS.map((standard, i) =>
  [standard, Object.fromEntries(Object.entries(MEASURED).map(([file, w]) => [file, w[i]]))])) as Readonly<Record<DataStandard, Readonly<Record<string, number>>>>;

/** A spec file the table does not list yet still runs, in the lightest share. */
const UNLISTED_WEIGHT = 5;

export const SUITES_DIR = fileURLToPath(new URL('../', import.meta.url));

/** The spec files under `dir` (Playwright's testDir and testMatch: `**\/*.spec.ts`), relative, with `/`, sorted. */
export function specFiles(dir = SUITES_DIR): string[] {
  const found: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory() && e.name !== 'node_modules') walk(join(d, e.name));
      else if (e.isFile() && e.name.endsWith('.spec.ts')) found.push(relative(dir, join(d, e.name)).split(sep).join('/'));
    }
  };
  walk(dir);
  return found.sort();
}

/**
 * The files in `count` shares of about equal weight: heaviest first, each into the lightest
 * share so far (ties: the lower share, the name), so the same files always make the same shares.
 */
export function shareFiles(files: readonly string[], count: number, weights: Readonly<Record<string, number>> = WEIGHTS['4.0']): string[][] {
  const weight = (f: string) => weights[f] ?? UNLISTED_WEIGHT;
  const shares = Array.from({ length: count }, () => ({ weight: 0, files: [] as string[] }));
  for (const f of [...files].sort((a, b) => weight(b) - weight(a) || a.localeCompare(b))) {
    const lightest = shares.reduce((min, s) => (s.weight < min.weight ? s : min));
    lightest.weight += weight(f);
    lightest.files.push(f);
  }
  return shares.map((s) => s.files.sort());
}

export interface ShareProject {
  name: string;
  /** Each file's whole absolute path (a glob could match a file of the same name in a deeper folder, or break on a folder name with glob characters). */
  testMatch: RegExp[];
  workers: number;
}

const exactly = (file: string) => new RegExp(`^${join(SUITES_DIR, file).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);

/**
 * The projects of a run with `workers` workers: one share per WORKERS_PER_SHARE workers, the
 * workers split among them (the first shares take one more when they do not divide); none (one
 * pool, Playwright's default project) below two shares.
 */
export function shareProjects(workers: number, files: readonly string[] = specFiles(), standard: DataStandard = '4.0'): ShareProject[] | undefined {
  const count = Math.min(Math.floor(workers / WORKERS_PER_SHARE), files.length);
  if (count < 2) return undefined;
  return shareFiles(files, count, WEIGHTS[standard]).map((share, i) => ({
    name: `share ${i + 1} of ${count}`,
    testMatch: share.map(exactly),
    workers: Math.floor(workers / count) + (i < workers % count ? 1 : 0),
  }));
}

/** `--workers N`, `--workers=N` or `-j N` on Playwright's command line, if given (a number). */
export function commandLineWorkers(argv: readonly string[]): number | undefined {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = a.startsWith('--workers=') ? a.slice('--workers='.length) : a === '--workers' || a === '-j' ? argv[i + 1] : undefined;
    if (value !== undefined && /^\d+$/.test(value)) return Number(value);
  }
  return undefined;
}

const SHARES_ENV = 'CONFORMANCE_SHARE_WORKERS';

/**
 * The shares' projects, decided once in Playwright's main process from the workers the run uses
 * (the command line's, else the decision's) and inherited by its workers, whose own command line
 * is not Playwright's: every process must list the same projects. Balanced by the weights of the
 * standard judged, decided before (playwright.config.ts) and inherited the same way.
 */
export function shareProjectsOnce(decided: number, argv: readonly string[] = process.argv): ShareProject[] | undefined {
  process.env[SHARES_ENV] ||= String(commandLineWorkers(argv) ?? decided);
  return shareProjects(Number(process.env[SHARES_ENV]), specFiles(), judgedFor(inheritedDecision()));
}
