import type { HttpClient } from './http.js';
import type { ResolvedTarget } from './target.js';

/** The token endpoint answered, but not with a token. */
export class TokenRefused extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

/** Asks the target's token endpoint for a token (client-credentials, Basic header, form body). */
export async function fetchToken(request: HttpClient, target: ResolvedTarget, creds: { key: string; secret: string }, timeout?: number): Promise<string> {
  const res = await request.post(`${target.dataApi.baseUrl}/oauth/token`, {
    headers: { Authorization: `Basic ${Buffer.from(`${creds.key}:${creds.secret}`).toString('base64')}`, 'Content-Type': 'application/x-www-form-urlencoded' },
    data: 'grant_type=client_credentials',
    ...(timeout ? { timeout } : {}),
  });
  if (res.status() !== 200) throw new TokenRefused(res.status(), `token endpoint answered ${res.status()} for client ${creds.key}: ${(await res.text()).slice(0, 300)}`);
  const body = (await res.json()) as { access_token?: string };
  if (!body.access_token) throw new TokenRefused(res.status(), `token endpoint gave no access_token for client ${creds.key}`);
  return body.access_token;
}

/**
 * Tokens are fetched once per client for the whole run (global setup, by the preflight) and shared with the
 * workers through the environment: a stock upstream endpoint refuses more than 15 live tokens
 * per client.
 */
export const TOKENS_ENV = 'CONFORMANCE_TOKENS';

export function sharedTokens(): Record<string, string> {
  const raw = process.env[TOKENS_ENV];
  if (!raw) throw new Error(`${TOKENS_ENV} is not set: the global setup did not run`);
  return JSON.parse(raw) as Record<string, string>;
}
