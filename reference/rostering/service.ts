import { readFileSync } from 'node:fs';
import type Koa from 'koa';
import type { Document } from 'openapi-backend';
import { AdminDatabases, newEncryptionKey } from '../admin-db/index.js';
import type { StoreRegistry } from '../store/registry.js';
import { createRosteringApp, type RosteringParts } from './app.js';
import { ROSTERING_ENV_VARS, readRosteringConfig, type RosteringConfig, type RosteringEnv } from './config.js';
import { loadEndpoints } from './endpoints.js';
import { StoreResolver } from './routing.js';
import { TokenCheck } from './token-check.js';
import { repoFile } from '../../spec/repo-files.js';

export { RosteringConfigError, ROSTERING_ENV_VARS, type RosteringEnv } from './config.js';

/**
 * Builds the rostering service from its environment variables and the process's data stores
 * (`defaultStore`: the data API's store, which instance 1 of the in-memory admin database names).
 * Fails (RosteringConfigError, naming the variable) on bad configuration, including an admin
 * database that cannot be opened.
 */
export async function createRosteringService(opts: { env: RosteringEnv; stores: StoreRegistry; admins?: AdminDatabases; defaultStore?: string; clockSkewSeconds?: number } & Pick<RosteringParts, 'limits' | 'origins' | 'clock'>): Promise<{ app: Koa; config: RosteringConfig }> {
  const config = readRosteringConfig(opts.env);
  const document = JSON.parse(readFileSync(repoFile('spec/openapi/rostering.json'), 'utf8')) as Document;
  const [endpoints, tokens, resolver] = await Promise.all([
    loadEndpoints(document),
    TokenCheck.create(config, opts.clockSkewSeconds),
    StoreResolver.create(config, opts.stores, opts.admins ?? new AdminDatabases(opts.defaultStore)),
  ]);
  const { limits, origins, clock } = opts;
  return { app: createRosteringApp({ config, model: opts.stores.model, endpoints, tokens, resolver, ...(limits ? { limits } : {}), ...(origins ? { origins } : {}), ...(clock ? { clock } : {}) }), config };
}

/**
 * The variables for a rostering service running beside the data API in one process: the
 * issuer's own values (so its tokens verify at once), single-tenant on the in-memory admin
 * database, each overridden by the process environment when set there.
 */
export function inProcessEnv(issuer: { issuer: string; audience: string; publicKeyPem: string }, env: NodeJS.ProcessEnv = process.env, scopeBase = ''): RosteringEnv {
  const derived: RosteringEnv = {
    OAUTH2_ISSUERBASEURL: issuer.issuer,
    OAUTH2_AUDIENCE: issuer.audience,
    OAUTH2_TOKENSIGNINGALG: 'RS256',
    OAUTH2_PUBLIC_KEY_PEM: issuer.publicKeyPem.trim().replace(/\r?\n/g, '\\n'),
    MULTITENANCY_ENABLED: 'false',
    ODS_CONTEXT_ROUTE_TEMPLATE: '',
    ODS_CONNECTION_STRING_ENCRYPTION_KEY: newEncryptionKey(),
    CONNECTION_CONFIG: JSON.stringify({ adminConnection: 'memory:default' }),
    TENANTS_CONNECTION_CONFIG: '',
    ROSTER_SCOPE_BASE: scopeBase,
  };
  for (const name of ROSTERING_ENV_VARS) if (env[name] !== undefined) derived[name] = env[name];
  return derived;
}
