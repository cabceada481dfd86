// StrykerJS configuration for one module group of tools/mutation/groups.json (MUTATION_GROUP),
// run by tools/mutation/run.ts. Each group mutates its modules and runs only its own node:test
// files through the tap runner: one process per test file, so a file's coverage is the set of
// mutants it reaches and a mutant runs only the files that reach it.
import { readFileSync } from 'node:fs';

const groups = JSON.parse(readFileSync(new URL('./groups.json', import.meta.url), 'utf8'));
const name = process.env.MUTATION_GROUP;
const group = groups[name];
if (!group) throw new Error(`MUTATION_GROUP must name a group of tools/mutation/groups.json (${Object.keys(groups).join(', ')}), not ${name}`);

export default {
  packageManager: 'npm',
  plugins: ['@stryker-mutator/tap-runner'],
  testRunner: 'tap',
  tap: {
    testFiles: group.tests,
    // The hook first (it creates Stryker's global before any instrumented module runs), then tsx.
    nodeArgs: ['-r', '{{hookFile}}', '--import', 'tsx'],
    forceBail: true,
  },
  coverageAnalysis: 'perTest',
  mutate: group.mutate,
  ignorePatterns: ['reports', 'bench', 'test-results', 'playwright-report', 'coverage', '.stryker-tmp'],
  tempDirName: '.stryker-tmp',
  concurrency: Number(process.env.MUTATION_CONCURRENCY ?? 2),
  incremental: process.env.MUTATION_FULL !== '1',
  incrementalFile: `tools/mutation/incremental/${name}.json`,
  reporters: ['progress-append-only', 'json'],
  jsonReporter: { fileName: `reports/mutation/${name}.json` },
  timeoutMS: 10000,
  cleanTempDir: 'always',
};
