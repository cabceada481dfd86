import type { HttpClient, HttpResponse } from '../../_harness/http.js';
import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import { pastThrottle } from '../../_harness/throttle.js';
import { FOREIGN_KEY_ENV } from '../../_harness/run-keys.js';
import { readFileSync } from 'node:fs';
import { expect } from '../../_harness/expect.js';
import { SignJWT, decodeJwt, importPKCS8, type JWTPayload } from 'jose';
import { issuerPrivateKeyPem, needs, notApplicable } from '../../_harness/capabilities.js';
import { check } from '../../_harness/rules.js';
import { recordsIn } from './read.js';
import { fetchToken, sharedTokens } from '../../_harness/tokens.js';
import { credentials, target } from '../../_harness/target.js';
import type { RosteringFlows, RosteringOrganizations } from '../../targets/types.js';
import { flowsDescription } from './flows.js';
import { issuingDataApi, rosteringRun } from './setup.js';
import type { World } from './world.js';
import { ROSTER_PREFIX } from '../../../spec/generate/openapi-rostering.js';

let foreignKey: string | undefined;

/**
 * A private key of the suites' own that no deployment trusts (PKCS#8 PEM), to sign tokens that
 * must be refused. Made once per run by Playwright's configuration (run-keys.ts), or else once
 * per worker: an RSA key costs 0.2–0.9 s of CPU, and the tests that forge tokens made one each.
 */
export function foreignKeyPem(): string {
  return foreignKey ??= process.env[FOREIGN_KEY_ENV] ?? generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
}

/**
 * The rostering service under test: where it is, its scopes, and tokens for it. Tokens come
 * from the deployment's token endpoint for the rostering clients the target declares, picked by
 * their declared claims; only where no client fits are they crafted, signed with the suites' own
 * test issuer (capability testIssuer) or, failing that, the issuer's key (issuerSigningKey).
 * Crafted tokens copy `iss` and `aud` from a real token, so the suites assume nothing about the
 * deployment's values.
 */
/** Where every rostering path starts below the service's base URL (the interface description's). */
export const PREFIX = ROSTER_PREFIX;

/** The resources the seed names (What the service does). */
export const RESOURCES = ['academicSessions', 'classes', 'courses', 'enrollments', 'orgs', 'schools', 'terms', 'gradingPeriods', 'users', 'students', 'teachers', 'demographics'] as const;

export const SCOPES = { core: 'roster-core.readonly', full: 'roster.readonly', demographics: 'roster-demographics.readonly' } as const;

