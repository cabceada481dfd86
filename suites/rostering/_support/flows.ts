import { createCipheriv, createHmac, createPublicKey, randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The rostering routing flows under test (seed: Routing flows). A flows description says, per
 * flow, where a deployment in that configuration listens and what its admin databases hold, so
 * the routing suites know which token must read which data store. It travels in the environment
 * variable CONFORMANCE_ROSTERING_FLOWS (JSON); a flow it does not describe is not applicable.
 *
 * For the embedded reference, playwright.config.ts calls `embeddedFlowServers()`, which writes
 * the admin databases (lowdb JSON files, connection strings plain and encrypted per
 * decisions #26) to a temporary folder and describes four reference processes, each configured
 * only by the seed's environment variables. The encryption here is written independently of the
 * reference's, so a mistake in either shows.
 */
export const FLOWS_ENV = 'CONFORMANCE_ROSTERING_FLOWS';

interface Deployment {
  /** `{base_url}` of the data API writing the data store the flow should read. */
  dataApi: string;
  /** Origin of the rostering service in this configuration. */
  rostering: string;
  /** The service was configured with OAUTH2_PUBLIC_KEY_PEM on one line (literal \n). */
  publicKeyPemOneLine?: boolean;
}

export interface FlowsDescription {
  /** Single-tenant, no context: instances by what their connection string is. */
  single?: Deployment & {
    instances: { plain: number; encrypted: number; otherStore: number; tampered?: number; foreignKey?: number; badConnection?: number };
    /** Texts that must never appear in a response (key, stored and plain connection strings). */
    secrets: string[];
  };
  /** Single-tenant with context routing. */
  context?: Deployment & { contextKey: string; instances: { data: { id: number; context: string }; other: { id: number; context: string } } };
  /** Multi-tenant: the same instance id in two tenants' admin databases, only one naming the data API's store. */
  tenant?: Deployment & { dataTenant: string; otherTenant: string; instance: number };
  /** Multi-tenant with context routing. */
  tenantContext?: Deployment & {
    dataTenant: string; otherTenant: string; contextKey: string;
    instances: { data: { id: number; context: string }; other: { id: number; context: string } };
  };
}

export function flowsDescription(): FlowsDescription {
  const raw = process.env[FLOWS_ENV];
  return raw ? (JSON.parse(raw) as FlowsDescription) : {};
}

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

export interface FlowServer { name: string; dataPort: number; rosteringPort: number; env: Record<string, string> }

/**
 * Admin databases and environments for the embedded reference: the default server (single
 * flow, on REFERENCE_PORT / ROSTERING_PORT) plus one process per other flow on consecutive
 * ports from ROSTERING_FLOWS_PORT (default: REFERENCE_PORT + 2, else 18082). Sets
 * CONFORMANCE_ROSTERING_FLOWS for the workers. Call in the main process only.
 */
export function embeddedFlowServers(opts: { dataApiBaseUrl: string; basePath: string; privateKeyPem: string; withExtraServers: boolean }): { defaultEnv: Record<string, string>; servers: FlowServer[] } {
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
  const publicPemOneLine = createPublicKey(opts.privateKeyPem).export({ type: 'spki', format: 'pem' }).toString().trim().replace(/\r?\n/g, '\\n');
  const port = (v: string | undefined) => (v ? Number(v) : undefined);
  const referencePort = port(process.env.REFERENCE_PORT) ?? Number(/:(\d+)\//.exec(opts.dataApiBaseUrl)?.[1] ?? 18080);
  const defaultRosteringPort = port(process.env.ROSTERING_PORT) ?? referencePort + 1;
  const base = port(process.env.ROSTERING_FLOWS_PORT) ?? referencePort + 2;
  const origin = (p: number) => `http://127.0.0.1:${p}`;

  const defaultEnv = {
    ODS_CONNECTION_STRING_ENCRYPTION_KEY: keyText,
    CONNECTION_CONFIG: JSON.stringify({ adminConnection: adminDatabase(dir, 'single', single) }),
  };
  const description: FlowsDescription = {
    single: {
      dataApi: opts.dataApiBaseUrl,
      rostering: origin(defaultRosteringPort),
      instances: { plain: 1, encrypted: 2, otherStore: 3, tampered: 4, foreignKey: 5, badConnection: 6 },
      secrets: [keyText, foreign.toString('base64'), ...single.map((i) => i.connection), 'memory:rostering-flow-other', 'rostering-secret-connection'],
    },
  };

  const servers: FlowServer[] = [];
  if (opts.withExtraServers) {
    const ctxKey = 'schoolYearFromRoute';
    const server = (name: keyof FlowsDescription, offset: number, env: Record<string, string>): Deployment => {
      const dataPort = base + offset;
      const rosteringPort = base + offset + 1;
      const issuer = `${origin(dataPort)}${opts.basePath}`;
      servers.push({
        name, dataPort, rosteringPort,
        env: {
          // The seed's variables, set as an operator would (the issuer's values, one-line PEM).
          OAUTH2_ISSUERBASEURL: issuer,
          OAUTH2_AUDIENCE: origin(rosteringPort),
          OAUTH2_TOKENSIGNINGALG: 'RS256',
          OAUTH2_PUBLIC_KEY_PEM: publicPemOneLine,
          ODS_CONNECTION_STRING_ENCRYPTION_KEY: keyText,
          CONNECTION_CONFIG: '',
          TENANTS_CONNECTION_CONFIG: '',
          ...env,
        },
      });
      return { dataApi: issuer, rostering: origin(rosteringPort), publicKeyPemOneLine: true };
    };
    description.context = {
      ...server('context', 0, {
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
    description.tenant = {
      ...server('tenant', 2, {
        MULTITENANCY_ENABLED: 'true',
        ODS_CONTEXT_ROUTE_TEMPLATE: '',
        TENANTS_CONNECTION_CONFIG: JSON.stringify({
          'Tenant-A': { adminConnection: adminDatabase(dir, 'tenant-a', [{ id: 1, connection: encrypt(data, key) }]) },
          'Tenant-B': { adminConnection: adminDatabase(dir, 'tenant-b', [{ id: 1, connection: 'memory:rostering-tenant-b' }]) },
        }),
      }),
      dataTenant: 'Tenant-A', otherTenant: 'Tenant-B', instance: 1,
    };
    description.tenantContext = {
      ...server('tenantContext', 4, {
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
  process.env[FLOWS_ENV] = JSON.stringify(description);
  return { defaultEnv, servers };
}

/**
 * Whether a Playwright command line runs the rostering suites: no path filter at all, or one
 * naming them. Other runs (e.g. `playwright test suites/token`) start no extra servers.
 */
export function rosteringSelected(argv: string[]): boolean {
  const at = argv.indexOf('test');
  const filters = (at < 0 ? [] : argv.slice(at + 1)).filter((a) => !a.startsWith('-') && (a.includes('/') || a.includes('.spec')));
  return !filters.length || filters.some((f) => /rostering/.test(f));
}
