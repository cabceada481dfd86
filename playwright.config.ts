import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { defineConfig } from '@playwright/test';
import { isEmbeddedReference, loweredPageSizePort, target } from './suites/_harness/target.js';
import { defaultWorkers } from './suites/_harness/workers.js';
import { REFERENCE_ERROR_LOG } from './suites/_harness/reference-errors.js';
import { RUN_METADATA_KEY, runMetadata } from './suites/_harness/reporter/run-metadata.js';
import { FLOWS_ENV, embeddedFlowServers, rosteringSelected } from './suites/rostering/_support/flows.js';

/**
 * Conformance suites against the deployment named by TARGET (a target file), by default the
 * embedded reference, which Playwright starts itself.
 */
if (isEmbeddedReference) {
  // One issuer key per run, shared by the reference (which signs with it) and the suites
  // (which craft expired or foreign tokens with it). Set in the main process; workers inherit it.
  process.env.CONFORMANCE_ISSUER_PRIVATE_KEY_PEM ??= generateKeyPairSync('rsa', { modulusLength: 2048 })
    .privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  // The reference has no default admin credential (decisions #33): one secret per run, given to
  // the reference and read by the suites through the target file's secretEnv.
  process.env.CONFORMANCE_ADMIN_SECRET ??= randomBytes(24).toString('base64url');
}

const coverage = process.env.REFERENCE_COVERAGE === '1';
// Requests that fail inside the embedded reference (many on purpose) are logged to a file, not
// among the results; the global setup empties it and its teardown prints a count.
if (isEmbeddedReference) process.env.REFERENCE_ERROR_LOG ??= REFERENCE_ERROR_LOG;

// Rostering routing flows: the default reference serves the single-tenant flow from admin
// databases written here; three more reference processes serve the context, multi-tenant and
// multi-tenant-with-context flows, started only when the run includes the rostering suites.
const rosteringFlows = isEmbeddedReference && !process.env[FLOWS_ENV] && !process.argv.includes('--list')
  ? embeddedFlowServers({
      dataApiBaseUrl: target.dataApi.baseUrl,
      basePath: new URL(target.dataApi.baseUrl).pathname,
      privateKeyPem: process.env.CONFORMANCE_ISSUER_PRIVATE_KEY_PEM!,
      withExtraServers: rosteringSelected(process.argv),
    })
  : { defaultEnv: {}, servers: [] };

/**
 * One more reference process beside the main one, on its own ports and empty in-memory store,
 * signing with the run's issuer key; `url` answers once it is ready.
 */
const siblingServer = (url: string, dataPort: number, rosteringPort: number, env: Record<string, string>) => ({
  command: 'node --import tsx reference/main.ts --config reference/config/conformance.json',
  url,
  reuseExistingServer: false,
  timeout: 60_000,
  gracefulShutdown: { signal: 'SIGTERM' as const, timeout: 5_000 },
  env: {
    REFERENCE_ISSUER_PRIVATE_KEY_PEM: process.env.CONFORMANCE_ISSUER_PRIVATE_KEY_PEM ?? '',
    REFERENCE_PORT: String(dataPort),
    ROSTERING_PORT: String(rosteringPort),
    REFERENCE_DATA_STORE: 'memory:default',
    ...env,
  },
  stdout: 'ignore' as const,
  stderr: 'pipe' as const,
});

// A second deployment whose host lowered the maximum page size (capability loweredPageSize of
// the reference's target file).
const lowered = target.capabilities?.loweredPageSize;
const loweredServer = isEmbeddedReference && lowered && !process.argv.includes('--list')
  ? [siblingServer(`${lowered.baseUrl}/`, loweredPageSizePort(), loweredPageSizePort() + 1, { REFERENCE_PAGE_SIZE_LIMIT: String(lowered.pageSizeMaximum) })]
  : [];

export default defineConfig({
  testDir: './suites',
  testMatch: '**/*.spec.ts',
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  retries: 0,
  // --workers wins; else the target's `workers`, else by where the deployment is (workers.ts).
  workers: defaultWorkers(target, isEmbeddedReference),
  timeout: 30_000,
  globalSetup: './suites/_harness/global-setup.ts',
  // The target (and its deviations) travel with blob reports, so a merge reports them.
  metadata: { target: target.name, [RUN_METADATA_KEY]: runMetadata() },
  // --list runs nothing: it must not overwrite the reports of the last run.
  reporter: process.argv.includes('--list') ? [['list']] : [
    // One line per test by default; CONFORMANCE_PROGRESS=dot (npm test, CI) prints dots and failures.
    [process.env.CONFORMANCE_PROGRESS ?? (process.env.CI ? 'dot' : 'list')],
    ['./suites/_harness/reporter/conformance-reporter.ts', { outputDir: 'reports' }],
    ['junit', { outputFile: 'reports/junit.xml' }],
    ['html', { outputFolder: 'reports/playwright', open: 'never' }],
  ],
  use: { extraHTTPHeaders: { Accept: 'application/json' } },
  webServer: isEmbeddedReference
    ? [{
        // Under c8 (REFERENCE_COVERAGE=1) the reference writes its coverage when it exits on SIGTERM.
        command: `${coverage ? 'npx c8 ' : ''}node --import tsx reference/main.ts --config reference/config/conformance.json`,
        url: `${target.dataApi.baseUrl}/`,
        reuseExistingServer: false,
        timeout: 60_000,
        gracefulShutdown: { signal: 'SIGTERM', timeout: 5_000 },
        env: {
          REFERENCE_ISSUER_PRIVATE_KEY_PEM: process.env.CONFORMANCE_ISSUER_PRIVATE_KEY_PEM ?? '',
          REFERENCE_ADMIN_KEY: 'conformance-admin',
          REFERENCE_ADMIN_SECRET: process.env.CONFORMANCE_ADMIN_SECRET ?? '',
          ...(process.env.REFERENCE_PORT ? { REFERENCE_PORT: process.env.REFERENCE_PORT } : {}),
          ...(process.env.ROSTERING_PORT ? { ROSTERING_PORT: process.env.ROSTERING_PORT } : {}),
          ...rosteringFlows.defaultEnv,
        },
        stdout: 'ignore' as const,
        stderr: 'pipe' as const,
      }, ...rosteringFlows.servers.map((s) => siblingServer(`http://127.0.0.1:${s.rosteringPort}/health-check`, s.dataPort, s.rosteringPort, s.env)), ...loweredServer]
    : undefined,
});
