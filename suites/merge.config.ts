import { defineConfig } from '@playwright/test';

/**
 * For `npx playwright merge-reports --config suites/merge.config.ts <blob dir>`: the reports a
 * sharded run produces once its blob reports are gathered (run from the project root).
 */
export default defineConfig({
  testDir: '.',
  reporter: [
    ['./_harness/reporter/conformance-reporter.ts', { outputDir: 'reports' }],
    ['junit', { outputFile: '../reports/junit.xml' }],
    ['html', { outputFolder: '../reports/playwright', open: 'never' }],
  ],
});
