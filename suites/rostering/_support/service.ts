import { createPublicKey } from 'node:crypto';
import { expect, type APIRequestContext, type APIResponse } from '@playwright/test';
import { SignJWT, decodeJwt, importPKCS8, type JWTPayload } from 'jose';
import { issuerPrivateKeyPem, notApplicable } from '../../_harness/capabilities.js';
import { fetchToken, sharedTokens } from '../../_harness/tokens.js';
import { credentials, isEmbeddedReference, target } from '../../_harness/target.js';

/**
 * The rostering service under test: where it is, its scopes, and tokens for it. Tokens come
 * from the target's issuer (the data API token endpoint) or are crafted with the issuer's signing
 * key (capability issuerSigningKey) so that a test can choose every claim; crafted tokens copy
 * `iss` and `aud` from a real token, so the suites assume nothing about the deployment's values.
 */
export const PREFIX = '/std/roster/rostering/v1p2';

export const SCOPES = { core: 'roster-core.readonly', full: 'roster.readonly', demographics: 'roster-demographics.readonly' } as const;

/** The service's origin, or not applicable when the target describes none. */
export function rosteringOrigin(): string {
  const r = target.rostering;
  if (!r) notApplicable('needs a rostering section in the target file');
  // The embedded reference places its rostering port next to REFERENCE_PORT (or on ROSTERING_PORT).
  if (isEmbeddedReference && (process.env.ROSTERING_PORT || process.env.REFERENCE_PORT)) {
    const port = process.env.ROSTERING_PORT ?? String(Number(process.env.REFERENCE_PORT) + 1);
    return r.baseUrl.replace(/:\d+(\/|$)/, `:${port}$1`).replace(/\/$/, '');
  }
  return r.baseUrl.replace(/\/$/, '');
}

/** `{scope_base}<name>`. */
export const scope = (name: keyof typeof SCOPES): string => `${target.rostering?.scopeBase ?? ''}${SCOPES[name]}`;

/** URL of `<resource>[/<id>]` under the prefix, with an optional route prefix (`/tenant/context`). */
export function rosterUrl(path: string, opts: { origin?: string; route?: string } = {}): string {
  return `${opts.origin ?? rosteringOrigin()}${opts.route ?? ''}${PREFIX}/${path.replace(/^\//, '')}`;
}

export const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

// ---- tokens ------------------------------------------------------------------------------------

const realClaims = new Map<string, Promise<JWTPayload>>();

/** The claims of a real token from a data API's token endpoint (once per worker and endpoint). */
export function issuedClaims(request: APIRequestContext, dataApi = target.dataApi.baseUrl): Promise<JWTPayload> {
  let claims = realClaims.get(dataApi);
  if (!claims) {
    const creds = credentials(target.clients.primary)!;
    claims = dataApi === target.dataApi.baseUrl
      ? Promise.resolve(decodeJwt(sharedTokens().primary))
      : fetchToken(request, { ...target, dataApi: { ...target.dataApi, baseUrl: dataApi } }, creds).then((t) => decodeJwt(t));
    realClaims.set(dataApi, claims);
  }
  return claims;
}

export interface TokenSpec {
  /** Rostering scope names (keys of SCOPES) or literal scope values, joined by spaces. */
  scopes?: (keyof typeof SCOPES)[];
  /** The scope claim verbatim (string or array), instead of `scopes`. */
  scope?: unknown;
  /** educationOrganizationId claim: ids joined by commas, or verbatim when not an array of numbers. */
  orgs?: (number | string)[] | string;
  /** odsInstances claim as instance ids with optional contexts; `null` leaves the claim out. */
  instances?: { id: number; context?: { key: string; value: string } }[] | null;
  tenantId?: string;
  /** Claim overrides applied last (`undefined` removes a claim). */
  claims?: Record<string, unknown>;
}

