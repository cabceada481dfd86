// StrykerJS configuration for one module group of tools/mutation/groups.json (MUTATION_GROUP),
// run by tools/mutation/run.ts, with one of two kinds of test files through the tap runner:
// - the group's in-process node:test files (default): one process per file, so a file's coverage
//   is the set of mutants it reaches and a mutant runs only the files that reach it;
// - MUTATION_SUITES=1: the group's Playwright suite families, each run by suites/family.ts
//   against the embedded reference built from the mutated sources; a family's coverage is what
//   the reference's processes executed during its dry run.
import { readFileSync } from 'node:fs';

const groups = JSON.parse(readFileSync(new URL('./groups.json', import.meta.url), 'utf8'));
const name = process.env.MUTATION_GROUP;
const group = groups[name];
if (!group) throw new Error(`MUTATION_GROUP must name a group of tools/mutation/groups.json (${Object.keys(groups).join(', ')}), not ${name}`);
const suites = process.env.MUTATION_SUITES === '1';
const kind = suites ? 'suites/' : '';

export default {
  packageManager: 'npm',
  plugins: ['@stryker-mutator/tap-runner'],
  testRunner: 'tap',
  tap: {
    // In suites mode each family's test file is its manifest (suites/manifests.ts), written by run.ts.
    testFiles: suites ? group.suites.map((family) => `tools/mutation/suites/families/${family}.txt`) : group.tests,
    // The hook first (it creates Stryker's global before any instrumented module runs), then tsx.
    nodeArgs: ['-r', '{{hookFile}}', '--import', 'tsx', ...(suites ? ['tools/mutation/suites/family.ts', '{{testFile}}'] : [])],
    forceBail: true,
  },
  coverageAnalysis: 'perTest',
  // MUTATION_MUTATE: one module of the group, or ranges in it (run.ts --file, --mutants), merged back by run.ts.
  mutate: process.env.MUTATION_MUTATE ? process.env.MUTATION_MUTATE.split(',') : group.mutate,
  // dist/: the compiled reference npm start runs; mutants are judged on the sources (tsx).
  ignorePatterns: ['dist', 'reports', 'bench', 'test-results', 'playwright-report', 'blob-report', 'coverage', '.stryker-tmp'],
  tempDirName: '.stryker-tmp',
  concurrency: Number(process.env.MUTATION_CONCURRENCY ?? 2),
  // --full re-tests every mutant (force) and still writes the incremental file for later runs.
  incremental: true,
  force: process.env.MUTATION_FULL === '1',
  incrementalFile: `tools/mutation/incremental/${kind}${name}.json`,
  reporters: ['progress-append-only', 'json'],
  jsonReporter: { fileName: `reports/mutation/${kind}${name}.json` },
  // A family run starts its own servers and Playwright: seconds, not milliseconds, and more
  // under load. A hanging mutant is also stopped by Playwright's own test timeout.
  timeoutMS: suites ? 60000 : 10000,
  cleanTempDir: 'always',
};
