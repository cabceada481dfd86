/**
 * The rostering routing flows of the embedded reference (seed 001: Routing flows): the admin
 * databases (lowdb JSON files, connection strings plain and encrypted per decisions #26) written
 * to a temporary folder, and the environment of each reference process, configured only by the
 * seed's variables, on the ports the caller gives. The encryption here is written independently
 * of the reference's, so a mistake in either shows. Used by playwright.config.ts and the strength
 * tool through deployments.ts; the suites only read the description from the target file.
 */
import { createCipheriv, createHmac, createPublicKey, randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FlowDeployment, RosteringFlows } from '../../suites/targets/types.js';

/** A target's `rostering.flows`, with the single flow's secrets spelt out. */
export type FlowsDescription = RosteringFlows & { single?: { secrets?: string[] } };

export interface FlowServer { name: string; dataPort: number; rosteringPort: number; env: Record<string, string> }

export interface BuiltFlows {
  /** Environment of the default reference process (the single flow's rostering service). */
  defaultEnv: Record<string, string>;
  /** One more reference process per other flow. */
  servers: FlowServer[];
  /** What was built, as a target file describes it. */
  description: FlowsDescription;
  /** Texts of the single flow that must never appear in a response (keys, connection strings). */
  secrets: string[];
  /** The issuer's public key, PEM. */
  issuerPublicKeyPem: string;
}

export interface FlowOptions {
  /** Where each flow listens: the single flow's rostering origin, and the other flows' data API and rostering URLs. */
  ports: { singleRostering: string; context?: FlowPorts; tenant?: FlowPorts; tenantContext?: FlowPorts };
  dataApiBaseUrl: string;
  basePath: string;
  privateKeyPem: string;
  /** The issuer and audience every deployment shares, when the configuration names them. */
  issuerNames: { issuer?: string; audience?: string };
  /** The suites' own test issuer (capability testIssuer), trusted besides the real issuer. */
  testIssuerPublicKeyPem?: string;
  /** The single flow's secrets variable (`secretsEnv`), kept in the description. */
  secretsEnv?: string;
}

export interface FlowPorts { dataApi: string; rostering: string }

/** base64(iv)|base64(ciphertext)|base64(hmac), AES-256-CBC, HMAC-SHA256 over the ciphertext. */
function encrypt(plain: string, key: Buffer): string {
  const iv = randomBytes(16);
  const cipher = createCipheriv('aes-256-cbc', key, iv);
  const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  const mac = createHmac('sha256', key).update(ciphertext).digest();
  return [iv, ciphertext, mac].map((b) => b.toString('base64')).join('|');
}

interface Instance { id: number; connection: string; context?: [string, string] }

function adminDatabase(dir: string, name: string, instances: Instance[]): string {
  const file = join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify({
    OdsInstances: instances.map((i) => ({ OdsInstanceId: i.id, Name: `${name}-${i.id}`, InstanceType: null, ConnectionString: i.connection })),
    OdsInstanceContexts: instances.filter((i) => i.context).map((i, n) => ({ OdsInstanceContextId: n + 1, OdsInstance_OdsInstanceId: i.id, ContextKey: i.context![0], ContextValue: i.context![1] })),
  }, null, 2));
  return `file:${file}`;
}

/**
 * Builds the flows: the single flow always, the others where `ports` names them. No side effect
 * but the admin database files.
 */
