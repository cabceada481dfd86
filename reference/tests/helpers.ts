import { startReference, type RunningReference } from '../server.js';
import type { ReferenceConfig } from '../config/types.js';
import type { Clock } from '../http/rate-limit.js';

/**
 * An in-process reference on a free port with one unrestricted client, and a token for it. Its
 * validators compile on first use: warming them all would keep the test process busy for seconds
 * after close (and mutation testing runs these files once per mutant). `opts.clock` drives its
 * throttles and rate limits, so a test steps time instead of waiting for it.
 */
export async function startForTest(overrides: Partial<ReferenceConfig> = {}, opts: { clock?: Clock } = {}): Promise<RunningReference & { token: string; data: (path: string, init?: RequestInit) => Promise<Response> }> {
  const ref = await startReference({ overrides: { port: 0, rosteringPort: 0, warmValidators: false, clients: [{ key: 'test', secret: 'test-secret' }], ...overrides }, ...opts });
  const res = await fetch(`${ref.dataApiBaseUrl}/oauth/token`, {
    method: 'POST',
    headers: { Authorization: `Basic ${Buffer.from('test:test-secret').toString('base64')}`, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials',
  });
  const token = ((await res.json()) as { access_token: string }).access_token;
  const data = (path: string, init: RequestInit = {}) =>
    fetch(`${ref.dataApiBaseUrl}/data/v3/core/${path}`, { ...init, headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', ...(init.headers ?? {}) } });
  return { ...ref, token, data };
}
