import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { Ajv } from 'ajv';
import schema from '../../spec/schemas/reference-config.schema.json' with { type: 'json' };
import { normalizeScopeBase } from '../rostering/config.js';
import type { Rate } from '../http/rate-limit.js';
import { hashSecret } from '../security/secrets.js';
import { DEFAULT_CLOCK_SKEW_SECONDS } from '../security/token-time.js';
import { NAMING_PROFILES, type NamingProfile } from '../../spec/naming/profiles.js';
import type { DataStandard } from '../../spec/model/upstream.js';
import type { AdminConfig, ClientConfig, PermissionSet, ProfileConfig, ReferenceConfig } from './types.js';

/** A client as the running reference keeps it: the secret only as a hash. */
export interface Client {
  key: string;
  secretHash: string;
  permissionSet: PermissionSet;
  namespacePrefixes: string[];
  educationOrganizationIds: number[];
  profiles: string[];
  rosterScopes: string[];
  odsInstances: { id: number; context?: { key: string; value: string } }[];
  tenant?: string;
  /** Its own token lifetime, when it has one (else the settings' tokenLifetimeSeconds). */
  tokenLifetimeSeconds?: number;
  /** Most records it may hold in a data store (its own, else the configured recordQuota); none: no limit. */
  recordQuota?: number;
}

export interface Settings {
  port: number;
  rosteringPort: number;
  host: string;
  basePath: string;
  /** Origin of the configured public base URL (its path is basePath). */
  publicOrigin?: string;
  /** Host names (lower case, IPv6 without brackets) answered besides the listening address when there is no public origin. */
  allowedHosts: string[];
  tokenLifetimeSeconds: number;
  tokenClockSkewSeconds: number;
  /** Without a trailing slash; empty for bare scope names. */
  /** The API's names (namespace segment, problem-type prefix ...); the scope base without a trailing slash. */
  naming: NamingProfile;
  pageSizeLimit: number;
  /** The data standard served; absent: the seed's, 4.0 (types.ts `dataStandard`). */
  dataStandard?: DataStandard;
  /** Resources that accept `_ext` besides the standard's own (types.ts `extensionResources`). */
  extensionResources: string[];
  schoolYears: { min: number; max: number };
  issuer: { issuer?: string; audience?: string; privateKeyPem?: string };
  clients: Client[];
  admin?: { key: string; secretHash: string; loopbackOnly: boolean };
  demoData: boolean;
  preloadSchoolYears: boolean;
  warmValidators: boolean;
  dataStore: string;
  journalFsync: boolean;
  journalCompactEvery: number;
  recoverJournal: boolean;
  maxBodyBytes: number;
  adminDatabase: string;
  tenants: { [tenant: string]: { adminDatabase: string } };
  connectionStringEncryptionKey?: string;
  rateLimit?: Rate;
  connections: { headersTimeoutMs: number; requestTimeoutMs: number; keepAliveTimeoutMs: number };
  throttle: { tokenFailuresPerKey: Rate; tokenFailuresPerAddress: Rate; rosteringFailuresPerAddress: Rate; adminFailuresPerAddress: Rate };
  profiles: ProfileConfig[];
  /** Set when the demo client's secret was generated here, so that start-up can print it once. */
  generatedDemoSecret?: string;
}

export class ConfigError extends Error {}

const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);