export function buildFlows(opts: FlowOptions): BuiltFlows {
  const dir = mkdtempSync(join(tmpdir(), 'rostering-flows-'));
  const keyText = randomBytes(32).toString('base64');
  const key = Buffer.from(keyText, 'base64');
  const foreign = randomBytes(32);
  const data = 'memory:default';
  const tampered = (() => {
    const [iv, ct, mac] = encrypt(data, key).split('|');
    const bytes = Buffer.from(ct, 'base64');
    bytes[0] ^= 0xff;
    return [iv, bytes.toString('base64'), mac].join('|');
  })();
  const single = [
    { id: 1, connection: data },
    { id: 2, connection: encrypt(data, key) },
    { id: 3, connection: encrypt('memory:rostering-flow-other', key) },
    { id: 4, connection: tampered },
    { id: 5, connection: encrypt(data, foreign) },
    { id: 6, connection: 'nosuchscheme:rostering-secret-connection' },
  ];
  const issuerPublicKeyPem = createPublicKey(opts.privateKeyPem).export({ type: 'spki', format: 'pem' }).toString();
  const publicPemOneLine = issuerPublicKeyPem.trim().replace(/\r?\n/g, '\\n');
  const { issuer: sharedIssuer, audience: sharedAudience } = opts.issuerNames;
  const origin = (p: number) => `http://127.0.0.1:${p}`;
  const portOf = (url: string) => Number(new URL(url).port);
  const testIssuer: Record<string, string> = opts.testIssuerPublicKeyPem ? { ROSTER_ADDITIONAL_PUBLIC_KEYS_PEM: opts.testIssuerPublicKeyPem.trim().replace(/\r?\n/g, '\\n') } : {};
  const defaultEnv = {
    ...testIssuer,
    ODS_CONNECTION_STRING_ENCRYPTION_KEY: keyText,
    CONNECTION_CONFIG: JSON.stringify({ adminConnection: adminDatabase(dir, 'single', single) }),
  };
  const description: FlowsDescription = {
    single: {
      dataApi: opts.dataApiBaseUrl,
      rostering: opts.ports.singleRostering,
      instances: { plain: 1, encrypted: 2, otherStore: 3, tampered: 4, foreignKey: 5, badConnection: 6 },
      ...(opts.secretsEnv ? { secretsEnv: opts.secretsEnv } : {}),
    },
  };
  const secrets = [keyText, foreign.toString('base64'), ...single.map((i) => i.connection), 'memory:rostering-flow-other', 'rostering-secret-connection'];

  const servers: FlowServer[] = [];
  const ctxKey = 'schoolYearFromRoute';
  const server = (name: 'context' | 'tenant' | 'tenantContext', at: FlowPorts, env: Record<string, string>): FlowDeployment => {
    const dataPort = portOf(at.dataApi);
    const rosteringPort = portOf(at.rostering);
    const issuer = `${origin(dataPort)}${opts.basePath}`;
    servers.push({
      name, dataPort, rosteringPort,
      env: {
        // The seed's variables, set as an operator would (the issuer's values, one-line PEM).
        OAUTH2_ISSUERBASEURL: sharedIssuer ?? issuer,
        OAUTH2_AUDIENCE: sharedAudience ?? origin(rosteringPort),
        OAUTH2_TOKENSIGNINGALG: 'RS256',
        OAUTH2_PUBLIC_KEY_PEM: publicPemOneLine,
        ODS_CONNECTION_STRING_ENCRYPTION_KEY: keyText,
        CONNECTION_CONFIG: '',
        TENANTS_CONNECTION_CONFIG: '',
        ...testIssuer,
        ...env,
      },
    });
    return { dataApi: issuer, rostering: origin(rosteringPort), publicKeyPemOneLine: true };
  };
  const { context, tenant, tenantContext } = opts.ports;
  if (context) {
    description.context = {
      ...server('context', context, {
        MULTITENANCY_ENABLED: 'false',
        ODS_CONTEXT_ROUTE_TEMPLATE: `{${ctxKey}}`,
        CONNECTION_CONFIG: JSON.stringify({ adminConnection: adminDatabase(dir, 'context', [
          { id: 1, connection: data, context: [ctxKey, '2026'] },
          { id: 2, connection: encrypt('memory:rostering-context-other', key), context: [ctxKey, '2027'] },
        ]) }),
      }),
      contextKey: ctxKey,
      instances: { data: { id: 1, context: '2026' }, other: { id: 2, context: '2027' } },
    };
  }
  if (tenant) {
    description.tenant = {
      ...server('tenant', tenant, {
        MULTITENANCY_ENABLED: 'true',
        ODS_CONTEXT_ROUTE_TEMPLATE: '',
        TENANTS_CONNECTION_CONFIG: JSON.stringify({
          'Tenant-A': { adminConnection: adminDatabase(dir, 'tenant-a', [{ id: 1, connection: encrypt(data, key) }]) },
          'Tenant-B': { adminConnection: adminDatabase(dir, 'tenant-b', [{ id: 1, connection: 'memory:rostering-tenant-b' }]) },
        }),
      }),
      dataTenant: 'Tenant-A', otherTenant: 'Tenant-B', instance: 1,
    };
  }
  if (tenantContext) {
    description.tenantContext = {
      ...server('tenantContext', tenantContext, {
        MULTITENANCY_ENABLED: 'true',
        ODS_CONTEXT_ROUTE_TEMPLATE: `{${ctxKey}}`,
        TENANTS_CONNECTION_CONFIG: JSON.stringify({
          'Tenant-A': { adminConnection: adminDatabase(dir, 'tenant-context-a', [
            { id: 1, connection: data, context: [ctxKey, '2026'] },
            { id: 2, connection: 'memory:rostering-tc-other', context: [ctxKey, '2027'] },
          ]) },
          'Tenant-B': { adminConnection: adminDatabase(dir, 'tenant-context-b', [{ id: 1, connection: encrypt('memory:rostering-tc-b', key), context: [ctxKey, '2026'] }]) },
        }),
      }),
      dataTenant: 'Tenant-A', otherTenant: 'Tenant-B', contextKey: ctxKey,
      instances: { data: { id: 1, context: '2026' }, other: { id: 2, context: '2027' } },
    };
  }
  return { defaultEnv, servers, description, secrets, issuerPublicKeyPem };
}

/** Whether a target's flows describe exactly what was built (the description without secrets). */
export function describesBuilt(declared: FlowsDescription, built: FlowsDescription): boolean {
  return JSON.stringify(sorted(declared)) === JSON.stringify(sorted(built));
}

/** A value with object keys in order, to compare descriptions written in any order. */
function sorted(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sorted);
  if (!v || typeof v !== 'object') return v;
  return Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b)).map(([k, x]) => [k, sorted(x)]));
}

