import { httpClient, type HttpClient } from '../http.js';
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { after, before, test } from 'node:test';
import { startInProcess, type ReferenceConfig } from '../../../tools/embedded/in-process.js';
import type { Target } from '../../targets/types.js';
import { JUDGED_STANDARD_ENV, declaredStandard } from '../data-standard.js';
import { preflight, preflightMessage } from '../preflight.js';
import { resolveTarget } from '../target.js';

/**
 * The preflight against a reference configured like the embedded one: the reference's own
 * target passes with a token per client and the store digest; each wrong declaration is named
 * by its field, alone.
 */
const pem = (key: ReturnType<typeof generateKeyPairSync>['privateKey']) => key.export({ type: 'pkcs8', format: 'pem' }).toString();
const issuerKey = pem(generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey);
const foreignKey = pem(generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey);
process.env.PREFLIGHT_TEST_ADMIN_SECRET = 'admin-secret';
process.env.PREFLIGHT_TEST_ISSUER_KEY = issuerKey;
process.env.PREFLIGHT_TEST_FOREIGN_KEY = foreignKey;

const conformance = JSON.parse(readFileSync(new URL('../../../reference/config/conformance.json', import.meta.url), 'utf8')) as ReferenceConfig;
const referenceTarget = JSON.parse(readFileSync(new URL('../../targets/reference.json', import.meta.url), 'utf8')) as Target;

let ref: Awaited<ReturnType<typeof startInProcess>>;
let ctx: HttpClient;
let base: Target;

before(async () => {
  ref = await startInProcess({
    clients: conformance.clients, profiles: conformance.profiles,
    admin: { key: 'admin', secret: 'admin-secret' },
    issuer: { privateKeyPem: issuerKey },
  });
  ctx = httpClient();
  const admin = { key: 'admin', secretEnv: 'PREFLIGHT_TEST_ADMIN_SECRET' };
  const caps = referenceTarget.capabilities!;
  base = {
    ...referenceTarget,
    dataApi: { ...referenceTarget.dataApi, baseUrl: ref.dataApiBaseUrl },
    rostering: { baseUrl: ref.rosteringBaseUrl },
    capabilities: {
      ...caps,
      issuerSigningKey: { pemEnv: 'PREFLIGHT_TEST_ISSUER_KEY' },
      snapshotAdmin: { ...caps.snapshotAdmin!, ...admin },
      storeDigest: { ...caps.storeDigest!, ...admin },
      systemErrorTrigger: { ...caps.systemErrorTrigger!, ...admin },
      // The same deployment stands in for the second one: the preflight only reaches it.
      loweredPageSize: { baseUrl: ref.dataApiBaseUrl, pageSizeMaximum: 25 },
      interfaceDescription: { url: 'metadata/' },
    },
  };
});

after(async () => {
  await ctx?.dispose();
  await ref?.close();
});

/** The base target with some members replaced (a path like `capabilities.profile.name`). */
function targetWith(changes: Record<string, unknown>): Target {
  const t = structuredClone(base) as unknown as Record<string, unknown>;
  for (const [path, value] of Object.entries(changes)) {
    const keys = path.split('.');
    let at = t;
    for (const k of keys.slice(0, -1)) at = at[k] as Record<string, unknown>;
    if (value === undefined) delete at[keys.at(-1)!];
    else at[keys.at(-1)!] = value;
  }
  return t as unknown as Target;
}

const run = (t: Target) => preflight(ctx, resolveTarget(t));

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

