// Preloaded (NODE_OPTIONS --require) into every process of a suite run under mutation testing:
// at exit, what this process ran of the instrumented reference (Stryker's mutant coverage) goes
// to MUTATION_COVERAGE_DIR, where family.ts gathers it. The reference runs in Playwright's
// webServer processes, out of reach of the tap runner's own hook.
'use strict';
const { writeFileSync } = require('node:fs');
const { join } = require('node:path');

process.on('exit', () => {
  const dir = process.env.MUTATION_COVERAGE_DIR;
  const coverage = globalThis.__stryker__ && globalThis.__stryker__.mutantCoverage;
  if (dir && coverage) writeFileSync(join(dir, `${process.pid}.json`), JSON.stringify(coverage));
});
