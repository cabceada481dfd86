import type { Context } from 'koa';
import type { Client, Settings } from '../config/load.js';
import { parseJson, readText, requireJsonContentType } from '../http/body.js';
import { Problem } from '../http/problems.js';
import type { Clock } from '../http/rate-limit.js';
import type { Issuer } from './issuer.js';
import { provenSecret, verifySecret } from './secrets.js';
import { TokenThrottle } from './token-throttle.js';
import { scopeValue } from '../rostering/config.js';

/**
 * POST {base_url}/oauth/token — the client-credentials grant (seed: Authentication; decisions #20).
 * Checks run in the upstream order (research/ods-server-details.md §2); errors are OAuth error
 * objects, never problem details, except the 415s of a missing or foreign Content-Type.
 */
type OAuthError = 'invalid_client' | 'invalid_request' | 'unsupported_grant_type' | 'invalid_scope' | 'temporarily_unavailable';

class TokenError extends Error {
  constructor(readonly status: 400 | 401 | 429, readonly error: OAuthError, readonly description?: string, readonly retryAfter?: number) { super(error); }
}

export const ROSTER_SCOPES = ['roster-core.readonly', 'roster.readonly', 'roster-demographics.readonly'];

/** A token request is a few hundred bytes: larger bodies are refused (413) before they are parsed, and counted. */
export const TOKEN_MAX_BODY_BYTES = 64 * 1024;

export function tokenEndpoint(settings: Settings, issuer: Issuer, clock: Clock = Date.now) {
  const clients = new Map(settings.clients.map((c) => [c.key, c]));
  const throttle = new TokenThrottle(settings.throttle, clock);
  const maxBodyBytes = Math.min(settings.maxBodyBytes, TOKEN_MAX_BODY_BYTES);
  return async (ctx: Context): Promise<void> => {
    const mediaType = requireJsonContentType(ctx, (t) => t === 'application/json' || t === 'application/x-www-form-urlencoded');
    const address = ctx.req.socket.remoteAddress ?? '';
    const header = ctx.get('authorization');
    // An oversized body is a 413 here too, counted against its address; any other reading failure counts as no body.
    const text = await readText(ctx, maxBodyBytes).catch((err: unknown) => {
      if (!(err instanceof Problem && err.suffix === 'request-entity-too-large')) return '';
      throttle.refused(address);
      throw err;
    });
    try {
      // An address over its limit is refused before its body is parsed; a secret this process
      // already proved, in the header, still passes (as it passes the key's limit).
      const wait = throttle.addressWait(address);
      if (wait && !provenInHeader(header, clients)) throw tooManyFailures(wait);
      const { fields, client } = await counted(address, throttle, async () => {
        const fields = readFields(mediaType, text);
        return { fields, client: await authenticate(header, fields, clients, throttle, address) };
      });
      if ((fields.grant_type ?? '').toLowerCase() !== 'client_credentials') throw new TokenError(400, 'unsupported_grant_type');
      if (!client) throw new TokenError(401, 'invalid_client');
      const answer = await grant(client, fields.scope, settings, issuer);
      ctx.set('Cache-Control', 'no-store');
      ctx.status = 200;
      ctx.body = answer;
    } catch (err) {
      if (!(err instanceof TokenError)) throw err;
      ctx.status = err.status;
      ctx.set('Cache-Control', 'no-store');
      if (err.retryAfter) ctx.set('Retry-After', String(err.retryAfter));
      ctx.body = { error: err.error, ...(err.description ? { error_description: err.description } : {}) };
    }
  };
}

/** The answer for an authenticated client: a token with its claims, signed for its lifetime. */
async function grant(client: Client, requestedScope: string | undefined, settings: Settings, issuer: Issuer): Promise<Record<string, unknown>> {
  const scope = grantScope(client, requestedScope, settings.naming.rosteringScopeBase);
  // A client may have a lifetime of its own (a short-lived one lets suites wait tokens out).
  const lifetime = client.tokenLifetimeSeconds ?? settings.tokenLifetimeSeconds;
  const accessToken = await issuer.sign({
    client_id: client.key,
    scope: scope.granted,
    ...(client.educationOrganizationIds.length ? { educationOrganizationId: client.educationOrganizationIds.join(',') } : {}),
    odsInstances: JSON.stringify({
      OdsInstances: client.odsInstances.map((i) => ({
        OdsInstanceId: i.id,
        OdsInstanceContext: i.context ? { ContextKey: i.context.key, ContextValue: i.context.value } : null,
      })),
    }),
    ...(client.tenant ? { tenantId: client.tenant } : {}),
  }, lifetime);
  return { access_token: accessToken, expires_in: lifetime, token_type: 'bearer', ...(scope.echo ? { scope: scope.granted } : {}) };
}

