import { createCipheriv, createDecipheriv, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { ConfigurationError } from '../config/configuration-error.js';

/**
 * Data-store connection strings as the admin instance table may hold them (decisions #26):
 * `base64(iv)|base64(ciphertext)|base64(hmac)`, AES-256-CBC with PKCS#7 padding and a fresh IV,
 * HMAC-SHA256 over the ciphertext only, both keyed with one 32-byte key shared by the data API and
 * the rostering service. A value not in that form is plain text (research/rostering.md §9).
 */

export class EncryptionKeyError extends Error {}

/** Raised for a value that looks encrypted but does not decrypt; never carries the value or key. */
export class DecryptionError extends ConfigurationError {
  constructor(reason: string) { super(`cannot decrypt the connection string: ${reason}`); }
}

const BASE64 = /^[A-Za-z0-9+/]+=*$/;

/** The key from its standard base64 text; anything but exactly 32 bytes is refused. */
export function parseEncryptionKey(text: string): Buffer {
  const trimmed = text.trim();
  const key = BASE64.test(trimmed) ? Buffer.from(trimmed, 'base64') : Buffer.alloc(0);
  if (key.length !== 32) throw new EncryptionKeyError('must be the standard base64 text of exactly 32 bytes (e.g. `openssl rand -base64 32`)');
  return key;
}

/** A new random key, as base64 text. */
export const newEncryptionKey = (): string => randomBytes(32).toString('base64');

/** Three non-empty base64 segments separated by `|` (the upstream detection rule). */
export function looksEncrypted(value: string): boolean {
  const parts = value.split('|');
  return parts.length === 3 && parts.every((p) => p.length > 0 && BASE64.test(p));
}

export function encryptConnectionString(plain: string, key: Buffer): string {
  const iv = randomBytes(16);
  const cipher = createCipheriv('aes-256-cbc', key, iv);
  const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  const mac = createHmac('sha256', key).update(ciphertext).digest();
  return `${iv.toString('base64')}|${ciphertext.toString('base64')}|${mac.toString('base64')}`;
}

/**
 * The usable connection string of a stored value: decrypted when it looks encrypted (the MAC is
 * checked first, in constant time), else the value itself.
 */
export function readConnectionString(stored: string, key: Buffer | undefined): string {
  if (!looksEncrypted(stored)) return stored;
  if (!key) throw new DecryptionError('no encryption key is configured');
  const [iv, ciphertext, mac] = stored.split('|').map((p) => Buffer.from(p, 'base64'));
  const expected = createHmac('sha256', key).update(ciphertext).digest();
  if (mac.length !== expected.length || !timingSafeEqual(mac, expected)) throw new DecryptionError('the message authentication code does not match');
  if (iv.length !== 16) throw new DecryptionError('the initialisation vector is not 16 bytes');
  try {
    const decipher = createDecipheriv('aes-256-cbc', key, iv);
    return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
  } catch {
    throw new DecryptionError('the ciphertext is malformed');
  }
}
