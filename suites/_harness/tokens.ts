import type { APIRequestContext } from '@playwright/test';
import { credentials, unsetCredentialVariables, type ResolvedTarget } from './target.js';

/** Asks the target's token endpoint for a token (client-credentials, Basic header, form body). */
export async function fetchToken(request: APIRequestContext, target: ResolvedTarget, creds: { key: string; secret: string }): Promise<string> {
  const res = await request.post(`${target.dataApi.baseUrl}/oauth/token`, {
    headers: { Authorization: `Basic ${Buffer.from(`${creds.key}:${creds.secret}`).toString('base64')}`, 'Content-Type': 'application/x-www-form-urlencoded' },
    data: 'grant_type=client_credentials',
  });
  if (res.status() !== 200) throw new Error(`token endpoint answered ${res.status()} for client ${creds.key}: ${await res.text()}`);
  const body = (await res.json()) as { access_token?: string };
  if (!body.access_token) throw new Error(`token endpoint gave no access_token for client ${creds.key}`);
  return body.access_token;
}

/**
 * Tokens are fetched once per client for the whole run (global setup) and shared with the
 * workers through the environment: a stock upstream endpoint refuses more than 15 live tokens
 * per client.
 */
export const TOKENS_ENV = 'CONFORMANCE_TOKENS';

export async function fetchAllTokens(request: APIRequestContext, target: ResolvedTarget): Promise<Record<string, string>> {
  const tokens: Record<string, string> = {};
  for (const [role, c] of Object.entries(target.clients)) {
    const unset = unsetCredentialVariables(c);
    // Without the primary client nothing can run; another role without credentials is not applicable.
    if (unset.length && role === 'primary') throw new Error(`the target's primary client names environment variables that are not set: ${unset.join(', ')}`);
    if (unset.length) console.log(`client '${role}': ${unset.join(', ')} not set; its tests are not applicable`);
    const creds = credentials(c);
    if (creds) tokens[role] = await fetchToken(request, target, creds);
  }
  return tokens;
}

export function sharedTokens(): Record<string, string> {
  const raw = process.env[TOKENS_ENV];
  if (!raw) throw new Error(`${TOKENS_ENV} is not set: the global setup did not run`);
  return JSON.parse(raw) as Record<string, string>;
}
