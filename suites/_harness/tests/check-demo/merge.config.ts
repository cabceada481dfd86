import { defineConfig } from '@playwright/test';

/** Merges blob reports of sharded check-demo runs under the conformance reporter (baseline.test.ts). */
export default defineConfig({
  testDir: '.',
  reporter: [['../../reporter/conformance-reporter.ts', { outputDir: process.env.CHECK_DEMO_REPORTS ?? 'reports/check-demo' }]],
});
