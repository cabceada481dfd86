import type { Context } from 'koa';
import type { Client } from '../config/load.js';
import { Problem } from '../http/problems.js';
import type { Issuer, TokenClaims } from './issuer.js';

/** Who is calling: the verified token's client, with the claims the token carries. */
export interface Principal {
  client: Client;
  claims: TokenClaims;
}

const CACHE_LIMIT = 10_000;

/**
 * Bearer authentication of data requests: the seed's four 401 cases, each with its `errors` entry
 * (research/ods-server-details.md §3). Verified tokens are cached until they expire, so the
 * signature is checked once per token rather than once per request.
 */
export function bearerAuthenticator(issuer: Issuer, clients: Client[], clockSkewSeconds: number) {
  const byKey = new Map(clients.map((c) => [c.key, c]));
  const cache = new Map<string, Principal>();
  /**
   * The last verified header per connection: a keep-alive client sends the same one on every
   * request, and comparing it costs less than hashing a JWT's few hundred characters for the
   * cache (about 2 µs of a GET by id's server time, bench profile). Kept with the socket, so the
   * entries die with their connections; expiry is judged as for the cache.
   */
  const lastBySocket = new WeakMap<object, { header: string; principal: Principal }>();
  const fail = (message: string) => new Problem('security:authentication', { errors: [message] });

  // Not async: a token already verified is answered at once, without a promise to wait for
  // (each await is a turn of the microtask queue on every request).
  return (ctx: Context): Principal | Promise<Principal> => {
    const header = ctx.get('authorization');
    const now = Date.now() / 1000;
    const last = lastBySocket.get(ctx.req.socket);
    if (last && last.header === header && (last.principal.claims.exp ?? 0) > now) return last.principal;
    if (!header) throw fail('Authorization header is missing.');
    const space = header.indexOf(' ');
    const scheme = space < 0 ? header : header.slice(0, space);
    if (scheme.toLowerCase() !== 'bearer') throw fail('Unknown Authorization header scheme.');
    const token = space < 0 ? '' : header.slice(space + 1).trim();
    if (!token) throw fail('Missing Authorization header bearer token value.');
    const remember = (principal: Principal) => { lastBySocket.set(ctx.req.socket, { header, principal }); return principal; };
    const cached = cache.get(token);
    if (cached && (cached.claims.exp ?? 0) > now) return remember(cached);
    return verified(token).then(remember);
  };

  async function verified(token: string): Promise<Principal> {
    let claims: TokenClaims;
    try {
      claims = await issuer.verify(token, clockSkewSeconds);
    } catch {
      throw fail('Invalid token');
    }
    const client = byKey.get(claims.client_id);
    if (!client) throw fail('Invalid token');
    const principal = { client, claims };
    if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
    cache.set(token, principal);
    return principal;
  }
}
