import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import type { ClientCredentials, Target } from '../targets/types.js';
import { selects } from './selection.js';

/** The deployment under test, from the file named by TARGET (default: the embedded reference). */
export const DEFAULT_TARGET = fileURLToPath(new URL('../targets/reference.json', import.meta.url));
export const targetFile = resolve(process.env.TARGET || DEFAULT_TARGET);

/**
 * Target files of references the harness starts itself (playwright.config.ts), each with the
 * reference configuration it describes: the seed's neutral names and standard (4.0); the same
 * reference described as a vendor without its signing keys would (rostering by declared
 * clients); upstream's names with a store that already holds data, on 5.2; and the same on 6.1.
 * Any other target is a deployment someone else runs.
 */
export const EMBEDDED_TARGETS: Record<string, string> = {
  [DEFAULT_TARGET]: 'reference/config/conformance.json',
  [fileURLToPath(new URL('../targets/reference-keyless.json', import.meta.url))]: 'reference/config/conformance.json',
  [fileURLToPath(new URL('../targets/reference-upstream.json', import.meta.url))]: 'reference/config/conformance-upstream.json',
  [fileURLToPath(new URL('../targets/reference-6.1.json', import.meta.url))]: 'reference/config/conformance-6.1.json',
};
/** The reference configuration the harness starts for this target, if it is an embedded one. */
export const embeddedConfig: string | undefined = EMBEDDED_TARGETS[targetFile];
export const isEmbeddedReference = embeddedConfig !== undefined;

export interface ResolvedTarget extends Target {
  dataApi: Required<Omit<Target['dataApi'], 'dataStandard'>> & Pick<Target['dataApi'], 'dataStandard'>;
  testData: { namespacePrefix: string };
  /** `{base_url}/data/v3/<segment>` */
  dataRoot: string;
}

/**
 * Ports of an embedded reference: the data API's (REFERENCE_PORT, else the target file's), the
 * rostering service next to it, the rostering flows + 2 to + 7, and the deployment with a lowered
 * maximum page size + 8.
 */
export function embeddedPorts(dataApiBaseUrl: string): { data: number; rostering: number; lowered: number } {
  const data = process.env.REFERENCE_PORT ? Number(process.env.REFERENCE_PORT) : Number(new URL(dataApiBaseUrl).port);
  return { data, rostering: process.env.ROSTERING_PORT ? Number(process.env.ROSTERING_PORT) : data + 1, lowered: data + 8 };
}

/**
 * An embedded run whose file filters leave out the limits suite, the only one using the
 * deployment with a lowered maximum page size, does not start that deployment (3 s of every
 * small run): its capability then reads as undeclared. Decided from the command line of
 * Playwright's main process; its workers inherit the decision.
 */
const WITHOUT_LOWERED_ENV = 'CONFORMANCE_WITHOUT_LOWERED_PAGE_SIZE';
process.env[WITHOUT_LOWERED_ENV] ??= selects(process.argv, /limits/) ? '0' : '1';

export function loadTarget(file = targetFile): ResolvedTarget {
  const text = readFileSync(file, 'utf8');
  const raw = JSON.parse(text) as Target;
  validateOnce(file, text, raw);
  // Key files are named relative to the target file, as whoever wrote it reads them, not to
  // wherever the run is started (a wrong directory made 2–13 MUST rules fail, issue #24).
  const here = dirname(resolve(file));
  for (const key of [raw.rostering?.issuerPublicKey, raw.capabilities?.issuerSigningKey, raw.capabilities?.testIssuer]) {
    if (key?.pemFile) key.pemFile = resolve(here, key.pemFile);
  }
  // An embedded reference may be placed on other ports (REFERENCE_PORT) so runs can coexist: its
  // processes take ports from the file's data-API port up, and each moves by the same offset.
  if (EMBEDDED_TARGETS[resolve(file)] && (process.env.REFERENCE_PORT || process.env.ROSTERING_PORT)) {
    const filePort = Number(new URL(raw.dataApi.baseUrl).port);
    const ports = embeddedPorts(raw.dataApi.baseUrl);
    const moved = (url: string) => url.replace(/:(\d+)(\/|$)/, (m, p: string, end: string) =>
      Number(p) >= filePort && Number(p) < filePort + 20 ? `:${Number(p) + ports.data - filePort}${end}` : m);
    raw.dataApi.baseUrl = moved(raw.dataApi.baseUrl);
    const lowered = raw.capabilities?.loweredPageSize;
    if (lowered) lowered.baseUrl = moved(lowered.baseUrl);
    for (const flow of Object.values(raw.rostering?.flows ?? {})) {
      flow.dataApi = moved(flow.dataApi);
      flow.rostering = moved(flow.rostering);
    }
    for (const n of raw.rostering?.neighbours ?? []) {
      n.rostering = moved(n.rostering);
      if (n.issuer) n.issuer = moved(n.issuer);
      if (n.audience) n.audience = moved(n.audience);
    }
    // The rostering service sits beside the data API (ROSTERING_PORT, else + 1).
    const rosteringAt = (url: string) => url.replace(/:\d+(\/|$)/, `:${ports.rostering}$1`);
    if (raw.rostering) raw.rostering.baseUrl = rosteringAt(raw.rostering.baseUrl);
    const single = raw.rostering?.flows?.single;
    if (single) single.rostering = rosteringAt(single.rostering);
  }
  if (EMBEDDED_TARGETS[resolve(file)] && process.env[WITHOUT_LOWERED_ENV] === '1') delete raw.capabilities?.loweredPageSize;
  return resolveTarget(raw);
}

