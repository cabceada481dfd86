import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import type { ClientCredentials, Target } from '../targets/types.js';

/** The deployment under test, from the file named by TARGET (default: the embedded reference). */
export const DEFAULT_TARGET = fileURLToPath(new URL('../targets/reference.json', import.meta.url));
export const targetFile = process.env.TARGET || DEFAULT_TARGET;
/** The embedded reference: the default target, or a target file saying it describes it (`embeddedReference`). */
export const isEmbeddedReference = !process.env.TARGET || targetFile === DEFAULT_TARGET
  || (JSON.parse(readFileSync(targetFile, 'utf8')) as Target).embeddedReference === true;

export interface ResolvedTarget extends Target {
  dataApi: Required<Target['dataApi']>;
  testData: { namespacePrefix: string };
  /** `{base_url}/data/v3/<segment>` */
  dataRoot: string;
}

/**
 * Port of the embedded reference's second deployment, the one with a lowered maximum page size:
 * REFERENCE_PORT + 8 (the rostering flows take + 2 to + 7), 18088 by default.
 */
export function loweredPageSizePort(): number {
  return (process.env.REFERENCE_PORT ? Number(process.env.REFERENCE_PORT) : 18080) + 8;
}

export function loadTarget(file = targetFile): ResolvedTarget {
  const raw = JSON.parse(readFileSync(file, 'utf8')) as Target;
  const schema = JSON.parse(readFileSync(new URL('../../spec/schemas/target.schema.json', import.meta.url), 'utf8')) as object;
  const validate = new Ajv({ strict: false, allErrors: true }).compile(schema);
  if (!validate(raw)) throw new Error(`target ${file} is invalid: ${(validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`).join('; ')}`);
  // The embedded reference may be placed on another port (REFERENCE_PORT) so runs can coexist.
  if ((file === DEFAULT_TARGET || raw.embeddedReference) && process.env.REFERENCE_PORT) {
    raw.dataApi.baseUrl = raw.dataApi.baseUrl.replace(/:\d+\//, `:${process.env.REFERENCE_PORT}/`);
    const lowered = raw.capabilities?.loweredPageSize;
    if (lowered) lowered.baseUrl = lowered.baseUrl.replace(/:\d+\//, `:${loweredPageSizePort()}/`);
    // Its processes take 18080 .. 18089: each moves by the same offset.
    const moved = (url: string) => url.replace(/:(180[89]\d)(\/|$)/, (_, p: string, end: string) => `:${Number(process.env.REFERENCE_PORT) + Number(p) - 18080}${end}`);
    for (const flow of Object.values(raw.rostering?.flows ?? {})) {
      flow.dataApi = moved(flow.dataApi);
      flow.rostering = moved(flow.rostering);
    }
    for (const n of raw.rostering?.neighbours ?? []) {
      n.rostering = moved(n.rostering);
      if (n.issuer) n.issuer = moved(n.issuer);
      if (n.audience) n.audience = moved(n.audience);
    }
    const single = raw.rostering?.flows?.single;
    if (single && process.env.ROSTERING_PORT) single.rostering = single.rostering.replace(/:\d+$/, `:${process.env.ROSTERING_PORT}`);
  }
  const dataApi = {
    namespaceSegment: 'core',
    errorTypePrefix: 'urn:core:api:',
    mediaTypeVendor: 'core',
    pageSizeMaximum: 500,
    ...raw.dataApi,
    baseUrl: raw.dataApi.baseUrl.replace(/\/$/, ''),
  };
  return {
    ...raw,
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
