import { randomBytes, scryptSync, timingSafeEqual } from 'node:crypto';

/** Client secrets are kept only as scrypt hashes and compared in constant time (decisions #21). */
const PARAMS = { N: 4096, r: 8, p: 1 } as const;
const LENGTH = 32;

export function hashSecret(secret: string): string {
  const salt = randomBytes(16);
  return `scrypt$${salt.toString('base64')}$${scryptSync(secret, salt, LENGTH, PARAMS).toString('base64')}`;
}

export function verifySecret(secret: string, stored: string): boolean {
  const [scheme, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const actual = scryptSync(secret, Buffer.from(salt, 'base64'), expected.length, PARAMS);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
