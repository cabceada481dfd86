import { createPublicKey, generateKeyPairSync, randomBytes } from 'node:crypto';
import { defineConfig } from '@playwright/test';
import { embeddedConfig, embeddedPorts, isEmbeddedReference, target } from './suites/_harness/target.js';
import { defaultWorkers } from './suites/_harness/workers.js';
import { REFERENCE_ERROR_LOG } from './suites/_harness/reference-errors.js';
import { RUN_METADATA_KEY, runMetadata } from './suites/_harness/reporter/run-metadata.js';
import { embeddedFlowServers, rosteringSelected } from './suites/rostering/_support/flows.js';

/**
 * Conformance suites against the deployment named by TARGET (a target file), by default the
 * embedded reference, which Playwright starts itself (as it does for the other embedded target,
 * suites/targets/reference-upstream.json). Reports go to CONFORMANCE_REPORTS_DIR (default reports/).
 */
const reportsDir = process.env.CONFORMANCE_REPORTS_DIR ?? 'reports';
const referenceCommand = `node --import tsx reference/main.ts --config ${embeddedConfig}`;
if (isEmbeddedReference) {
  // One issuer key per run, shared by the reference (which signs with it) and the suites
  // (which craft expired or foreign tokens with it). Set in the main process; workers inherit it.
  process.env.CONFORMANCE_ISSUER_PRIVATE_KEY_PEM ??= generateKeyPairSync('rsa', { modulusLength: 2048 })
    .privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  // The suites' own test issuer (capability testIssuer): the rostering services trust its public
  // key besides the issuer's. Generated whether or not the target file declares the capability.
  process.env.CONFORMANCE_TEST_ISSUER_PRIVATE_KEY_PEM ??= generateKeyPairSync('rsa', { modulusLength: 2048 })
    .privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  // The reference has no default admin credential (decisions #33): one secret per run, given to
  // the reference and read by the suites through the target file's secretEnv.
  process.env.CONFORMANCE_ADMIN_SECRET ??= randomBytes(24).toString('base64url');
}

// REFERENCE_COVERAGE=1 runs the reference under c8; `append` adds to the last run's coverage
// (npm test measures both embedded targets together).
const coverage = process.env.REFERENCE_COVERAGE === '1' || process.env.REFERENCE_COVERAGE === 'append';
const c8 = `npx c8${process.env.REFERENCE_COVERAGE === 'append' ? ' --clean=false' : ''} `;
// Requests that fail inside the embedded reference (many on purpose) are logged to a file, not
// among the results; the global setup empties it and its teardown prints a count.
if (isEmbeddedReference) process.env.REFERENCE_ERROR_LOG ??= REFERENCE_ERROR_LOG;

// Rostering routing flows: the default reference serves the single-tenant flow from admin
// databases written here; three more reference processes serve the context, multi-tenant and
// multi-tenant-with-context flows, started only when the run includes the rostering suites.
const rosteringFlows = isEmbeddedReference && !process.argv.includes('--list')
  ? embeddedFlowServers({
      dataApiBaseUrl: target.dataApi.baseUrl,
      basePath: new URL(target.dataApi.baseUrl).pathname,
      privateKeyPem: process.env.CONFORMANCE_ISSUER_PRIVATE_KEY_PEM!,
      withExtraServers: rosteringSelected(process.argv),
      testIssuerPublicKeyPem: createPublicKey(process.env.CONFORMANCE_TEST_ISSUER_PRIVATE_KEY_PEM!).export({ type: 'spki', format: 'pem' }).toString(),
    })
  : { defaultEnv: {}, servers: [] };

/**
 * One more reference process beside the main one, on its own ports and empty in-memory store,
 * signing with the run's issuer key; `url` answers once it is ready.
 */
const siblingServer = (url: string, dataPort: number, rosteringPort: number, env: Record<string, string>) => ({
  command: referenceCommand,
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
  ? [siblingServer(`${lowered.baseUrl}/`, embeddedPorts(target.dataApi.baseUrl).lowered, embeddedPorts(target.dataApi.baseUrl).lowered + 1, { REFERENCE_PAGE_SIZE_LIMIT: String(lowered.pageSizeMaximum) })]
  : [];

// Rostering services configured like the default one but for their issuer or audience (target
// rostering.neighbours; only reference-keyless.json declares them), one process for all.
const neighbours = target.rostering?.neighbours ?? [];
const neighbourServer = isEmbeddedReference && neighbours.length && rosteringSelected(process.argv) && !process.argv.includes('--list')
  ? [{
      command: 'node --import tsx suites/rostering/_support/neighbours.ts',
      url: `${neighbours[neighbours.length - 1].rostering}/health-check`,
      reuseExistingServer: false,
      timeout: 60_000,
      gracefulShutdown: { signal: 'SIGTERM' as const, timeout: 5_000 },
      stdout: 'ignore' as const,
      stderr: 'pipe' as const,
    }]
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
    ['./suites/_harness/reporter/conformance-reporter.ts', { outputDir: reportsDir }],
    ['junit', { outputFile: `${reportsDir}/junit.xml` }],
    ['html', { outputFolder: `${reportsDir}/playwright`, open: 'never' }],
  ],
  use: { extraHTTPHeaders: { Accept: 'application/json' } },
  webServer: isEmbeddedReference
    ? [{
        // Under c8 (REFERENCE_COVERAGE=1) the reference writes its coverage when it exits on SIGTERM.
        command: `${coverage ? c8 : ''}${referenceCommand}`,
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
      }, ...rosteringFlows.servers.map((s) => siblingServer(`http://127.0.0.1:${s.rosteringPort}/health-check`, s.dataPort, s.rosteringPort, s.env)), ...loweredServer, ...neighbourServer]
    : undefined,
});
