/**
 * The embedded deployments: every reference process a conformance run against the embedded
 * reference needs, described by one typed function, so that playwright.config.ts (which starts
 * them as web servers) and the strength tool (which starts them itself, behind its proxy) start
 * the same things the same way, and the suites never import the reference.
 *
 * - the reference (data API and the single flow's rostering service), with the configuration file;
 * - one process per other rostering routing flow (flows.ts), when asked for;
 * - a deployment whose host lowered the maximum page size (capability loweredPageSize);
 * - the neighbour rostering services (target `rostering.neighbours`), in one process.
 */
import { createPublicKey } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { staleCompiledFile } from '../../reference/build-freshness.js';
import { buildFlows, type BuiltFlows, type FlowPorts } from './flows.js';
import { NEIGHBOURS_ENV, type NeighboursPlan } from './neighbours-plan.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

export interface EmbeddedProcess {
  name: string;
  /** Node's arguments, from the project root (a TypeScript entry through tsx, or the compiled reference). */
  args: string[];
  env: Record<string, string>;
  /** Answers 200 once the process is ready. */
  readyUrl: string;
}

export interface EmbeddedOptions {
  /** The reference configuration every process but the neighbours reads (`reference/config/…`). */
  configFile: string;
  /** `{base_url}` of the main data API, and the origin of its rostering service. */
  dataApiBaseUrl: string;
  rosteringOrigin: string;
  /** The other routing flows, where wanted: each one's data API and rostering URLs. */
  flows?: { context: FlowPorts; tenant: FlowPorts; tenantContext: FlowPorts };
  /** The single flow's secrets variable, as the target names it (`rostering.flows.single.secretsEnv`). */
  secretsEnv?: string;
  lowered?: { baseUrl: string; pageSizeMaximum: number };
  neighbours?: { rostering: string; issuer?: string; audience?: string }[];
  /** The scope base the neighbours require (the target's `rostering.scopeBase`). */
  scopeBase?: string;
  privateKeyPem: string;
  testIssuerPrivateKeyPem?: string;
  /** The admin credential's secret (key `conformance-admin`); none: no admin endpoints. */
  adminSecret?: string;
  /**
   * Run the reference processes compiled (`dist/`, what `npm start` runs) rather than through
   * tsx, but those named in `fromSources` (a process under c8, whose coverage names the sources).
   * Only where the build is fresh (compiledReferenceFresh): each process then starts on about
   * half a second less CPU, and its requests skip tsx's helpers.
   */
  compiled?: { fromSources?: string[] };
}

/**
 * Whether the compiled reference exists and is as new as every source it was built from. Not
 * there (a checkout without `npm ci`, a mutation sandbox) or older (sources edited since the
 * build, or mutated): the processes run from the sources, as the code under test.
 */
export function compiledReferenceFresh(repository: string = root): boolean {
  return existsSync(`${repository}dist/reference/main.js`) && staleCompiledFile(repository) === undefined;
}

export interface Embedded {
  processes: EmbeddedProcess[];
  flows: BuiltFlows;
}

/**
 * The `iss` and `aud` a configuration's token endpoint issues when it names them (`issuer.issuer`,
 * `issuer.audience`): every deployment of it then shares that value, as deployments behind one
 * identity provider, or of one API, often do. Left out: each its own data API and rostering origin.
 */
export function issuerNames(configFile: string): { issuer?: string; audience?: string } {
  return (JSON.parse(readFileSync(`${root}${configFile}`, 'utf8')) as { issuer?: { issuer?: string; audience?: string } }).issuer ?? {};
}

const portOf = (url: string) => new URL(url).port;
const publicKeyOf = (privatePem: string) => createPublicKey(privatePem).export({ type: 'spki', format: 'pem' }).toString();

export function embeddedDeployments(o: EmbeddedOptions): Embedded {
  const basePath = new URL(o.dataApiBaseUrl).pathname.replace(/\/$/, '');
  const names = issuerNames(o.configFile);
  const testIssuerPublicKeyPem = o.testIssuerPrivateKeyPem ? publicKeyOf(o.testIssuerPrivateKeyPem) : undefined;
  const flows = buildFlows({
    ports: { singleRostering: o.rosteringOrigin, ...(o.flows ?? {}) },
    dataApiBaseUrl: o.dataApiBaseUrl, basePath, privateKeyPem: o.privateKeyPem, issuerNames: names,
    ...(testIssuerPublicKeyPem ? { testIssuerPublicKeyPem } : {}),
    ...(o.secretsEnv ? { secretsEnv: o.secretsEnv } : {}),
  });
  const entry = (name: string) => (o.compiled && !o.compiled.fromSources?.includes(name) ? ['dist/reference/main.js'] : ['--import', 'tsx', 'reference/main.ts']);
  const reference = (name: string, dataPort: string, rosteringPort: string, env: Record<string, string>): EmbeddedProcess => ({
    name,
    args: [...entry(name), '--config', o.configFile],
    env: { REFERENCE_ISSUER_PRIVATE_KEY_PEM: o.privateKeyPem, REFERENCE_PORT: dataPort, ROSTERING_PORT: rosteringPort, ...env },
    readyUrl: `${o.rosteringOrigin.replace(/:\d+$/, `:${rosteringPort}`)}/health-check`,
  });
  const processes: EmbeddedProcess[] = [{
    ...reference('reference', portOf(o.dataApiBaseUrl), portOf(o.rosteringOrigin), {
      ...(o.adminSecret ? { REFERENCE_ADMIN_KEY: 'conformance-admin', REFERENCE_ADMIN_SECRET: o.adminSecret } : {}),
      ...flows.defaultEnv,
    }),
    readyUrl: `${o.dataApiBaseUrl}/`,
  }];
  // The other flows and the lowered deployment: empty in-memory stores of their own. They are
  // asked a few operations each, so they compile only those validators (warming all of them cost
  // each ~1.3 s of CPU at start-up, competing with the tests).
  const side = { REFERENCE_DATA_STORE: 'memory:default', REFERENCE_WARM_VALIDATORS: 'false' };
  for (const s of flows.servers) processes.push(reference(s.name, String(s.dataPort), String(s.rosteringPort), { ...side, ...s.env }));
  if (o.lowered) {
    const port = Number(portOf(o.lowered.baseUrl));
    processes.push({
      ...reference('lowered', String(port), String(port + 1), { ...side, REFERENCE_PAGE_SIZE_LIMIT: String(o.lowered.pageSizeMaximum) }),
      readyUrl: `${o.lowered.baseUrl}/`,
    });
  }
  if (o.neighbours?.length) {
    const plan: NeighboursPlan = {
      scopeBase: o.scopeBase ?? '',
      neighbours: o.neighbours.map((n) => ({ rostering: n.rostering, issuer: n.issuer ?? names.issuer ?? o.dataApiBaseUrl, audience: n.audience ?? names.audience ?? o.rosteringOrigin })),
    };
    processes.push({
      name: 'neighbours',
      args: ['--import', 'tsx', 'tools/embedded/neighbours.ts'],
      env: {
        [NEIGHBOURS_ENV]: JSON.stringify(plan),
        CONFORMANCE_ISSUER_PRIVATE_KEY_PEM: o.privateKeyPem,
        ...(o.testIssuerPrivateKeyPem ? { CONFORMANCE_TEST_ISSUER_PRIVATE_KEY_PEM: o.testIssuerPrivateKeyPem } : {}),
      },
      readyUrl: `${o.neighbours[o.neighbours.length - 1].rostering}/health-check`,
    });
  }
  return { processes, flows };
}