/** The service's origin, or not applicable when the target describes none. */
export function rosteringOrigin(): string {
  const r = target.rostering;
  needs('rostering', r, 'a rostering service');
  // An embedded target's port already follows REFERENCE_PORT / ROSTERING_PORT (loadTarget).
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

export type ScopeKey = keyof typeof SCOPES;
type FlowName = keyof RosteringFlows;

const realClaims = new Map<string, Promise<JWTPayload>>();

/**
 * The claims of a real token from a data API's token endpoint: a rostering client's token issued
 * there, else the primary client's (fetched once per worker and endpoint).
 */
export function issuedClaims(request: HttpClient, dataApi = target.dataApi.baseUrl): Promise<JWTPayload> {
  let claims = realClaims.get(dataApi);
  if (!claims) {
    const run = rosteringRun();
    const role = Object.entries(target.rostering?.clients ?? {}).find(([r, c]) => run.tokens[r] && issuingDataApi(c) === dataApi)?.[0];
    const creds = credentials(target.clients.primary)!;
    claims = role ? Promise.resolve(decodeJwt(run.tokens[role]))
      : dataApi === target.dataApi.baseUrl ? Promise.resolve(decodeJwt(sharedTokens().primary))
        : fetchToken(request, { ...target, dataApi: { ...target.dataApi, baseUrl: dataApi } }, creds).then((t) => decodeJwt(t));
    realClaims.set(dataApi, claims);
  }
  return claims;
}

export interface TokenSpec {
  /** Rostering scope names (keys of SCOPES) or literal scope values, joined by spaces. */
  scopes?: ScopeKey[];
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

/** The declarations that let the suites sign a token with any claims (signingKeyPem). */
const SIGNING_KEYS = ['capabilities.testIssuer', 'capabilities.issuerSigningKey'];

/**
 * The key that signs crafted tokens: the suites' own test issuer (capability testIssuer),
 * which the deployment trusts besides its issuer; else the issuer's own key (capability
 * issuerSigningKey, embedded reference only); else the test is not applicable.
 */
export function signingKeyPem(): string {
  const cap = target.capabilities?.testIssuer;
  const pem = cap?.pemEnv ? process.env[cap.pemEnv] : cap?.pemFile ? readFileSync(cap.pemFile, 'utf8') : undefined;
  if (cap && !pem && !target.capabilities?.issuerSigningKey) notApplicable('capabilities.testIssuer names no readable key');
  needs(SIGNING_KEYS, pem || target.capabilities?.issuerSigningKey, 'to sign tokens with claims no configured client has');
  return pem || issuerPrivateKeyPem();
}

/** A token with any claims, signed with signingKeyPem() (or `opts.key`); iss and aud copied from a real token. */
export async function craftToken(request: HttpClient, spec: TokenSpec, opts: { dataApi?: string; key?: string; alg?: string } = {}): Promise<string> {
  const pem = opts.key ?? signingKeyPem();
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

/**
 * What a test needs of a token, in the terms a rostering client is declared with. `orgs: []`
 * and `tenant: null` mean no such claim; `instances` left out means one reading the data API's
 * store (the single flow's plain or encrypted instance, or any when no single flow is described).
 */
export interface ClientNeed {
  orgs: number[];
  scopes: ScopeKey[];
  flow?: FlowName;
  tenant?: string | null;
  instances?: { id: number; context?: { key: string; value: string } }[];
}

const scopeName = (k: ScopeKey) => SCOPES[k];
const same = (a: unknown[], b: unknown[]) => JSON.stringify(a.map(String).sort()) === JSON.stringify(b.map(String).sort());

/** The first declared rostering client whose claims are exactly what the test needs, with its token. */
export function declaredClient(need: ClientNeed): { role: string; token: string } | undefined {
  const run = rosteringRun();
  const single = flowsDescription().single;
  for (const [role, c] of Object.entries(target.rostering?.clients ?? {})) {
    const token = run.tokens[role];
    if (!token || (c.flow ?? 'single') !== (need.flow ?? 'single')) continue;
    if (!same(c.educationOrganizationIds ?? [], need.orgs) || !same(c.scopes ?? [], need.scopes.map(scopeName))) continue;
    if (need.tenant !== undefined && (c.tenant ?? null) !== need.tenant) continue;
    if (need.instances) {
      if (JSON.stringify(c.odsInstances ?? null) !== JSON.stringify(need.instances)) continue;
    } else if (single && c.odsInstances && ![single.instances.plain, single.instances.encrypted].includes(c.odsInstances[0]?.id)) continue;
    return { role, token };
  }
  return undefined;
}

/**
 * A token with the claims a test needs: a declared client's, issued by the deployment, when one
 * fits; else one crafted with those claims (testIssuer, or issuerSigningKey); else not applicable.
 */
export async function tokenFor(request: HttpClient, need: ClientNeed): Promise<string> {
  const found = declaredClient(need);
  needs(['rostering.clients', ...SIGNING_KEYS], found || target.capabilities?.testIssuer || target.capabilities?.issuerSigningKey,
    `a rostering client with the claims ${JSON.stringify(need)}, or a key to sign such a token`);
  if (found) return found.token;
  const flow = need.flow ?? 'single';
  const dataApi = flow === 'single' ? undefined : flowsDescription()[flow]?.dataApi;
  if (flow !== 'single') needs(`rostering.flows.${flow}`, dataApi);
  return craftToken(request, {
    orgs: need.orgs.length ? need.orgs : undefined,
    scopes: need.scopes,
    ...(need.instances ? { instances: need.instances } : {}),
    ...(need.tenant ? { tenantId: need.tenant } : {}),
    ...(need.orgs.length ? {} : { claims: { educationOrganizationId: undefined } }),
  }, dataApi ? { dataApi } : {});
}

/** A reader of all the world holds: its state agency, core and demographics scopes. */
export const seaToken = (request: HttpClient, world: World, scopes: ScopeKey[] = ['core', 'demographics']) => tokenFor(request, { orgs: [world.sea], scopes });

/** The organizations the target reserves for the rostering suites, or not applicable. */
export function reservedOrganizations(): RosteringOrganizations {
  const o = target.rostering?.organizations;
  needs('rostering.organizations', o);
  return o;
}

/** The public key (SPKI PEM) of signingKeyPem(): one the deployment is configured to trust. */
export const trustedPublicKeyPem = (): string => createPublicKey(signingKeyPem()).export({ type: 'spki', format: 'pem' }).toString();

// ---- responses ---------------------------------------------------------------------------------

export interface StatusBody { stdx_codeMajor: string; stdx_severity: string; stdx_description?: string; stdx_codeMinor?: string }

export const TOKEN_FAILURE_BODY = 'roster.roster-errors.token-failure-body';
export const STATUS_ENVELOPE = 'roster.roster-errors.status-envelope';

/** The stdx_ status body in a response's text (seed for a failed token check; research §5 for the rest). */
function statusBody(res: HttpResponse, text: string, codeMinor?: string): StatusBody {
  expect(res.headers()['content-type'] ?? '', 'content type').toMatch(/^application\/json/);
  const body = JSON.parse(text) as StatusBody;
  expect(body.stdx_codeMajor).toBe('failure');
  expect(body.stdx_severity).toBe('error');
  expect(typeof body.stdx_description).toBe('string');
  expect(body.stdx_description!.length).toBeGreaterThan(0);
  if (codeMinor) expect(body.stdx_codeMinor).toBe(codeMinor);
  return body;
}

const expectStatusCode = (res: HttpResponse, text: string, status: number) =>
  expect(res.status(), `status of ${res.url()}; body: ${text.slice(0, 300)}`).toBe(status);

/** Asserts a failure with the `stdx_` status body and returns the body (SHOULD tests, and checks). */
export async function expectStatus(res: HttpResponse, status: number, codeMinor?: string): Promise<StatusBody> {
  const text = await res.text();
  expectStatusCode(res, text, status);
  return statusBody(res, text, codeMinor);
}

/**
 * A status the seed states, for the calling test's rule, and the `stdx_` body the seed does not
 * state for it, in a check of roster-errors.status-envelope (the test must declare that rule).
 */
export async function expectStatusAndEnvelope(res: HttpResponse, status: number): Promise<void> {
  const text = await res.text();
  expectStatusCode(res, text, status);
  await check(STATUS_ENVELOPE, `the ${status} carries the stdx_ failure body`, () => { statusBody(res, text); });
}

/**
 * The body the seed gives every failed token check: the stdx_ failure body whose description
 * states that authentication failed because the token is invalid or missing. Its content, not a
 * wording: the reference's "Authentication failed: the token is invalid or missing." and
 * upstream's "Invalid or expired token." and "Missing or invalid Authorization header." all say it.
 */
export async function expectTokenFailureBody(res: HttpResponse): Promise<void> {
  const { stdx_description: description } = statusBody(res, await res.text());
  expect(description, 'the description names the token (or the header or authentication carrying it)').toMatch(/token|authori[sz]ation|authenticat/i);
  expect(description, 'the description says why: invalid, missing or expired').toMatch(/invalid|missing|expired|not valid|absent/i);
}

/** The 401 of a failed token check with its body (expectTokenFailureBody). */
export async function expectTokenFailure(res: HttpResponse): Promise<void> {
  const text = await res.text();
  expectStatusCode(res, text, 401);
  await expectTokenFailureBody(res);
}

/**
 * The 401 of a failed token check: the status for the calling test's rule, the body in a check of
 * roster-errors.token-failure-body (the test must declare that rule).
 */
export async function expectUnauthorized(res: HttpResponse): Promise<void> {
  const text = await res.text();
  expectStatusCode(res, text, 401);
  await check(TOKEN_FAILURE_BODY, 'the 401 carries the stdx_ failure body saying the token is invalid or missing', () => expectTokenFailureBody(res));
}

/**
 * GET returning 200 and the JSON body. The envelope of decision 24 (SHOULD) comes with it: only
 * for SHOULD tests, or inside a check; MUST tests read through read.ts.
 */
export async function getJson(request: HttpClient, url: string, token: string): Promise<Record<string, unknown>> {
  const res = await request.get(url, { headers: bearer(token) });
  const text = await res.text();
  expect(res.status(), `GET ${url}: ${text.slice(0, 300)}`).toBe(200);
  return JSON.parse(text) as Record<string, unknown>;
}

export type RosterRecord = Record<string, unknown> & { sourcedId: string };

/**
 * Every record of a collection (one page of the maximum size), whatever its envelope key: the
 * SHOULD tests of query parameters, visibility and mapping fail on their own rule, not on
 * decision 24's keys (collection-envelope's test checks those).
 */
export async function list(request: HttpClient, path: string, token: string, opts: { origin?: string; route?: string } = {}): Promise<RosterRecord[]> {
  return getRecords(request, rosterUrl(`${path}${path.includes('?') ? '&' : '?'}limit=500`, opts), token);
}

/** GET returning 200 and a collection: its records, whatever the envelope key (read.ts). */
export async function getRecords(request: HttpClient, url: string, token: string): Promise<RosterRecord[]> {
  const body = await getJson(request, url, token);
  const records = recordsIn(body);
  expect(records, `${url} answers a collection`).toBeDefined();
  return records as RosterRecord[];
}

/**
 * GET that waits out a 429 (Retry-After, at most 10 s, three times): a throttle on failed token
 * checks per address is the deployment's own protection, which the seed leaves open, and answers
 * for how many a test sends, not for the token. For tests that send many refused tokens.
 */
export function getPastThrottle(request: HttpClient, url: string, headers: Record<string, string> = {}): Promise<HttpResponse> {
  return pastThrottle(() => request.get(url, { headers }));
}

/** The item URL of a record, when it has a sourcedId to address it by. */
export const itemUrl = (endpoint: string, record: { sourcedId?: unknown } | undefined, opts: { origin?: string; route?: string } = {}): string | undefined =>
  typeof record?.sourcedId === 'string' ? rosterUrl(`${endpoint}/${encodeURIComponent(record.sourcedId)}`, opts) : undefined;
