import { EncryptionKeyError, parseEncryptionKey } from '../admin-db/index.js';

/**
 * The rostering service is configured by the seed's environment variables and nothing else
 * (seed: Authentication / Configuration). Bad values fail at start with a message naming the
 * variable.
 */
export const ROSTERING_ENV_VARS = [
  'OAUTH2_ISSUERBASEURL', 'OAUTH2_AUDIENCE', 'OAUTH2_TOKENSIGNINGALG', 'OAUTH2_PUBLIC_KEY_PEM', 'MULTITENANCY_ENABLED',
  'ODS_CONTEXT_ROUTE_TEMPLATE', 'ODS_CONNECTION_STRING_ENCRYPTION_KEY', 'CONNECTION_CONFIG', 'TENANTS_CONNECTION_CONFIG',
  // Not the seed's: where the scope names live (`{scope_base}/<name>`); empty means bare names.
  'ROSTER_SCOPE_BASE',
  // Not the seed's: public keys (PEM, one line or several) trusted besides OAUTH2_PUBLIC_KEY_PEM,
  // e.g. a conformance suite's own test issuer. Same algorithm and the same claim checks.
  'ROSTER_ADDITIONAL_PUBLIC_KEYS_PEM',
] as const;

export type RosteringEnv = Partial<Record<(typeof ROSTERING_ENV_VARS)[number], string>>;

/** Asymmetric algorithms only: a public key cannot verify an HMAC, and `none` is never allowed. */
const ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];

export interface ContextRoute {
  /** The route parameter's name, which a matching OdsInstanceContext's ContextKey must equal. */
  name: string;
  /** The template's constraint, when it has one (`{schoolYearFromRoute:range(2026,2027)}`). */
  accepts: (value: string) => boolean;
}

export interface RosteringConfig {
  issuer: string;
  audience: string;
  algorithm: string;
  publicKeyPem: string;
  /** Further public keys (ROSTER_ADDITIONAL_PUBLIC_KEYS_PEM) whose signatures pass too. */
  additionalPublicKeysPem: string[];
  multiTenancy: boolean;
  context?: ContextRoute;
  encryptionKey?: Buffer;
  /** Single-tenant: the admin database's connection (CONNECTION_CONFIG.adminConnection). */
  adminConnection?: string;
  /** `{scope_base}` of the scopes, without a trailing slash; empty: scopes are bare names. */
  scopeBase: string;
  /** Multi-tenant: admin connection by lower-cased tenant id (TENANTS_CONNECTION_CONFIG). */
  tenants: Map<string, { tenantId: string; adminConnection: string }>;
}

export class RosteringConfigError extends Error {
  constructor(variable: string, problem: string) { super(`${variable}: ${problem}`); }
}