const tooManyFailures = (wait: number) => new TokenError(429, 'temporarily_unavailable', `Too many failed attempts; retry after ${wait} s.`, wait);

/** Runs the steps before a client is authenticated; a refusal among them counts against the address. */
async function counted<T>(address: string, throttle: TokenThrottle, steps: () => Promise<T>): Promise<T> {
  try {
    return await steps();
  } catch (err) {
    if (err instanceof TokenError || err instanceof Problem) throttle.refused(address);
    throw err;
  }
}

/** Body fields, names matched case-insensitively (upstream leniency). */
function readFields(mediaType: string, text: string): Record<string, string> {
  let raw: Record<string, unknown> = {};
  if (mediaType === 'application/json') {
    if (text.trim()) {
      const parsed = parseJson(text);
      if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new TokenError(400, 'invalid_request');
      raw = parsed as Record<string, unknown>;
    }
  } else {
    raw = Object.fromEntries(new URLSearchParams(text));
  }
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(raw)) if (typeof v === 'string' || typeof v === 'number') out[k.toLowerCase()] = String(v);
  return out;
}

/** The key and secret of a Basic header (any scheme case, blanks around); a malformed one is refused. */
function basicCredentials(header: string): [string, string] {
  const parts = header.trim().split(/\s+/);
  if (parts.length !== 2) throw new TokenError(400, 'invalid_request');
  const [scheme, credential] = parts;
  if (scheme.toLowerCase() !== 'basic') throw new TokenError(401, 'invalid_client');
  if (!credential || !/^[A-Za-z0-9+/]+={0,2}$/.test(credential)) throw new TokenError(400, 'invalid_request');
  const decoded = Buffer.from(credential, 'base64').toString('utf8').split(':');
  if (decoded.length !== 2) throw new TokenError(400, 'invalid_client');
  return decoded as [string, string];
}

/** Whether the header carries a client's secret this process already proved (cheap: no hash). */
function provenInHeader(header: string, clients: Map<string, Client>): boolean {
  if (!header) return false;
  try {
    const [id, secret] = basicCredentials(header);
    const client = clients.get(id);
    return !!client && provenSecret(secret, client.secretHash);
  } catch {
    return false;
  }
}

/** Credentials from a Basic header or the body, never both; returns the client or undefined. */
async function authenticate(header: string, fields: Record<string, string>, clients: Map<string, Client>, throttle: TokenThrottle, address: string): Promise<Client | undefined> {
  let id = fields.client_id;
  let secret = fields.client_secret;
  if (header) {
    const credentials = basicCredentials(header);
    if (id !== undefined || secret !== undefined) throw new TokenError(400, 'invalid_client');
    [id, secret] = credentials;
  }
  if (!id?.trim() || !secret?.trim()) throw new TokenError(401, 'invalid_request');
  const client = clients.get(id);
  // A secret this process already proved passes at once, so a flood against a key does not lock
  // out the client that holds it.
  if (client && provenSecret(secret, client.secretHash)) return client;
  const wait = throttle.keyWait(id, address);
  if (wait) throw tooManyFailures(wait);
  // Hash even for unknown keys so that timing does not reveal which keys exist.
  throttle.checking(id, address);
  const ok = await verifySecret(secret, client?.secretHash ?? UNKNOWN_CLIENT_HASH);
  if (!(client && ok)) return undefined;
  throttle.passed(id, address);
  return client;
}

const UNKNOWN_CLIENT_HASH = 'scrypt$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=';

/**
 * The scope claim: requested rostering scopes must all be the client's, each spelled exactly
 * `{scope_base}/<name>` (the bare name only without a base, decisions #30); a numeric scope must
 * be one of its education organizations; nothing requested grants the client's rostering scopes.
 */
function grantScope(client: Client, requested: string | undefined, scopeBase: string): { granted: string; echo: boolean } {
  const own = client.rosterScopes.filter((n) => ROSTER_SCOPES.includes(n)).map((n) => scopeValue(scopeBase, n));
  if (!requested?.trim()) return { granted: own.join(' '), echo: false };
  const want = requested.trim();
  if (/^\d+$/.test(want)) {
    if (!client.educationOrganizationIds.includes(Number(want))) {
      throw new TokenError(400, 'invalid_scope', "The client is not explicitly associated with the EducationOrganizationId specified in the requested 'scope'.");
    }
    return { granted: want, echo: true };
  }
  const scopes = want.split(/[\s,]+/);
  for (const s of scopes) {
    if (!own.includes(s)) {
      throw new TokenError(400, 'invalid_scope', `The supplied 'scope' is not a valid scope for this client.`);
    }
  }
  return { granted: scopes.join(' '), echo: true };
}