/**
 * The text of the target file Playwright's main process found valid, by its hash: its workers
 * inherit the variable and skip the check. Compiling the schema's validator cost each worker
 * 0.2 s of CPU, twenty-four of them at once when a distant deployment runs twenty-four workers.
 */
const VALIDATED_ENV = 'CONFORMANCE_TARGET_VALIDATED';

function validateOnce(file: string, text: string, raw: Target): void {
  const hash = createHash('sha256').update(text).digest('hex');
  if (process.env[VALIDATED_ENV] === hash) return;
  const schema = JSON.parse(readFileSync(new URL('../../spec/schemas/target.schema.json', import.meta.url), 'utf8')) as object;
  const validate = new Ajv({ strict: false, allErrors: true }).compile(schema);
  if (!validate(raw)) throw new Error(`target ${file} is invalid: ${(validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`).join('; ')}`);
  if (resolve(file) === targetFile) process.env[VALIDATED_ENV] = hash;
}

/** A target with its defaults filled in (for a target file already read and validated). */
export function resolveTarget(raw: Target): ResolvedTarget {
  const dataApi = {
    namespaceSegment: 'core',
    errorTypePrefix: 'urn:core:api:',
    mediaTypeVendor: 'core',
    pageSizeMaximum: 500,
    tokenLifetimeSeconds: 1800,
    tokenExpiryLeewaySeconds: 0,
    ...raw.dataApi,
    baseUrl: raw.dataApi.baseUrl.replace(/\/$/, ''),
  };
  // The seed writes scopes `{scope_base}/<name>`: a declared base is taken with or without its
  // slash (without it, every rostering client used to read 'scopes are [X], declared [X]').
  const scopeBase = raw.rostering?.scopeBase;
  const rostering = raw.rostering && scopeBase && !scopeBase.endsWith('/') ? { ...raw.rostering, scopeBase: `${scopeBase}/` } : raw.rostering;
  return {
    ...raw,
    ...(rostering ? { rostering } : {}),
    dataApi,
    testData: { namespacePrefix: raw.testData?.namespacePrefix ?? 'uri://conformance.test' },
    dataRoot: `${dataApi.baseUrl}/data/v3/${dataApi.namespaceSegment}`,
  };
}

/** Literal credentials, or the named environment variables; undefined when not available. */
/** The environment variables a client's credentials name that are not set (to say so, not crash). */
export function unsetCredentialVariables(c: ClientCredentials | undefined): string[] {
  if (!c) return [];
  return [c.key === undefined ? c.keyEnv : undefined, c.secret === undefined ? c.secretEnv : undefined]
    .filter((v): v is string => !!v && !process.env[v]);
}

export function credentials(c: ClientCredentials | undefined): { key: string; secret: string } | undefined {
  if (!c) return undefined;
  const key = c.key ?? (c.keyEnv ? process.env[c.keyEnv] : undefined);
  const secret = c.secret ?? (c.secretEnv ? process.env[c.secretEnv] : undefined);
  return key && secret ? { key, secret } : undefined;
}

export const target = loadTarget();
