/**
 * The embedded reference's neighbour rostering services (target `rostering.neighbours`): one
 * process serving each on its port, configured by the seed's variables like the default rostering
 * service (its issuer, audience and public key, the in-memory admin database) but for the issuer
 * or audience the target gives. Started by deployments.ts with its plan in EMBEDDED_NEIGHBOURS
 * and the keys in CONFORMANCE_ISSUER_PRIVATE_KEY_PEM / CONFORMANCE_TEST_ISSUER_PRIVATE_KEY_PEM.
 */
import { createPublicKey } from 'node:crypto';
import { createServer } from 'node:http';
import { model } from '../../spec/model/index.js';
import { createRosteringService } from '../../reference/rostering/service.js';
import { StoreRegistry } from '../../reference/store/registry.js';
import { NEIGHBOURS_ENV, type NeighboursPlan } from './neighbours-plan.js';


const publicPem = (env: string) => {
  const pem = process.env[env];
  return pem ? createPublicKey(pem).export({ type: 'spki', format: 'pem' }).toString().trim().replace(/\r?\n/g, '\\n') : '';
};

async function serve(plan: NeighboursPlan): Promise<void> {
  const stores = new StoreRegistry(model, {});
  for (const n of plan.neighbours) {
    const { app } = await createRosteringService({
      env: {
        OAUTH2_ISSUERBASEURL: n.issuer,
        OAUTH2_AUDIENCE: n.audience,
        OAUTH2_TOKENSIGNINGALG: 'RS256',
        OAUTH2_PUBLIC_KEY_PEM: publicPem('CONFORMANCE_ISSUER_PRIVATE_KEY_PEM'),
        ROSTER_ADDITIONAL_PUBLIC_KEYS_PEM: publicPem('CONFORMANCE_TEST_ISSUER_PRIVATE_KEY_PEM'),
        MULTITENANCY_ENABLED: 'false',
        CONNECTION_CONFIG: JSON.stringify({ adminConnection: 'memory:default' }),
        ROSTER_SCOPE_BASE: plan.scopeBase,
      },
      stores,
      defaultStore: 'memory:default',
    });
    const url = new URL(n.rostering);
    await new Promise<void>((resolve) => createServer(app.callback()).listen(Number(url.port), url.hostname, resolve));
  }
  console.log('rostering neighbours listening');
}

await serve(JSON.parse(process.env[NEIGHBOURS_ENV] ?? '{"scopeBase":"","neighbours":[]}') as NeighboursPlan);
process.on('SIGTERM', () => process.exit(0));
