import { createHmac, randomBytes, scryptSync, timingSafeEqual } from 'node:crypto';

/** Client secrets are kept only as scrypt hashes and compared in constant time (decisions #21). */
const PARAMS = { N: 4096, r: 8, p: 1 } as const;
const LENGTH = 32;

export function hashSecret(secret: string): string {
  const salt = randomBytes(16);
  return `scrypt$${salt.toString('base64')}$${scryptSync(secret, salt, LENGTH, PARAMS).toString('base64')}`;
}

/**
 * Secrets already proven against a stored hash, remembered as an HMAC under a key that never
 * leaves the process: a client presenting the same secret again skips the deliberately slow
 * scrypt (≈9 ms of blocked event loop per token). A wrong or new secret still pays full price.
 */
const PROVEN_KEY = randomBytes(32);
const proven = new Map<string, Buffer>();
const PROVEN_LIMIT = 10_000;
const mac = (secret: string) => createHmac('sha256', PROVEN_KEY).update(secret).digest();

export function verifySecret(secret: string, stored: string): boolean {
  const known = proven.get(stored);
  const presented = mac(secret);
  if (known && timingSafeEqual(known, presented)) return true;
  const [scheme, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const actual = scryptSync(secret, Buffer.from(salt, 'base64'), expected.length, PARAMS);
  const ok = actual.length === expected.length && timingSafeEqual(actual, expected);
  if (ok) {
    if (proven.size >= PROVEN_LIMIT) proven.delete(proven.keys().next().value as string);
    proven.set(stored, presented);
  }
  return ok;
}
