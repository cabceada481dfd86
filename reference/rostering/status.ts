import type { Context, Next } from 'koa';
import { logRequestError } from '../http/error-log.js';
import { ConfigurationError } from '../config/configuration-error.js';

/**
 * Rostering failures: the `stdx_` status body (seed: Authentication; research/rostering.md §5),
 * always `failure` / `error`, with the upstream flat `stdx_codeMinor` where it has one.
 */
export class RosterError extends Error {
  constructor(readonly status: number, readonly description: string, readonly codeMinor?: string, readonly headers: Record<string, string> = {}) { super(description); }
}

/** Every failed token check, a missing or wrong scope (seed; decision 36) and a tenant mismatch. */
export const unauthorized = () => new RosterError(401, 'Authentication failed: the token is invalid or missing.');
export const invalidData = (description: string) => new RosterError(400, description, 'invalid_data');
export const unknownPath = () => new RosterError(404, 'The specified resource was not found.');
export const tooManyRequests = (retryAfter: number) => new RosterError(429, `Too many requests; retry after ${retryAfter} s.`, undefined, { 'Retry-After': String(retryAfter) });

export function statusBody(err: RosterError): Record<string, string> {
  return {
    stdx_codeMajor: 'failure',
    stdx_severity: 'error',
    stdx_description: err.description,
    ...(err.codeMinor ? { stdx_codeMinor: err.codeMinor } : {}),
  };
}

/** Outermost middleware: RosterErrors become their body; anything else a 500 that reveals nothing. */
export async function statusBoundary(ctx: Context, next: Next): Promise<void> {
  try {
    await next();
  } catch (err) {
    const known = err instanceof RosterError ? err : undefined;
    if (!known) logRequestError(`${err instanceof ConfigurationError ? 'configuration: ' : ''}rostering ${ctx.method} ${ctx.path}: ${(err as Error)?.message ?? err}`);
    const e = known ?? new RosterError(500, 'An internal server error occurred');
    ctx.status = e.status;
    if (e.status === 401) ctx.set('WWW-Authenticate', 'Bearer');
    ctx.set(e.headers);
    ctx.type = 'application/json; charset=utf-8';
    ctx.body = JSON.stringify(statusBody(e));
  }
}
