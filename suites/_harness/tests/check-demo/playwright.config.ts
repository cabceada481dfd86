import { defineConfig } from '@playwright/test';
import { shardMetadata, shardOf } from '../../reporter/run-metadata.js';

/**
 * Runs checks.demo.ts under the conformance reporter (verdict.test.ts): real Playwright outcomes
 * of rule-scoped checks, no deployment. CHECK_DEMO_REPORTS names the reports folder.
 */
export default defineConfig({
  testDir: '.',
  testMatch: 'checks.demo.ts',
  workers: 1,
  // As the project's configuration does: a merge missing a shard says so.
  metadata: shardMetadata(shardOf(process.argv)),
  retries: 0,
  reporter: [
    ['../../reporter/conformance-reporter.ts', { outputDir: process.env.CHECK_DEMO_REPORTS ?? 'reports/check-demo' }],
    ['json', { outputFile: `${process.env.CHECK_DEMO_REPORTS ?? 'reports/check-demo'}/results.json` }],
  ],
});
