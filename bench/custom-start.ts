/**
 * A minimal starter for the data API with an alternative model and interface description, built
 * from the same reference modules startReference() uses (RequestValidator, StoreRegistry,
 * AdminDatabases, InstanceResolver, Issuer, createDataApiApp). It exists because
 * startReference() reads the served standard's model and documents itself and cannot take
 * others; the parameter it would need is
 *   startReference({ ..., model?: CompiledModel, document?: Document })
 * used for the RequestValidator, the StoreRegistry, createDataApiApp and the warm-up list.
 *
 * Keep this in step with reference/server.ts (data API half): it mirrors its start-up sequence,
 * and the bench sanity-checks every workload, so a drift shows as a skipped workload.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Document } from 'openapi-backend';
import { buildDataApiDocuments, operationIds, validationDocument } from '../spec/generate/openapi-data.js';
import type { CompiledModel } from '../spec/model/compiled.js';
import { SERVED } from '../spec/model/served.js';
import { defaultStandard } from '../spec/model/upstream.js';
import { AdminDatabases } from '../reference/admin-db/index.js';
import { loadSettings, type Settings } from '../reference/config/load.js';
import type { ReferenceConfig } from '../reference/config/types.js';
import { createDataApiApp } from '../reference/data-api/app.js';
import { InstanceResolver } from '../reference/data-api/instances.js';
import { RequestValidator } from '../reference/data-api/validator.js';
import { Issuer } from '../reference/security/issuer.js';
import { StoreRegistry } from '../reference/store/registry.js';
import type { DataStore } from '../reference/store/store.js';
import type { InterfaceDocuments } from '../reference/data-api/discovery.js';

export interface CustomReference {
  settings: Settings;
  dataApiBaseUrl: string;
  store: DataStore;
  issuer: Issuer;
  operations: number;
  close: () => Promise<void>;
}

export async function startCustom(model: CompiledModel, version: string, overrides: Partial<ReferenceConfig>): Promise<CustomReference> {
  const settings = loadSettings(undefined, overrides);
  // Through JSON, as startReference() reads it from disk: openapi-backend dereferences the
  // document in place, which breaks on the generator's shared sub-objects.
  const documents = JSON.parse(JSON.stringify(buildDataApiDocuments(model, version, SERVED[defaultStandard].describes))) as InterfaceDocuments;
  const document = validationDocument(documents) as Document & Record<string, unknown>;
  const validator = new RequestValidator(document);
  await validator.init();
  const stores = new StoreRegistry(model);
  const store = stores.open(settings.dataStore);
  const server: Server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(settings.port, settings.host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const dataApiBaseUrl = `http://${settings.host}:${port}${settings.basePath}`;
  const issuer = await Issuer.create({
    issuer: settings.issuer.issuer ?? dataApiBaseUrl,
    audience: settings.issuer.audience ?? `http://${settings.host}:${settings.rosteringPort}`,
    ...(settings.issuer.privateKeyPem ? { privateKeyPem: settings.issuer.privateKeyPem } : {}),
  });
  const admins = new AdminDatabases(settings.dataStore);
  const instances = new InstanceResolver(settings, stores, admins);
  const app = createDataApiApp({ settings, model, store, validator, issuer, documents, dataModel: SERVED[defaultStandard].dataModel, version, build: version, instances });
  server.on('request', app.callback());
  const pending = model.resources.flatMap((r) => { const ids = operationIds(r); return [ids.post, ids.put, ids.getAll]; });
  const warm = () => {
    validator.warm(pending.splice(0, 1));
    if (pending.length) setImmediate(warm);
  };
  setImmediate(warm);
  const operations = Object.values(document.paths ?? {}).reduce((n, item) => n + Object.keys(item as object).length, 0);
  return {
    settings, dataApiBaseUrl, store, issuer, operations,
    close: async () => {
      await new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); });
      await stores.flush();
    },
  };
}