/** A token signed with the issuer's key (not applicable without capability issuerSigningKey). */
export async function craftToken(request: APIRequestContext, spec: TokenSpec, opts: { dataApi?: string; key?: string; alg?: string } = {}): Promise<string> {
  const pem = opts.key ?? issuerPrivateKeyPem();
  const real = await issuedClaims(request, opts.dataApi);
  const now = Math.floor(Date.now() / 1000);
  const claims: Record<string, unknown> = {
    iss: real.iss,
    aud: real.aud,
    iat: now,
    exp: now + 600,
    client_id: real.client_id,
    scope: spec.scope ?? (spec.scopes ?? ['core', 'demographics']).map(scope).join(' '),
  };
  if (spec.orgs !== undefined) claims.educationOrganizationId = Array.isArray(spec.orgs) ? spec.orgs.join(',') : spec.orgs;
  const instances = spec.instances === undefined ? [{ id: 1 }] : spec.instances;
  if (instances) {
    claims.odsInstances = JSON.stringify({ OdsInstances: instances.map((i) => ({ OdsInstanceId: i.id, OdsInstanceContext: i.context ? { ContextKey: i.context.key, ContextValue: i.context.value } : null })) });
  }
  if (spec.tenantId !== undefined) claims.tenantId = spec.tenantId;
  for (const [k, v] of Object.entries(spec.claims ?? {})) {
    if (v === undefined) delete claims[k];
    else claims[k] = v;
  }
  return new SignJWT(claims as JWTPayload).setProtectedHeader({ alg: opts.alg ?? 'RS256', typ: 'JWT' }).sign(await importPKCS8(pem, opts.alg ?? 'RS256'));
}

/** The issuer's public key (SPKI PEM), derived from its private key. */
export const issuerPublicKeyPem = (): string => createPublicKey(issuerPrivateKeyPem()).export({ type: 'spki', format: 'pem' }).toString();

// ---- responses ---------------------------------------------------------------------------------

export interface StatusBody { stdx_codeMajor: string; stdx_severity: string; stdx_description?: string; stdx_codeMinor?: string }

/** Asserts a failure with the `stdx_` status body (seed; research §5) and returns the body. */
export async function expectStatus(res: APIResponse, status: number, codeMinor?: string): Promise<StatusBody> {
  const text = await res.text();
  expect(res.status(), `status of GET ${res.url()}; body: ${text.slice(0, 300)}`).toBe(status);
  expect(res.headers()['content-type'] ?? '', 'content type').toMatch(/^application\/json/);
  const body = JSON.parse(text) as StatusBody;
  expect(body.stdx_codeMajor).toBe('failure');
  expect(body.stdx_severity).toBe('error');
  expect(typeof body.stdx_description).toBe('string');
  expect(body.stdx_description!.length).toBeGreaterThan(0);
  if (codeMinor) expect(body.stdx_codeMinor).toBe(codeMinor);
  return body;
}

/** The 401 of a failed token check: the status body whose description says why (seed). */
export async function expectUnauthorized(res: APIResponse): Promise<void> {
  const body = await expectStatus(res, 401);
  expect(body.stdx_description, 'description states that authentication failed because the token is invalid or missing').toMatch(/authenticat/i);
  expect(body.stdx_description).toMatch(/token/i);
  expect(body.stdx_description).toMatch(/invalid|missing/i);
}

/** GET returning 200 and the JSON body. */
export async function getJson(request: APIRequestContext, url: string, token: string): Promise<Record<string, unknown>> {
  const res = await request.get(url, { headers: bearer(token) });
  const text = await res.text();
  expect(res.status(), `GET ${url}: ${text.slice(0, 300)}`).toBe(200);
  return JSON.parse(text) as Record<string, unknown>;
}

export type RosterRecord = Record<string, unknown> & { sourcedId: string };

/** Every record of a collection (one page of the maximum size), by collection key. */
export async function list(request: APIRequestContext, path: string, token: string, key: string, opts: { origin?: string; route?: string } = {}): Promise<RosterRecord[]> {
  const body = await getJson(request, rosterUrl(`${path}${path.includes('?') ? '&' : '?'}limit=500`, opts), token);
  expect(Array.isArray(body[key]), `${path} answers {"${key}": [...]}`).toBe(true);
  return body[key] as RosterRecord[];
}
