import { createHmac, randomBytes, scrypt, scryptSync, timingSafeEqual, type BinaryLike, type ScryptOptions } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { promisify } from 'node:util';

/** Client secrets are kept only as scrypt hashes and compared in constant time (decisions #21). */
const PARAMS = { N: 4096, r: 8, p: 1 } as const;
const LENGTH = 32;
const scryptAsync = promisify(scrypt) as (password: BinaryLike, salt: BinaryLike, keylen: number, options: ScryptOptions) => Promise<Buffer>;

/** At configuration load only (start-up), so synchronous. */
export function hashSecret(secret: string): string {
  const salt = randomBytes(16);
  return `scrypt$${salt.toString('base64')}$${scryptSync(secret, salt, LENGTH, PARAMS).toString('base64')}`;
}

/**
 * Secrets already proven against a stored hash, remembered as an HMAC under a key that never
 * leaves the process: a client presenting the same secret again skips the deliberately slow
 * scrypt. A wrong or new secret still pays full price, off the event loop.
 */
const PROVEN_KEY = randomBytes(32);
const proven = new Map<string, Buffer>();
const PROVEN_LIMIT = 10_000;
const mac = (secret: string) => createHmac('sha256', PROVEN_KEY).update(secret).digest();

/**
 * Hashes run on libuv's thread pool, at most one fewer at a time than there are cores, so that a
 * flood of wrong secrets leaves the event loop (and the pool's file work) a core of its own.
 */
const MAX_HASHING = Math.max(1, availableParallelism() - 1);
let hashing = 0;
const waiting: (() => void)[] = [];

async function gated<T>(work: () => Promise<T>): Promise<T> {
  if (hashing >= MAX_HASHING) await new Promise<void>((resolve) => waiting.push(resolve));
  hashing++;
  try {
    return await work();
  } finally {
    hashing--;
    waiting.shift()?.();
  }
}

/** Whether this secret was already proven against this hash: cheap, so it may be asked before any throttling. */
export function provenSecret(secret: string, stored: string): boolean {
  const known = proven.get(stored);
  return !!known && timingSafeEqual(known, mac(secret));
}

export async function verifySecret(secret: string, stored: string): Promise<boolean> {
  if (provenSecret(secret, stored)) return true;
  const presented = mac(secret);
  const [scheme, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const actual = await gated(() => scryptAsync(secret, Buffer.from(salt, 'base64'), expected.length, PARAMS));
  const ok = actual.length === expected.length && timingSafeEqual(actual, expected);
  if (ok) {
    if (proven.size >= PROVEN_LIMIT) proven.delete(proven.keys().next().value as string);
    proven.set(stored, presented);
  }
  return ok;
}
