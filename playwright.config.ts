import { randomBytes } from 'node:crypto';
import { defineConfig } from '@playwright/test';
import { embeddedConfig, isEmbeddedReference, target } from './suites/_harness/target.js';
import { decideWorkersOnce } from './suites/_harness/workers.js';
import { shareProjectsOnce } from './suites/_harness/shares.js';
import { REFERENCE_ERROR_LOG } from './suites/_harness/reference-errors.js';
import { RUN_METADATA_KEY, runMetadata, shardMetadata, shardOf } from './suites/_harness/reporter/run-metadata.js';
import { rosteringSelected } from './suites/_harness/selection.js';
import { FOREIGN_KEY_ENV, runKeysOnce } from './suites/_harness/run-keys.js';
import { decideStandardOnce } from './suites/_harness/standard-decision.js';
import { compiledReferenceFresh, embeddedDeployments, type Embedded } from './tools/embedded/deployments.js';
import { describesBuilt } from './tools/embedded/flows.js';
import { LAUNCH_ENV, READY_LINE, type LaunchedProcess } from './tools/embedded/launch-plan.js';

/**
 * Conformance suites against the deployment named by TARGET (a target file), by default the
 * embedded reference, which Playwright starts itself (as it does for the other embedded target,
 * suites/targets/reference-upstream.json on DS 5.2 and reference-6.1.json on 6.1). Reports go to CONFORMANCE_REPORTS_DIR (default reports/).
 */
const reportsDir = process.env.CONFORMANCE_REPORTS_DIR ?? 'reports';
// Keys made once per run (run-keys.ts), awaited before anything uses them:
// - the issuer's, shared by the embedded reference (which signs with it) and the suites (which
//   craft expired or foreign tokens with it);
// - the suites' own test issuer's (capability testIssuer): the rostering services trust its
//   public key besides the issuer's, whether or not the target file declares the capability;
// - the foreign key no deployment trusts, for the rostering suites' forged tokens.
const keys = runKeysOnce([
  ...(isEmbeddedReference ? ['CONFORMANCE_ISSUER_PRIVATE_KEY_PEM', 'CONFORMANCE_TEST_ISSUER_PRIVATE_KEY_PEM'] : []),
  ...(rosteringSelected(process.argv) && !process.argv.includes('--list') ? [FOREIGN_KEY_ENV] : []),
]);
// The reference has no default admin credential (decisions #33): one secret per run, given to
// the reference and read by the suites through the target file's secretEnv.
if (isEmbeddedReference) process.env.CONFORMANCE_ADMIN_SECRET ??= randomBytes(24).toString('base64url');

// REFERENCE_COVERAGE=1 runs the reference under c8; `append` adds to the last run's coverage
// (npm test measures both embedded targets together).
const coverage = process.env.REFERENCE_COVERAGE === '1' || process.env.REFERENCE_COVERAGE === 'append';
const c8 = ['npx', 'c8', ...(process.env.REFERENCE_COVERAGE === 'append' ? ['--clean=false'] : [])];
// Requests that fail inside the embedded reference (many on purpose) are logged to a file, not
// among the results; the global setup empties it and its teardown prints a count.
if (isEmbeddedReference) process.env.REFERENCE_ERROR_LOG ??= REFERENCE_ERROR_LOG;
// The reference runs compiled where the build is fresh (deployments.ts), but under c8: decided
// once, in the main process (the workers inherit it), since it reads every compiled file's date.
if (isEmbeddedReference) process.env.CONFORMANCE_COMPILED_REFERENCE ??= compiledReferenceFresh() ? '1' : '0';
const compiled = process.env.CONFORMANCE_COMPILED_REFERENCE === '1' ? { compiled: { fromSources: coverage ? ['reference'] : [] } } : {};

/**
 * The embedded deployments (tools/embedded/deployments.ts): the reference, the other rostering
 * routing flows and the neighbour rostering services when the run includes the rostering suites,
 * and the deployment with a lowered maximum page size when the target declares it (loadTarget
 * leaves it out of runs without the limits suite). The target file must describe the flows built.
 */
