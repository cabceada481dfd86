import type { HttpClient } from '../../_harness/http.js';
import { SignJWT, decodeJwt, decodeProtectedHeader, importPKCS8 } from 'jose';
import { test, expect, target, DataClient } from '../../_harness/fixtures.js';
import { issuerPrivateKeyPem, needs } from '../../_harness/capabilities.js';
import { credentials } from '../../_harness/target.js';
import { sharedTokens } from '../../_harness/tokens.js';

/**
 * Tokens past their lifetime, made in one of the two ways decision 39 allows: signed by the
 * issuer's key the target declares (capability issuerSigningKey), or obtained from the client the
 * target declares short-lived (clients.shortLived) and waited out. The data API does not trust
 * the suites' own test issuer (capability testIssuer: the rostering service only), so that one
 * cannot sign for it. Without either, the expired-token rules are not applicable.
 */
const EXPIRED_PURPOSE = 'sign a token whose lifetime has elapsed';

/** How long past its expiry the deployment may still accept a token (declared, default 0). */
export const leeway = () => target.dataApi.tokenExpiryLeewaySeconds;
/** Margin for the request's own travel and for `exp` counted in whole seconds. */
const MARGIN_MS = 1500;

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms)));
const nowSeconds = () => Math.floor(Date.now() / 1000);

/** Gives the test time to wait a token out: its timeout grows by `seconds`. */
export function allowWaiting(seconds: number): void {
  test.setTimeout(test.info().timeout + seconds * 1000);
}

// ---- signed by the issuer's key --------------------------------------------------------------


/** The primary client's real token claims with some changed, signed with the issuer's key (not applicable without it). */
export async function issuerSigned(changes: Record<string, unknown>, alg = 'RS256', purpose = 'sign a crafted token'): Promise<string> {
  needs('capabilities.issuerSigningKey', target.capabilities?.issuerSigningKey, `to ${purpose}`);
  const pem = issuerPrivateKeyPem();
  const real = sharedTokens().primary;
  const { kid } = decodeProtectedHeader(real);
  return new SignJWT({ ...decodeJwt(real), ...changes })
    .setProtectedHeader({ alg, typ: 'JWT', ...(kid ? { kid } : {}) })
    .sign(await importPKCS8(pem, alg));
}

/** The primary client's token as the issuer would sign it, but expired ten minutes (plus any leeway) ago. */
export function issuerSignedExpired(): Promise<string> {
  const exp = nowSeconds() - 600 - leeway();
  return issuerSigned({ iat: exp - target.dataApi.tokenLifetimeSeconds, exp }, 'RS256', EXPIRED_PURPOSE);
}

// ---- obtained from the short-lived client ----------------------------------------------------

export interface ShortLived {
  key: string;
  secret: string;
  /** Its declared token lifetime, in seconds. */
  lifetime: number;
  /** `{base_url}` of the deployment it belongs to: the target's, or the second one it names. */
  baseUrl: string;
  /** A client without credentials at that deployment, paths relative to its data root. */
  anon: (request: HttpClient) => DataClient;
}

/** The short-lived client, or not applicable with the reason the expired-token rules give. */
export function shortLivedClient(): ShortLived {
  const client = target.clients.shortLived;
  const creds = credentials(client);
  needs('clients.shortLived', client && creds, 'a short-lived client, with its tokenLifetimeSeconds, whose token can be waited out');
  const baseUrl = (client.baseUrl ?? target.dataApi.baseUrl).replace(/\/$/, '');
  const there = { ...target, dataApi: { ...target.dataApi, baseUrl }, dataRoot: `${baseUrl}/data/v3/${target.dataApi.namespaceSegment}` };
  return { ...creds, lifetime: client.tokenLifetimeSeconds, baseUrl, anon: (request) => new DataClient(request, there, undefined, []) };
}

export interface Issued {
  token: string;
  expiresIn: unknown;
  /** When the request was sent and its answer came (ms since the epoch). */
  sentAt: number;
  receivedAt: number;
}

/**
 * A new token from the token endpoint under `baseUrl` (the short-lived client's, else the
 * target's), client credentials in a Basic header; expects 200.
 */
export async function obtainToken(request: HttpClient, creds: { key: string; secret: string; baseUrl?: string }): Promise<Issued> {
  const sentAt = Date.now();
  const res = await request.post(`${creds.baseUrl ?? target.dataApi.baseUrl}/oauth/token`, {
    headers: { Authorization: `Basic ${Buffer.from(`${creds.key}:${creds.secret}`).toString('base64')}`, 'Content-Type': 'application/x-www-form-urlencoded' },
    data: 'grant_type=client_credentials',
  });
  const receivedAt = Date.now();
  expect(res.status(), `token for client ${creds.key}: ${await res.text()}`).toBe(200);
  const body = (await res.json()) as { access_token?: unknown; expires_in?: unknown };
  expect(typeof body.access_token, 'access_token').toBe('string');
  return { token: body.access_token as string, expiresIn: body.expires_in, sentAt, receivedAt };
}

/**
 * Waits until shortly before the token's lifetime ends (counted from when it was asked for, so
 * the issuer's clock cannot have started later); false when the lifetime is too short for that.
 */
export async function waitUntilNearEnd(issued: Issued, lifetime: number): Promise<boolean> {
  if (lifetime < 3) return false;
  // The issuer counts whole seconds: `exp` is at least sentAt - 1 s + lifetime; 2 s before the
  // end leaves the request a second to arrive.
  await sleep(issued.sentAt + lifetime * 1000 - 2000 - Date.now());
  return true;
}

/** How often a token is presented while it is waited out (waitOut), well within a server's idle timeout. */
const PRESENT_EVERY_MS = 1000;

/**
 * Waits until the token's lifetime and the declared leeway have surely elapsed (counted from its
 * answer). With `present`, the token is presented about once a second meanwhile, as a polling
 * client presents it: the connection that carried it while it was valid stays open (a server
 * closes an idle one after a few seconds, 5 by Node's default), so the request after the wait
 * asks a deployment that remembers a token per connection on that very connection. Those answers
 * are not judged: where the lifetime and the leeway end is the deployment's to round.
 */
export async function waitOut(issued: Issued, lifetime: number, present?: () => Promise<unknown>): Promise<void> {
  const until = issued.receivedAt + (lifetime + leeway()) * 1000 + MARGIN_MS;
  await (present ? presentingUntil(until, present) : sleep(until - Date.now()));
}

/** Sleeps until `until` (ms since the epoch), the token presented about once a second meanwhile (see waitOut). */
export async function presentingUntil(until: number, present: () => Promise<unknown>): Promise<void> {
  for (let next = Date.now(); next < until - PRESENT_EVERY_MS; next += PRESENT_EVERY_MS) {
    await sleep(next - Date.now());
    await present();
  }
  await sleep(until - Date.now());
}
