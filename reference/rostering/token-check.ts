import { importSPKI, jwtVerify, type CryptoKey, type JWTPayload } from 'jose';
import type { RosteringConfig } from './config.js';
import { RosteringConfigError, scopeValue } from './config.js';
import { DEFAULT_CLOCK_SKEW_SECONDS, issuedInFuture } from '../security/token-time.js';
import { unauthorized } from './status.js';

/**
 * The checks on every request (seed: Checks on every request): signature with the configured
 * key and algorithm only, `iss` (exactly), `aud` (string or array), `exp` required, `nbf`, an
 * `iat` not beyond the clock skew, and at least one rostering scope. Verified tokens are cached until they expire, so a token's signature is checked
 * once, not on every page of a walk.
 */
export const SCOPE_NAMES = ['roster-core.readonly', 'roster.readonly', 'roster-demographics.readonly'] as const;
export type ScopeName = (typeof SCOPE_NAMES)[number];

export interface InstanceClaim {
  id: number;
  context: { key: string; value: string } | null;
}

/** What the rest of the service needs from a verified token. */
export interface Caller {
  /** The token's `client_id` (else `sub`), for per-caller limits; empty when neither is present. */
  clientId: string;
  scopes: Set<ScopeName>;
  /** Education organization ids, as strings; empty when the claim is absent. */
  educationOrganizationIds: string[];
  odsInstanceId?: number;
  odsInstances: InstanceClaim[];
  tenantId?: string;
  exp: number;
}

const CACHE_LIMIT = 10_000;

export class TokenCheck {
  private readonly cache = new Map<string, Caller>();

  private constructor(private readonly config: RosteringConfig, private readonly keys: CryptoKey[], private readonly clockSkewSeconds: number) {}

  /** `clockSkewSeconds`: how far in the future an `iat` may lie (the issuer's clock may run ahead). */
  static async create(config: RosteringConfig, clockSkewSeconds = DEFAULT_CLOCK_SKEW_SECONDS): Promise<TokenCheck> {
    const read = async (variable: string, pem: string): Promise<CryptoKey> => {
      try {
        return await importSPKI(pem, config.algorithm);
      } catch (err) {
        throw new RosteringConfigError(variable, `cannot be read as a ${config.algorithm} public key (${(err as Error).message})`);
      }
    };
    const keys = [await read('OAUTH2_PUBLIC_KEY_PEM', config.publicKeyPem)];
    for (const pem of config.additionalPublicKeysPem) keys.push(await read('ROSTER_ADDITIONAL_PUBLIC_KEYS_PEM', pem));
    return new TokenCheck(config, keys, clockSkewSeconds);
  }

  /** The caller behind an Authorization header; throws the 401 RosterError on any failure. */
  async verify(authorization: string): Promise<Caller> {
    const m = /^Bearer +(\S+) *$/i.exec(authorization);
    if (!m) throw unauthorized();
    const token = m[1];
    const now = Math.floor(Date.now() / 1000);
    const cached = this.cache.get(token);
    if (cached) {
      if (cached.exp > now) return cached;
      this.cache.delete(token);
    }
    // The issuer's key first; an additional key (a test issuer) passes with the same checks.
    let payload: JWTPayload | undefined;
    for (const key of this.keys) {
      try {
        ({ payload } = await jwtVerify(token, key, {
          algorithms: [this.config.algorithm],
          audience: this.config.audience,
          requiredClaims: ['exp', 'iss'],
        }));
        break;
      } catch {
        // next key, else 401
      }
    }
    if (!payload) throw unauthorized();
    // iss "must equal" the configured issuer (seed; decisions #30): no trailing-slash leniency.
    if (payload.iss !== this.config.issuer) throw unauthorized();
    if (issuedInFuture(payload, now, this.clockSkewSeconds)) throw unauthorized();
    const caller = readClaims(payload, this.config.scopeBase);
    if (!caller.scopes.size) throw unauthorized();
    if (this.cache.size >= CACHE_LIMIT) this.cache.delete(this.cache.keys().next().value as string);
    this.cache.set(token, caller);
    return caller;
  }
}

function readClaims(p: JWTPayload, scopeBase: string): Caller {
  const odsInstanceId = [p.odsInstanceId, p.ods_instance_id, p.OdsInstanceId].map((v) => (typeof v === 'number' || typeof v === 'string') && /^\d+$/.test(String(v)) ? Number(v) : undefined).find((v) => v !== undefined);
  return {
    clientId: typeof p.client_id === 'string' ? p.client_id : typeof p.sub === 'string' ? p.sub : '',
    scopes: readScopes(p.scope, scopeBase),
    educationOrganizationIds: listOf(p.educationOrganizationId).filter((id) => /^\d+$/.test(id)),
    ...(odsInstanceId !== undefined ? { odsInstanceId } : {}),
    odsInstances: readInstances(p.odsInstances),
    ...(typeof p.tenantId === 'string' && p.tenantId ? { tenantId: p.tenantId } : {}),
    exp: p.exp!,
  };
}

/** Strings, comma lists and arrays of either, flattened to trimmed non-empty items. */
function listOf(v: unknown, separators = /,/): string[] {
  const items = Array.isArray(v) ? v : v === undefined || v === null ? [] : [v];
  return items.flatMap((x) => (typeof x === 'string' || typeof x === 'number' ? String(x).split(separators) : [])).map((s) => s.trim()).filter(Boolean);
}

/**
 * Space- or comma-separated string, or an array (seed). An entry grants `<name>` only when it is
 * exactly `{scope_base}/<name>` (decisions #30), the bare name only when there is no scope base:
 * `https://elsewhere.example/roster-core.readonly`, `roster-core.readonly.x` or a bare name under
 * a base grant nothing.
 */
export function readScopes(v: unknown, scopeBase = ''): Set<ScopeName> {
  const granted = new Set<ScopeName>();
  for (const entry of listOf(v, /[\s,]+/)) {
    for (const name of SCOPE_NAMES) if (entry === scopeValue(scopeBase, name)) granted.add(name);
  }
  return granted;
}

/** The odsInstances claim: a JSON string (or, leniently, the object); anything invalid is no entry. */
function readInstances(v: unknown): InstanceClaim[] {
  let parsed: unknown = v;
  if (typeof v === 'string') {
    try { parsed = JSON.parse(v); } catch { return []; }
  }
  const list = (parsed as { OdsInstances?: unknown } | null)?.OdsInstances;
  if (!Array.isArray(list)) return [];
  const out: InstanceClaim[] = [];
  for (const item of list as Record<string, unknown>[]) {
    const id = item?.OdsInstanceId;
    if (typeof id !== 'number' || !Number.isInteger(id)) continue;
    const c = item.OdsInstanceContext as { ContextKey?: unknown; ContextValue?: unknown } | null | undefined;
    const context = c && typeof c.ContextKey === 'string' && typeof c.ContextValue === 'string' ? { key: c.ContextKey, value: c.ContextValue } : null;
    out.push({ id, context });
  }
  return out;
}
