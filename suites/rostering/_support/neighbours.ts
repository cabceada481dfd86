/**
 * The embedded reference's neighbour rostering services (target `rostering.neighbours`): one
 * process serving each on its port, configured by the seed's variables like the default
 * rostering service (its issuer, audience and public key, the in-memory admin database) but for
 * the issuer or audience the target gives. playwright.config.ts starts it with the run's issuer
 * key in CONFORMANCE_ISSUER_PRIVATE_KEY_PEM (and the test issuer's, trusted as well).
 */
import { createPublicKey } from 'node:crypto';
import { createServer } from 'node:http';
import { model } from '../../../spec/model/index.js';
import { createRosteringService } from '../../../reference/rostering/service.js';
import { StoreRegistry } from '../../../reference/store/registry.js';
import { target } from '../../_harness/target.js';
import { embeddedIssuerNames } from './flows.js';
import { rosteringOrigin } from './service.js';

const publicPem = (env: string) => {
  const pem = process.env[env];
  return pem ? createPublicKey(pem).export({ type: 'spki', format: 'pem' }).toString().trim().replace(/\r?\n/g, '\\n') : '';
};

const stores = new StoreRegistry(model, {});
for (const n of target.rostering?.neighbours ?? []) {
  const { app } = await createRosteringService({
    env: {
      OAUTH2_ISSUERBASEURL: n.issuer ?? embeddedIssuerNames().issuer ?? target.dataApi.baseUrl,
      OAUTH2_AUDIENCE: n.audience ?? embeddedIssuerNames().audience ?? rosteringOrigin(),
      OAUTH2_TOKENSIGNINGALG: 'RS256',
      OAUTH2_PUBLIC_KEY_PEM: publicPem('CONFORMANCE_ISSUER_PRIVATE_KEY_PEM'),
      ROSTER_ADDITIONAL_PUBLIC_KEYS_PEM: publicPem('CONFORMANCE_TEST_ISSUER_PRIVATE_KEY_PEM'),
      MULTITENANCY_ENABLED: 'false',
      CONNECTION_CONFIG: JSON.stringify({ adminConnection: 'memory:default' }),
      ROSTER_SCOPE_BASE: target.rostering?.scopeBase ?? '',
    },
    stores,
    defaultStore: 'memory:default',
  });
  const url = new URL(n.rostering);
  await new Promise<void>((resolve) => createServer(app.callback()).listen(Number(url.port), url.hostname, resolve));
}
console.log('rostering neighbours listening');
process.on('SIGTERM', () => process.exit(0));
