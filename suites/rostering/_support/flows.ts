import { createCipheriv, createHmac, createPublicKey, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { embeddedConfig, target } from '../../_harness/target.js';
import { selects } from '../../_harness/selection.js';
import type { FlowDeployment, RosteringFlows } from '../../targets/types.js';

/**
 * The rostering routing flows under test (seed: Routing flows), from the target file
 * (`rostering.flows`, typed in suites/targets/types.ts): per flow, where a deployment in that
 * configuration listens and what its admin databases hold, so the routing suites know which
 * token must read which data store. A flow the target does not describe is not applicable.
 *
 * For the embedded reference, playwright.config.ts calls `embeddedFlowServers()`, which writes
 * the admin databases (lowdb JSON files, connection strings plain and encrypted per
 * decisions #26) to a temporary folder and describes four reference processes, each configured
 * only by the seed's environment variables, on the ports the target file gives. The encryption
 * here is written independently of the reference's, so a mistake in either shows.
 */
export type FlowsDescription = RosteringFlows & { single?: { secrets?: string[] } };

/**
 * Deprecated: the flows as JSON in this environment variable, read instead of the target file's
 * when set. Only suites/strength still passes flows this way (through its proxy); it is to move
 * them into the target files it writes, and then this goes.
 */
export const FLOWS_ENV = 'CONFORMANCE_ROSTERING_FLOWS';

export function flowsDescription(): FlowsDescription {
  const legacy = process.env[FLOWS_ENV];
  return legacy ? (JSON.parse(legacy) as FlowsDescription) : target.rostering?.flows ?? {};
}

/**
 * The `iss` and `aud` the embedded reference's token endpoints issue when its configuration names
 * them (`issuer.issuer`, `issuer.audience`): every deployment of it then shares that value, as
 * deployments behind one identity provider, or of one API, often do, and its rostering services
 * expect it. Left out: each deployment its own data API's base URL and rostering origin.
 */
export function embeddedIssuerNames(): { issuer?: string; audience?: string } {
  if (!embeddedConfig) return {};
  return (JSON.parse(readFileSync(embeddedConfig, 'utf8')) as { issuer?: { issuer?: string; audience?: string } }).issuer ?? {};
}

/** Texts of the single flow that must never appear in a response. */
export function flowSecrets(f: NonNullable<FlowsDescription['single']>): string[] {
  return [...(f.secrets ?? []), ...(f.secretsEnv ? (process.env[f.secretsEnv] ?? '').split('\n').filter(Boolean) : [])];
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
 * flow) plus one process per other flow, on the ports the target's `rostering.flows` gives
 * (checked to describe exactly what is built here). Puts the single flow's secrets in the
 * environment variable its `secretsEnv` names, for the workers. Call in the main process only.
 */
export function embeddedFlowServers(opts: { dataApiBaseUrl: string; basePath: string; privateKeyPem: string; withExtraServers: boolean; testIssuerPublicKeyPem?: string }): { defaultEnv: Record<string, string>; servers: FlowServer[] } {
  // Deprecated path of suites/strength: ports from ROSTERING_PORT / ROSTERING_FLOWS_PORT, the
  // description (secrets included) written to FLOWS_ENV instead of checked against the target.
  const legacy = process.env.ROSTERING_FLOWS_PORT ? Number(process.env.ROSTERING_FLOWS_PORT) : undefined;
  const legacyRostering = Number(process.env.ROSTERING_PORT ?? Number(process.env.REFERENCE_PORT) + 1);
  const declared: FlowsDescription = legacy === undefined ? flowsDescription() : {
    single: { dataApi: opts.dataApiBaseUrl, rostering: `http://127.0.0.1:${legacyRostering}`, instances: { plain: 1, encrypted: 2, otherStore: 3 } },
    ...Object.fromEntries((['context', 'tenant', 'tenantContext'] as const).map((name, i) => [name, { dataApi: `http://127.0.0.1:${legacy + 2 * i}${opts.basePath}`, rostering: `http://127.0.0.1:${legacy + 2 * i + 1}` }])),
  } as FlowsDescription;
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
  const publicPem = createPublicKey(opts.privateKeyPem).export({ type: 'spki', format: 'pem' }).toString();
  const publicPemOneLine = publicPem.trim().replace(/\r?\n/g, '\\n');
  // The issuer's public key, for a target naming it (rostering.issuerPublicKey.pemEnv); workers inherit it.
  process.env.CONFORMANCE_ISSUER_PUBLIC_KEY_PEM = publicPem;
  const { issuer: sharedIssuer, audience: sharedAudience } = embeddedIssuerNames();
  const origin = (p: number) => `http://127.0.0.1:${p}`;
  const portOf = (url: string) => Number(new URL(url).port);

  // The suites' own test issuer (capability testIssuer), trusted besides the real issuer.
  const testIssuer: Record<string, string> = opts.testIssuerPublicKeyPem ? { ROSTER_ADDITIONAL_PUBLIC_KEYS_PEM: opts.testIssuerPublicKeyPem.trim().replace(/\r?\n/g, '\\n') } : {};
  const defaultEnv = {
    ...testIssuer,
    ODS_CONNECTION_STRING_ENCRYPTION_KEY: keyText,
    CONNECTION_CONFIG: JSON.stringify({ adminConnection: adminDatabase(dir, 'single', single) }),
  };
  const description: FlowsDescription = {
    single: {
      dataApi: opts.dataApiBaseUrl,
      rostering: declared.single?.rostering ?? '',
      instances: { plain: 1, encrypted: 2, otherStore: 3, tampered: 4, foreignKey: 5, badConnection: 6 },
      ...(declared.single?.secretsEnv ? { secretsEnv: declared.single.secretsEnv } : {}),
    },
  };
  const secrets = [keyText, foreign.toString('base64'), ...single.map((i) => i.connection), 'memory:rostering-flow-other', 'rostering-secret-connection'];
  if (declared.single?.secretsEnv) process.env[declared.single.secretsEnv] = secrets.join('\n');

  const servers: FlowServer[] = [];
  if (opts.withExtraServers) {
    const ctxKey = 'schoolYearFromRoute';
    const server = (name: keyof FlowsDescription, env: Record<string, string>): FlowDeployment => {
      const flow = declared[name];
      if (!flow) throw new Error(`the embedded reference's target file describes no ${name} routing flow`);
      const dataPort = portOf(flow.dataApi);
      const rosteringPort = portOf(flow.rostering);
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
    description.context = {
      ...server('context', {
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
      ...server('tenant', {
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
      ...server('tenantContext', {
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
  if (legacy !== undefined) {
    process.env[FLOWS_ENV] = JSON.stringify({ ...description, single: { ...description.single, secrets } });
    return { defaultEnv, servers };
  }
  // The target file must describe what was built here, no more and no less.
  const wanted = opts.withExtraServers ? description : { single: description.single };
  const got = opts.withExtraServers ? declared : { single: declared.single };
  if (JSON.stringify(sorted(wanted)) !== JSON.stringify(sorted(got))) {
    throw new Error(`the embedded reference's target file describes other routing flows than those started:\n${JSON.stringify(wanted, null, 1)}`);
  }
  return { defaultEnv, servers };
}

/** A value with object keys in order, to compare descriptions written in any order. */
function sorted(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sorted);
  if (!v || typeof v !== 'object') return v;
  return Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b)).map(([k, x]) => [k, sorted(x)]));
}

/** Whether a Playwright command line runs the rostering suites (and needs their extra servers). */
export const rosteringSelected = (argv: string[]): boolean => selects(argv, /rostering/);
