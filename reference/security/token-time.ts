import type { JWTPayload } from 'jose';

/** How far in the future a token's `iat` may lie by default: clocks of issuer and server differ a little. */
export const DEFAULT_CLOCK_SKEW_SECONDS = 60;

/**
 * An `iat` later than now plus the allowed skew (decisions #30): a token from the future is
 * refused by both services. jose checks this only together with a maximum token age, which
 * would make `iat` required; the seeds do not require it.
 */
export function issuedInFuture(payload: JWTPayload, now: number, skewSeconds: number): boolean {
  return typeof payload.iat === 'number' && payload.iat > now + skewSeconds;
}