function embeddedPlan(): Embedded {
  const declared = target.rostering?.flows ?? {};
  const withRostering = rosteringSelected(process.argv);
  const ports = (f: { dataApi: string; rostering: string } | undefined, name: string) => {
    if (!f) throw new Error(`the embedded reference's target file describes no ${name} routing flow`);
    return { dataApi: f.dataApi, rostering: f.rostering };
  };
  const plan = embeddedDeployments({
    configFile: embeddedConfig!,
    dataApiBaseUrl: target.dataApi.baseUrl,
    rosteringOrigin: (target.rostering?.baseUrl ?? target.dataApi.baseUrl.replace(/:(\d+)\/.*$/, (_, p: string) => `:${Number(p) + 1}`)).replace(/\/$/, ''),
    ...(withRostering ? { flows: { context: ports(declared.context, 'context'), tenant: ports(declared.tenant, 'tenant'), tenantContext: ports(declared.tenantContext, 'tenantContext') } } : {}),
    ...(declared.single?.secretsEnv ? { secretsEnv: declared.single.secretsEnv } : {}),
    ...(target.capabilities?.loweredPageSize ? { lowered: target.capabilities.loweredPageSize } : {}),
    ...(withRostering && target.rostering?.neighbours?.length ? { neighbours: target.rostering.neighbours, scopeBase: target.rostering.scopeBase ?? '' } : {}),
    privateKeyPem: process.env.CONFORMANCE_ISSUER_PRIVATE_KEY_PEM!,
    testIssuerPrivateKeyPem: process.env.CONFORMANCE_TEST_ISSUER_PRIVATE_KEY_PEM!,
    adminSecret: process.env.CONFORMANCE_ADMIN_SECRET!,
    ...compiled,
  });
  const built = withRostering ? plan.flows.description : { single: plan.flows.description.single };
  const got = withRostering ? declared : { single: declared.single };
  if (!describesBuilt(got, built)) throw new Error(`the embedded reference's target file describes other routing flows than those started:\n${JSON.stringify(built, null, 1)}`);
  // For the workers: the issuer's public key (rostering.issuerPublicKey.pemEnv) and the single flow's secrets.
  process.env.CONFORMANCE_ISSUER_PUBLIC_KEY_PEM = plan.flows.issuerPublicKeyPem;
  if (declared.single?.secretsEnv) process.env[declared.single.secretsEnv] = plan.flows.secrets.join('\n');
  return plan;
}

// The data standard the suites judge (decision 44), decided here once, before any test file is
// listed: generated tests are listed from the judged model, and every process must list the same
// tests, so the workers inherit the decision (suites/_harness/judged-model.ts reads it).
await decideStandardOnce(target, embeddedConfig);

await keys;
const embedded = isEmbeddedReference && !process.argv.includes('--list') ? embeddedPlan() : undefined;
// Workers by the round trip to the deployment, measured once (workers.ts).
const workers = await decideWorkersOnce(target, isEmbeddedReference);

export default defineConfig({
  testDir: './suites',
  testMatch: '**/*.spec.ts',
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  retries: 0,
  // --workers wins; else the target's `workers`, else by the round trip to the deployment (workers.ts).
  workers: workers.workers,
  // With many workers, the spec files in shares of their own workers, so that no worker loads and
  // warms up every file (shares.ts); one pool below ten workers.
  projects: shareProjectsOnce(workers.workers),
  timeout: 30_000,
  globalSetup: './suites/_harness/global-setup.ts',
  // The target (and its deviations) travel with blob reports, so a merge reports them.
  // So does each shard's number: a merge missing a shard's blob report says so (run-metadata.ts).
  metadata: { target: target.name, [RUN_METADATA_KEY]: runMetadata(), ...shardMetadata(shardOf(process.argv)) },
  // --list runs nothing: it must not overwrite the reports of the last run.
  reporter: process.argv.includes('--list') ? [['list']] : [
    // One line per test by default; CONFORMANCE_PROGRESS=dot (npm test, CI) prints dots and failures.
    [process.env.CONFORMANCE_PROGRESS ?? (process.env.CI ? 'dot' : 'list')],
    ['./suites/_harness/reporter/conformance-reporter.ts', { outputDir: reportsDir }],
    ['junit', { outputFile: `${reportsDir}/junit.xml` }],
    ['html', { outputFolder: `${reportsDir}/playwright`, open: 'never' }],
  ],
  use: { extraHTTPHeaders: { Accept: 'application/json' } },
  // The embedded deployments, started together by one launcher (tools/embedded/launch.ts); under
  // c8 (REFERENCE_COVERAGE=1) the reference writes its coverage when it exits on SIGTERM.
  webServer: embedded ? [{
    command: 'node --import tsx tools/embedded/launch.ts',
    wait: { stdout: new RegExp(READY_LINE) },
    timeout: 60_000,
    gracefulShutdown: { signal: 'SIGTERM' as const, timeout: 10_000 },
    env: { [LAUNCH_ENV]: JSON.stringify(embedded.processes.map((p): LaunchedProcess => ({
      name: p.name, argv: [...(coverage && p.name === 'reference' ? c8 : []), 'node', ...p.args], env: p.env, readyUrl: p.readyUrl,
    }))) },
    stdout: 'ignore' as const,
    stderr: 'pipe' as const,
  }] : undefined,
});