/** Reads and validates a configuration file (or none) and fills in every default. */
export function loadSettings(file?: string, overrides: Partial<ReferenceConfig> = {}): Settings {
  let config: ReferenceConfig = {};
  if (file) {
    try {
      config = JSON.parse(readFileSync(file, 'utf8')) as ReferenceConfig;
    } catch (err) {
      throw new ConfigError(`cannot read configuration ${file}: ${(err as Error).message}`);
    }
  }
  config = { ...config, ...overrides };
  // REFERENCE_PAGE_SIZE_LIMIT lets a harness start a deployment with a lowered maximum page size
  // from the same file; it is validated like the file's value.
  if (process.env.REFERENCE_PAGE_SIZE_LIMIT) config.pageSizeLimit = Number(process.env.REFERENCE_PAGE_SIZE_LIMIT);
  // REFERENCE_WARM_VALIDATORS=false: a harness's side deployments (the other routing flows, the
  // lowered page size) compile the validators of the few operations they are asked, not of all.
  // Other text than true or false is refused by validation, as the file's would be.
  const warm = process.env.REFERENCE_WARM_VALIDATORS;
  if (warm) config.warmValidators = warm === 'true' ? true : warm === 'false' ? false : (warm as unknown as boolean);
  if (!validate(config)) {
    // An enumeration names what it allows (`/dataStandard must be equal to one of the allowed values: 4.0, 5.2, 6.1`).
    const allowed = (e: { params: Record<string, unknown> }) => (Array.isArray(e.params.allowedValues) ? `: ${e.params.allowedValues.join(', ')}` : '');
    const why = (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}${allowed(e)}`).join('; ');
    throw new ConfigError(`invalid configuration${file ? ` ${file}` : ''}: ${why}`);
  }
  let generatedDemoSecret: string | undefined;
  let clientConfigs: ClientConfig[] = config.clients ?? [];
  if (!clientConfigs.length) {
    generatedDemoSecret = randomBytes(12).toString('base64url');
    // The demo client's claim names the demo state agency, so rostering reads see every school.
    clientConfigs = [{ key: 'demo-client', secret: generatedDemoSecret, permissionSet: 'unrestricted', educationOrganizationIds: [255900], rosterScopes: ['roster-core.readonly', 'roster-demographics.readonly'], odsInstances: [{ id: 1 }] }];
  }
  const clients = clientConfigs.map((c): Client => {
    const secretHash = c.secretHash ?? (c.secret !== undefined ? hashSecret(c.secret) : undefined);
    if (!secretHash) throw new ConfigError(`client ${c.key} has neither secret nor secretHash`);
    return {
      key: c.key,
      secretHash,
      permissionSet: c.permissionSet ?? 'unrestricted',
      namespacePrefixes: c.namespacePrefixes ?? [],
      educationOrganizationIds: c.educationOrganizationIds ?? [],
      profiles: c.profiles ?? [],
      rosterScopes: c.rosterScopes ?? [],
      odsInstances: c.odsInstances ?? [{ id: 1 }],
      ...(c.tenant ? { tenant: c.tenant } : {}),
      ...(c.tokenLifetimeSeconds ? { tokenLifetimeSeconds: c.tokenLifetimeSeconds } : {}),
      ...((c.recordQuota ?? config.recordQuota) !== undefined ? { recordQuota: c.recordQuota ?? config.recordQuota } : {}),
    };
  });
  if ((config.connections?.headersTimeoutMs ?? 20_000) > (config.connections?.requestTimeoutMs ?? 60_000)) throw new ConfigError('connections.headersTimeoutMs must not exceed connections.requestTimeoutMs');
  const keys = new Set<string>();
  for (const c of clients) {
    if (keys.has(c.key)) throw new ConfigError(`client key ${c.key} is configured twice`);
    keys.add(c.key);
  }
  return {
    // REFERENCE_PORT lets several runs (or a harness) place the reference without a new file;
    // a port given by the caller in code (tests pass 0 for a free one) wins over it.
    port: overrides.port ?? (process.env.REFERENCE_PORT ? Number(process.env.REFERENCE_PORT) : config.port ?? 8080),
    rosteringPort: overrides.rosteringPort ?? (process.env.ROSTERING_PORT ? Number(process.env.ROSTERING_PORT) : process.env.REFERENCE_PORT ? (Number(process.env.REFERENCE_PORT) && Number(process.env.REFERENCE_PORT) + 1) : config.rosteringPort ?? 8081), // ROSTERING_PORT, else next to REFERENCE_PORT, so parallel runs never share one
    host: config.host ?? '127.0.0.1',
    basePath: (config.basePath ?? '/v7.3/api').replace(/\/$/, ''),
    ...publicOriginOf(config),
    allowedHosts: allowedHostsOf(config),
    tokenLifetimeSeconds: config.tokenLifetimeSeconds ?? 1800,
    tokenClockSkewSeconds: config.tokenClockSkewSeconds ?? DEFAULT_CLOCK_SKEW_SECONDS,
    ...namingOf(config),
    pageSizeLimit: config.pageSizeLimit ?? 500,
    ...(config.dataStandard ? { dataStandard: config.dataStandard } : {}),
    extensionResources: config.extensionResources ?? [],
    schoolYears: config.schoolYears ?? { min: 1991, max: 2050 },
    // The issuer key may come from the environment, so that test harnesses can sign tokens too.
    issuer: { ...(config.issuer ?? {}), ...(process.env.REFERENCE_ISSUER_PRIVATE_KEY_PEM ? { privateKeyPem: process.env.REFERENCE_ISSUER_PRIVATE_KEY_PEM } : {}) },
    clients,
    ...adminOf(config),
    demoData: config.demoData ?? false,
    preloadSchoolYears: config.preloadSchoolYears ?? false,
    warmValidators: config.warmValidators ?? true,
    dataStore: process.env.REFERENCE_DATA_STORE ?? config.dataStore ?? 'memory:default',
    journalFsync: config.journalFsync ?? false,
    journalCompactEvery: config.journalCompactEvery ?? 20_000,
    recoverJournal: config.recoverJournal ?? false,
    maxBodyBytes: config.maxBodyBytes ?? 4 * 1024 * 1024,
    adminDatabase: config.adminDatabase ?? 'memory:default',
    tenants: config.tenants ?? {},
    ...(config.connectionStringEncryptionKey ? { connectionStringEncryptionKey: config.connectionStringEncryptionKey } : {}),
    ...(config.rateLimit ? { rateLimit: config.rateLimit } : {}),
    connections: {
      headersTimeoutMs: config.connections?.headersTimeoutMs ?? 20_000,
      requestTimeoutMs: config.connections?.requestTimeoutMs ?? 60_000,
      keepAliveTimeoutMs: config.connections?.keepAliveTimeoutMs ?? 5_000,
    },
    // Generous enough that a conformance run (tokens fetched once per client, a few wrong
    // secrets on purpose) never meets them; tight enough that a flood is cheap to refuse.
    throttle: {
      tokenFailuresPerKey: config.throttle?.tokenFailuresPerKey ?? { requestsPerSecond: 1, burst: 20 },
      tokenFailuresPerAddress: config.throttle?.tokenFailuresPerAddress ?? { requestsPerSecond: 5, burst: 50 },
      rosteringFailuresPerAddress: config.throttle?.rosteringFailuresPerAddress ?? { requestsPerSecond: 20, burst: 200 },
      adminFailuresPerAddress: config.throttle?.adminFailuresPerAddress ?? { requestsPerSecond: 1, burst: 10 },
    },
    profiles: config.profiles ?? [],
    ...(generatedDemoSecret ? { generatedDemoSecret } : {}),
  };
}

/**
 * The admin credential, from the file or the environment (which a harness sets with a secret
 * generated for its run, decisions #33); none means no administrative endpoints.
 */
function adminOf(config: ReferenceConfig): { admin?: Settings['admin'] } {
  const fromEnv: AdminConfig | undefined = process.env.REFERENCE_ADMIN_SECRET
    ? { key: process.env.REFERENCE_ADMIN_KEY || config.admin?.key || 'admin', secret: process.env.REFERENCE_ADMIN_SECRET, ...(config.admin?.loopbackOnly !== undefined ? { loopbackOnly: config.admin.loopbackOnly } : {}) }
    : undefined;
  const admin = fromEnv ?? config.admin;
  if (!admin) return {};
  const secretHash = admin.secretHash ?? (admin.secret !== undefined ? hashSecret(admin.secret) : undefined);
  if (!secretHash) throw new ConfigError('admin has neither secret nor secretHash');
  return { admin: { key: admin.key, secretHash, loopbackOnly: admin.loopbackOnly ?? true } };
}

/** The public base URL's origin; its path must be the base path, since only the origin is replaced. */
function publicOriginOf(config: ReferenceConfig): { publicOrigin?: string } {
  if (!config.publicBaseUrl) return {};
  const basePath = (config.basePath ?? '/v7.3/api').replace(/\/$/, '');
  const url = URL.canParse(config.publicBaseUrl) ? new URL(config.publicBaseUrl) : undefined;
  if (!url || !/^https?:$/.test(url.protocol)) throw new ConfigError(`publicBaseUrl ${config.publicBaseUrl} is not an http(s) URL`);
  if (url.pathname.replace(/\/$/, '') !== basePath || url.search || url.hash) throw new ConfigError(`publicBaseUrl ${config.publicBaseUrl} must end in the base path ${basePath || '/'} (no query or fragment)`);
  return { publicOrigin: url.origin };
}

/** Allowed host names as the Host check compares them; a port or anything but a name or an IP address is refused. */
function allowedHostsOf(config: ReferenceConfig): string[] {
  return (config.allowedHosts ?? []).map((entry) => {
    const name = entry.toLowerCase().replace(/^\[(.*)\]$/, '$1');
    const label = (l: string) => /^[a-z0-9-]{1,63}$/.test(l) && !l.startsWith('-') && !l.endsWith('-');
    if (isIP(name) || name.split('.').every(label)) return name;
    throw new ConfigError(`allowedHosts: ${entry} is not a host name or IP address (give it without a port)`);
  });
}

/** The naming profile with its overrides; the environment's scope base wins (harnesses set it). */
function namingOf(config: ReferenceConfig): { naming: NamingProfile } {
  const { profile = 'neutral', ...overrides } = config.naming ?? {};
  const naming = { ...NAMING_PROFILES[profile], ...overrides };
  return { naming: { ...naming, rosteringScopeBase: normalizeScopeBase(process.env.REFERENCE_ROSTERING_SCOPE_BASE ?? naming.rosteringScopeBase) } };
}
