import { generateKeyPair } from 'node:crypto';

/**
 * RSA private keys (PKCS#8 PEM) made once per run, in Playwright's main process, and handed to
 * its workers and the embedded deployments through the environment: the issuer's and the test
 * issuer's (embedded reference), and the suites' foreign key, which no deployment trusts.
 * Made on libuv's threads, all at once, while the configuration goes on: an RSA key costs
 * 0.2–0.9 s of CPU, and the foreign key was made again by every worker (24 at a distance).
 * A key already in the environment (a worker, or set by the caller) is kept.
 */
export const FOREIGN_KEY_ENV = 'CONFORMANCE_FOREIGN_PRIVATE_KEY_PEM';

function rsaPrivateKeyPem(): Promise<string> {
  return new Promise((resolve, reject) => {
    generateKeyPair('rsa', { modulusLength: 2048, privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } }, (err, _publicKey, privateKey) => (err ? reject(err) : resolve(privateKey)));
  });
}

/** Sets each variable not set yet to a new key; resolves once all are set. */
export async function runKeysOnce(variables: string[]): Promise<void> {
  await Promise.all(variables.filter((v) => !process.env[v]).map(async (v) => { process.env[v] ??= await rsaPrivateKeyPem(); }));
}
