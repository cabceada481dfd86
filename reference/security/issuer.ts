import { createPublicKey, randomBytes } from 'node:crypto';
import { SignJWT, exportSPKI, generateKeyPair, importPKCS8, importSPKI, jwtVerify, type CryptoKey, type JWTPayload } from 'jose';
import { ConfigError } from '../config/load.js';
import { issuedInFuture } from './token-time.js';

/**
 * The token issuer: RS256-signed JWT access tokens (decisions #20), so the rostering service
 * can verify them with the public key alone.
 */
export interface TokenClaims extends JWTPayload {
  client_id: string;
  scope: string;
  /** Comma-separated education organization ids. */
  educationOrganizationId?: string;
  /** JSON string: `{"OdsInstances":[{"OdsInstanceId":1,"OdsInstanceContext":null}]}`. */
  odsInstances?: string;
  tenantId?: string;
}

export class Issuer {
  private constructor(
    readonly issuer: string,
    readonly audience: string,
    private readonly privateKey: CryptoKey,
    readonly publicKey: CryptoKey,
    readonly publicKeyPem: string,
  ) {}

  /**
   * The signing keys: imported from the configured PEM, or a fresh pair. Started before the
   * issuer's URLs are known (they name the listening ports), so that generating a key, which
   * runs off the main thread, overlaps the rest of start-up.
   */
  static async keys(privateKeyPem?: string): Promise<{ privateKey: CryptoKey; publicKey: CryptoKey }> {
    if (!privateKeyPem) return generateKeyPair('RS256', { extractable: true, modulusLength: 2048 });
    try {
      const privateKey = await importPKCS8(privateKeyPem, 'RS256', { extractable: true });
      const pub = createPublicKey(privateKeyPem).export({ type: 'spki', format: 'pem' }).toString();
      return { privateKey, publicKey: await importSPKI(pub, 'RS256', { extractable: true }) };
    } catch (err) {
      // An operator's setting: one line naming it (issue 23 point 5).
      throw new ConfigError(`issuer.privateKeyPem (or REFERENCE_ISSUER_PRIVATE_KEY_PEM) is not an RSA private key in PKCS#8 PEM: ${(err as Error).message}`);
    }
  }

  static async create(opts: { issuer: string; audience: string; privateKeyPem?: string; keys?: Promise<{ privateKey: CryptoKey; publicKey: CryptoKey }> }): Promise<Issuer> {
    const { privateKey, publicKey } = await (opts.keys ?? Issuer.keys(opts.privateKeyPem));
    return new Issuer(opts.issuer, opts.audience, privateKey, publicKey, await exportSPKI(publicKey));
  }

  async sign(claims: TokenClaims, lifetimeSeconds: number): Promise<string> {
    return new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
      .setIssuer(this.issuer)
      .setAudience(this.audience)
      .setIssuedAt()
      .setJti(randomBytes(16).toString('hex'))
      .setExpirationTime(Math.floor(Date.now() / 1000) + lifetimeSeconds)
      .sign(this.privateKey);
  }

  /**
   * Verifies signature, algorithm, issuer, audience (the one this issuer names: a token for
   * another service is not ours, decisions #30), expiry, and an `iat` no later than the clock
   * skew allows; throws on any failure.
   */
  async verify(token: string, clockSkewSeconds: number): Promise<TokenClaims> {
    const { payload } = await jwtVerify<TokenClaims>(token, this.publicKey, { issuer: this.issuer, audience: this.audience, algorithms: ['RS256'], requiredClaims: ['exp'] });
    if (issuedInFuture(payload, Math.floor(Date.now() / 1000), clockSkewSeconds)) throw new Error('iat is in the future');
    return payload;
  }
}