test('preflight: the reference\'s own target passes, with a token per client (not the short-lived one\'s) and the store digest', async () => {
  const outcome = await run(base);
  assert.deepEqual(outcome.problems, []);
  // The short-lived client's token would be expired before its tests run: they fetch their own.
  assert.ok(base.clients.shortLived, 'the reference target declares a short-lived client');
  assert.deepEqual(Object.keys(outcome.tokens).sort(), ['namespaceLimited', 'primary', 'profiled', 'schoolLimited']);
  assert.match(outcome.digest ?? '', /sha256/);
  // Which standard it found and where, and what is judged (the reference's default, 4.0).
  assert.match(outcome.standard ?? '', /^data standard: 4\.0 \(discovery's dataModels: Core 4\.0\.0\); judged by Data Standard 4\.0$/);
});

test('preflight: a wrong namespace segment stops at that step with one message naming dataApi.namespaceSegment', async () => {
  const outcome = await run(targetWith({ 'dataApi.namespaceSegment': 'ed-fi' }));
  // Stopped there, whatever the machine's speed: the last step (the store digest) never ran.
  assert.equal(outcome.digest, undefined);
  assert.deepEqual(outcome.problems.map((p) => p.field), ['dataApi.namespaceSegment']);
  assert.match(preflightMessage(outcome.problems), /^preflight failed: dataApi\.namespaceSegment: GET .*\/data\/v3\/ed-fi\/.* answered 404/);
});

/** Each wrong declaration, and the one field the preflight must name for it. */
const cases: [string, () => Promise<Record<string, unknown>> | Record<string, unknown>, string][] = [
  ['an unreachable base URL', async () => ({ 'dataApi.baseUrl': `http://127.0.0.1:${await closedPort()}/v7.3/api` }), 'dataApi.baseUrl'],
  ['a base URL with no token endpoint', () => ({ 'dataApi.baseUrl': `${ref.dataApiBaseUrl}/nothing` }), 'dataApi.baseUrl'],
  ['an unreachable rostering service', async () => ({ 'rostering.baseUrl': `http://127.0.0.1:${await closedPort()}` }), 'rostering.baseUrl'],
  ['a wrong secret of a secondary client', () => ({ 'clients.profiled': { key: 'conformance-profiled', secret: 'wrong' } }), 'clients.profiled'],
  ['a wrong secret of the short-lived client', () => ({ 'clients.shortLived': { key: 'conformance-short-lived', secret: 'wrong', tokenLifetimeSeconds: 4 } }), 'clients.shortLived'],
  ['a short-lived client\'s second deployment with no token endpoint', () => ({ 'clients.shortLived': { key: 'conformance-short-lived', secret: 'conformance-short-lived-secret', tokenLifetimeSeconds: 4, baseUrl: `${ref.dataApiBaseUrl}/nothing` } }), 'clients.shortLived.baseUrl'],
  ['an unset primary secret variable', () => ({ 'clients.primary': { key: 'conformance-primary', secretEnv: 'PREFLIGHT_TEST_UNSET' } }), 'clients.primary.secretEnv'],
  ['upstream\'s problem-type prefix', () => ({ 'dataApi.errorTypePrefix': 'urn:ed-fi:api:' }), 'dataApi.errorTypePrefix'],
  ['a namespace prefix the primary client does not own', () => ({ testData: { namespacePrefix: 'uri://yours.test' } }), 'testData.namespacePrefix'],
  ['a namespace prefix the namespace-limited client does not own', () => ({ 'capabilities.namespaceLimited.namespacePrefix': 'uri://third.test' }), 'capabilities.namespaceLimited.namespacePrefix'],
  ['a namespace-limited capability without its client', () => ({ 'clients.namespaceLimited': undefined, 'capabilities.permissionLimits': undefined }), 'clients.namespaceLimited'],
  ['school ids the school-limited client does not claim', () => ({ 'capabilities.schoolLimited.schoolIds': [90000101, 90000199] }), 'capabilities.schoolLimited.schoolIds'],
  ['a profile the profiled client is not assigned', () => ({ 'capabilities.profile.name': 'Other-Profile' }), 'capabilities.profile.name'],
  ['a profile resource not in the data standard', () => ({ 'capabilities.profile.resource': 'absenceEventCategoryDescriptors' }), 'capabilities.profile.resource'],
  ['a permission-limited client role not declared', () => ({ 'capabilities.permissionLimits.client': 'nobody' }), 'capabilities.permissionLimits.client'],
  ['a denied resource that is no endpoint', () => ({ 'capabilities.permissionLimits.deniedResource': 'studentz' }), 'capabilities.permissionLimits.deniedResource'],
  ['an unrestricted client role not declared', () => ({ 'capabilities.unrestrictedClient': 'nobody' }), 'capabilities.unrestrictedClient'],
  ['an extension on a resource not in the data standard', () => ({ 'capabilities.extension.resource': 'credentials' }), 'capabilities.extension.resource'],
  ['an interface description URL that does not answer', () => ({ 'capabilities.interfaceDescription.url': 'metadata/nothing.json' }), 'capabilities.interfaceDescription.url'],
  ['a snapshot hook with a wrong secret', () => ({ 'capabilities.snapshotAdmin': { url: 'admin/snapshot', key: 'admin', secret: 'wrong' } }), 'capabilities.snapshotAdmin'],
  ['a snapshot hook URL that is not there', () => ({ 'capabilities.snapshotAdmin.url': 'admin/snapshots' }), 'capabilities.snapshotAdmin.url'],
  ['a store digest URL that is not there', () => ({ 'capabilities.storeDigest.url': 'admin/digests' }), 'capabilities.storeDigest'],
  ['an unset fault-trigger secret variable', () => ({ 'capabilities.systemErrorTrigger.secretEnv': 'PREFLIGHT_TEST_UNSET' }), 'capabilities.systemErrorTrigger'],
  ['an issuer key that is not the issuer\'s', () => ({ 'capabilities.issuerSigningKey.pemEnv': 'PREFLIGHT_TEST_FOREIGN_KEY' }), 'capabilities.issuerSigningKey.pemEnv'],
  ['an issuer key file that is not there', () => ({ 'capabilities.issuerSigningKey': { pemFile: '/nonexistent/key.pem' } }), 'capabilities.issuerSigningKey.pemFile'],
  ['an unreachable lowered-page-size deployment', async () => ({ 'capabilities.loweredPageSize.baseUrl': `http://127.0.0.1:${await closedPort()}/v7.3/api` }), 'capabilities.loweredPageSize.baseUrl'],
  ['a lowered-page-size deployment where the primary client gets no token', () => ({ 'capabilities.loweredPageSize.baseUrl': `${ref.dataApiBaseUrl}/nothing` }), 'capabilities.loweredPageSize.baseUrl'],
  // Issue #24 point 3: the declaration mistakes that were reported as the deployment's failures.
  ['a maximum page size above the deployment\'s (500)', () => ({ 'dataApi.pageSizeMaximum': 501 }), 'dataApi.pageSizeMaximum'],
  ['a maximum page size below the deployment\'s (500)', () => ({ 'dataApi.pageSizeMaximum': 499 }), 'dataApi.pageSizeMaximum'],
  ['upstream\'s media-type vendor word on a deployment saying core', () => ({ 'dataApi.mediaTypeVendor': 'ed-fi' }), 'dataApi.mediaTypeVendor'],
  ['a rostering base URL holding the service\'s path', () => ({ 'rostering.baseUrl': `${ref.rosteringBaseUrl}/std/roster/rostering/v1p2` }), 'rostering.baseUrl'],
  ['a rostering base URL naming a collection', () => ({ 'rostering.baseUrl': `${ref.rosteringBaseUrl}/std/roster/rostering/v1p2/orgs` }), 'rostering.baseUrl'],
];

for (const [what, changes, field] of cases) {
  test(`preflight: ${what} is named by ${field} alone`, async () => {
    const outcome = await run(targetWith(await changes()));
    assert.deepEqual(outcome.problems.map((p) => p.field), [field], preflightMessage(outcome.problems));
  });
}

test('preflight: a deployment serving another standard than the run\'s tests were listed for is named by dataApi.dataStandard alone', async () => {
  // The run decided 6.1 (playwright.config.ts); the reference here serves its default, 4.0.
  process.env[JUDGED_STANDARD_ENV] = JSON.stringify(declaredStandard('6.1'));
  try {
    const outcome = await run(base);
    assert.deepEqual(outcome.problems.map((p) => p.field), ['dataApi.dataStandard']);
    assert.match(preflightMessage(outcome.problems), /tests were listed for 6\.1 .*; judged by Data Standard 6\.1, but the deployment now says 4\.0 \(discovery's dataModels: Core 4\.0\.0\); judged by Data Standard 4\.0/);
  } finally {
    delete process.env[JUDGED_STANDARD_ENV];
  }
});

test('preflight: a declared standard the run was listed for passes this step, whatever discovery says', async () => {
  process.env[JUDGED_STANDARD_ENV] = JSON.stringify(declaredStandard('4.0'));
  try {
    const outcome = await run(targetWith({ 'dataApi.dataStandard': '4.0' }));
    assert.ok(!outcome.problems.some((p) => p.field === 'dataApi.dataStandard'), preflightMessage(outcome.problems));
  } finally {
    delete process.env[JUDGED_STANDARD_ENV];
  }
});