export function readRosteringConfig(env: RosteringEnv): RosteringConfig {
  const get = (name: (typeof ROSTERING_ENV_VARS)[number]) => (env[name] ?? '').trim();
  const required = (name: (typeof ROSTERING_ENV_VARS)[number]) => {
    const v = get(name);
    if (!v) throw new RosteringConfigError(name, 'is required');
    return v;
  };

  const issuer = required('OAUTH2_ISSUERBASEURL');
  if (!URL.canParse(issuer)) throw new RosteringConfigError('OAUTH2_ISSUERBASEURL', `'${issuer}' is not a URL`);
  const audience = required('OAUTH2_AUDIENCE');
  const algorithm = required('OAUTH2_TOKENSIGNINGALG');
  if (!ALGORITHMS.includes(algorithm)) throw new RosteringConfigError('OAUTH2_TOKENSIGNINGALG', `'${algorithm}' is not one of ${ALGORITHMS.join(', ')}`);
  // One line with literal `\n` between lines (seed); real newlines are accepted too.
  const publicKeyPem = required('OAUTH2_PUBLIC_KEY_PEM').replace(/\\n/g, '\n');
  if (!/-----BEGIN PUBLIC KEY-----[\s\S]+-----END PUBLIC KEY-----/.test(publicKeyPem)) {
    throw new RosteringConfigError('OAUTH2_PUBLIC_KEY_PEM', 'must be a PEM public key including the BEGIN and END PUBLIC KEY markers');
  }

  const additionalPublicKeysPem = get('ROSTER_ADDITIONAL_PUBLIC_KEYS_PEM').replace(/\\n/g, '\n').match(/-----BEGIN PUBLIC KEY-----[\s\S]+?-----END PUBLIC KEY-----/g) ?? [];
  if (get('ROSTER_ADDITIONAL_PUBLIC_KEYS_PEM') && !additionalPublicKeysPem.length) {
    throw new RosteringConfigError('ROSTER_ADDITIONAL_PUBLIC_KEYS_PEM', 'must hold PEM public keys including the BEGIN and END PUBLIC KEY markers');
  }

  const mt = get('MULTITENANCY_ENABLED').toLowerCase();
  if (mt !== '' && mt !== 'true' && mt !== 'false') throw new RosteringConfigError('MULTITENANCY_ENABLED', `must be true or false, not '${get('MULTITENANCY_ENABLED')}'`);
  const multiTenancy = mt === 'true';

  const template = get('ODS_CONTEXT_ROUTE_TEMPLATE');
  const context = template ? parseContextTemplate(template) : undefined;

  let encryptionKey: Buffer | undefined;
  const key = get('ODS_CONNECTION_STRING_ENCRYPTION_KEY');
  if (key) {
    try {
      encryptionKey = parseEncryptionKey(key);
    } catch (err) {
      if (err instanceof EncryptionKeyError) throw new RosteringConfigError('ODS_CONNECTION_STRING_ENCRYPTION_KEY', err.message);
      throw err;
    }
  }

  const tenants = new Map<string, { tenantId: string; adminConnection: string }>();
  let adminConnection: string | undefined;
  if (multiTenancy) {
    const raw = parseJsonObject('TENANTS_CONNECTION_CONFIG', required('TENANTS_CONNECTION_CONFIG'));
    for (const [tenantId, value] of Object.entries(raw)) {
      const conn = (value as { adminConnection?: unknown } | null)?.adminConnection;
      if (typeof conn !== 'string' || !conn.trim()) throw new RosteringConfigError('TENANTS_CONNECTION_CONFIG', `tenant '${tenantId}' needs a string adminConnection`);
      if (tenants.has(tenantId.toLowerCase())) throw new RosteringConfigError('TENANTS_CONNECTION_CONFIG', `tenant '${tenantId}' is given twice (tenant ids ignore case)`);
      tenants.set(tenantId.toLowerCase(), { tenantId, adminConnection: conn.trim() });
    }
    if (!tenants.size) throw new RosteringConfigError('TENANTS_CONNECTION_CONFIG', 'names no tenant');
  } else {
    const raw = parseJsonObject('CONNECTION_CONFIG', required('CONNECTION_CONFIG'));
    if (typeof raw.adminConnection !== 'string' || !raw.adminConnection.trim()) throw new RosteringConfigError('CONNECTION_CONFIG', 'needs a string adminConnection');
    adminConnection = raw.adminConnection.trim();
  }

  const scopeBase = normalizeScopeBase(get('ROSTER_SCOPE_BASE'));
  return { issuer, audience, algorithm, publicKeyPem, additionalPublicKeysPem, multiTenancy, scopeBase, ...(context ? { context } : {}), ...(encryptionKey ? { encryptionKey } : {}), ...(adminConnection ? { adminConnection } : {}), tenants };
}

function parseJsonObject(variable: string, text: string): Record<string, unknown> {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    throw new RosteringConfigError(variable, 'is not JSON');
  }
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw new RosteringConfigError(variable, 'must be a JSON object');
  return v as Record<string, unknown>;
}

/**
 * `{name}` or `{name:constraint}` with the upstream constraints `int`, `range(min,max)`,
 * `values(a,b,...)` and `regex(pattern)`. A value failing the constraint does not match the route.
 */
export function parseContextTemplate(template: string): ContextRoute {
  const m = /^\{([A-Za-z_][A-Za-z0-9_]*)(?::(.+))?\}$/.exec(template);
  const fail = (why: string) => new RosteringConfigError('ODS_CONTEXT_ROUTE_TEMPLATE', `'${template}' ${why}`);
  if (!m) throw fail('must look like {name} or {name:constraint}');
  const [, name, constraint] = m;
  if (!constraint) return { name, accepts: () => true };
  const c = /^(int|range|values|regex)(?:\((.*)\))?$/.exec(constraint);
  if (!c) throw fail('has an unknown constraint (int, range(min,max), values(a,b), regex(p))');
  const args = c[2] ?? '';
  switch (c[1]) {
    case 'int':
      return { name, accepts: (v) => /^-?\d+$/.test(v) };
    case 'range': {
      const [min, max] = args.split(',').map((x) => Number(x.trim()));
      if (!Number.isInteger(min) || !Number.isInteger(max)) throw fail('needs range(min,max) with integers');
      return { name, accepts: (v) => /^-?\d+$/.test(v) && Number(v) >= min && Number(v) <= max };
    }
    case 'values': {
      const allowed = new Set(args.split(',').map((x) => x.trim().toLowerCase()));
      return { name, accepts: (v) => allowed.has(v.toLowerCase()) };
    }
    default: {
      let re: RegExp;
      try { re = new RegExp(args); } catch { throw fail('has an invalid regex'); }
      return { name, accepts: (v) => re.test(v) };
    }
  }
}

/** `https://…/scope/` and `https://…/scope` name the same base; `{scope_base}/<name>` adds the slash. */
export const normalizeScopeBase = (base: string | undefined): string => (base ?? '').trim().replace(/\/+$/, '');

/** A scope as issued and as required: `{scope_base}/<name>`, or the bare name without a base. */
export const scopeValue = (scopeBase: string, name: string): string => (scopeBase ? `${scopeBase}/${name}` : name);
