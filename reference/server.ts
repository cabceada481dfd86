// First: keeps nextTick on its fast path before any full collection (see tick-shape.ts).
import './http/tick-shape.js';
import { readFileSync } from 'node:fs';
import { repoFile } from '../spec/repo-files.js';
import type { AddressInfo, Socket } from 'node:net';
import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import type { Document } from 'openapi-backend';
import { operationIds, validationDocument } from '../spec/generate/openapi-data.js';
import { loadSettings, type Settings } from './config/load.js';
import type { ReferenceConfig } from './config/types.js';
import { AdminDatabases } from './admin-db/index.js';
import { createDataApiApp } from './data-api/app.js';
import { OriginPolicy } from './http/origin.js';
import type { Clock } from './http/rate-limit.js';
import { InstanceResolver } from './data-api/instances.js';
import { RequestValidator } from './data-api/validator.js';
import { createRosteringService, inProcessEnv } from './rostering/service.js';
import { Issuer } from './security/issuer.js';
import { loadDemoData, loadSchoolYears } from './demo/load.js';
import { loadServedStandard, type ServedParts } from './served-standard.js';
import { StoreRegistry } from './store/registry.js';
import type { DataStore } from './store/store.js';

/** A running reference: its URLs, its parts for in-process use (benchmarks, tests), and close(). */
export interface RunningReference {
  settings: Settings;
  /** The data standard served, its model and interface descriptions (served-standard.ts). */
  served: ServedParts;
  dataApiBaseUrl: string;
  /** The rostering read service beside the data API (origin; paths start with /std/roster/...). */
  rosteringBaseUrl: string;
  store: DataStore;
  /** Every data store of the process, by connection string. */
  stores: StoreRegistry;
  issuer: Issuer;
  close: () => Promise<void>;
}

export interface StartOptions {
  configFile?: string;
  overrides?: Partial<ReferenceConfig>;
  clock?: Clock;
  /**
   * What to serve instead of the configured standard's model and documents (the bench's
   * five-resource model). Built documents may share sub-objects: validation resolves references
   * into copies (data-api/request-refs.ts), never in place.
   */
  served?: ServedParts;
}

export async function startReference(opts: StartOptions = {}): Promise<RunningReference> {
  const settings = loadSettings(opts.configFile, opts.overrides);
  // The issuer's key is made (or imported) while the interface descriptions load and compile.
  const keys = Issuer.keys(settings.issuer.privateKeyPem);
  keys.catch(() => {}); // awaited below; a failure surfaces there
  // The configured standard's model and interface descriptions, as upstream lays them out;
  // requests are validated against the resources and descriptors together.
  const served = opts.served ?? loadServedStandard(settings.dataStandard, settings.extensionResources);
  const { model, documents, documentHash } = served;
  const document = validationDocument(documents) as Document & Record<string, unknown>;
  const version = (JSON.parse(readFileSync(repoFile('package.json'), 'utf8')) as { version: string }).version;
  const validator = new RequestValidator(document);
  const stores = new StoreRegistry(model, { standard: served.standard, fsync: settings.journalFsync, recover: settings.recoverJournal, compactEvery: settings.journalCompactEvery });
  const store = stores.open(settings.dataStore);
  if (settings.demoData && !store.newestChangeVersion) loadDemoData(model, store);
  if (settings.preloadSchoolYears) loadSchoolYears(model, store, settings.schoolYears);

  const host = settings.host;
  // The ports listen before the apps exist (the issuer names the data API's URL, port included,
  // and the rostering audience its own), so each server holds early requests until its app is set.
  const dataServer = await listen(settings.port, host, settings.connections);
  const dataPort = (dataServer.address() as AddressInfo).port;
  const dataApiBaseUrl = `http://${host}:${dataPort}${settings.basePath}`;
  // A start-up that fails after listening closes what it opened (held requests included).
  const servers: HoldingServer[] = [dataServer];
  let rosteringBaseUrl: string;
  let issuer: Issuer;
  try {
    const rosteringServer = await listen(settings.rosteringPort, host, settings.connections);
    servers.push(rosteringServer);
    rosteringBaseUrl = `http://${host}:${(rosteringServer.address() as AddressInfo).port}`;
    issuer = await Issuer.create({
      issuer: settings.issuer.issuer ?? (settings.publicOrigin ? `${settings.publicOrigin}${settings.basePath}` : dataApiBaseUrl),
      audience: settings.issuer.audience ?? rosteringBaseUrl,
      keys,
    });
    // One set of admin databases for both servers: the same token resolves the same store.
    const admins = new AdminDatabases(settings.dataStore);
    const instances = new InstanceResolver(settings, stores, admins);
    const clock = opts.clock ? { clock: opts.clock } : {};
    const app = createDataApiApp({ settings, model, store, validator, issuer, documents, dataModel: served.dataModel, version, build: `${version}+${documentHash}`, instances, ...clock });
    dataServer.handle(app.callback());
    // The rostering service verifies the issuer's tokens with its public key; its environment
    // variables (seed) default to the issuer's values and may be set in the process environment.
    const rostering = await createRosteringService({ env: inProcessEnv(issuer, process.env, settings.naming.rosteringScopeBase), stores, admins, defaultStore: settings.dataStore, clockSkewSeconds: settings.tokenClockSkewSeconds,
      limits: { failuresPerAddress: settings.throttle.rosteringFailuresPerAddress, ...(settings.rateLimit ? { perCaller: settings.rateLimit } : {}) },
      origins: new OriginPolicy(settings), ...clock,
    });
    rosteringServer.handle(rostering.app.callback());
  } catch (err) {
    await closeAll(servers);
    throw err;
  }

  // Compile the remaining validators after start-up, one per tick (a few ms each, so requests
  // interleave with it), so the first request
  // of each operation does not pay for it and start-up does not wait for all of them.
  const pending = model.resources.flatMap((r) => { const ids = operationIds(r); return [ids.post, ids.put, ids.getAll]; });
  const warm = () => {
    validator.warm(pending.splice(0, 1));
    if (pending.length) setImmediate(warm);
  };
  if (settings.warmValidators) setImmediate(warm);

  return {
    settings,
    served,
    dataApiBaseUrl,
    rosteringBaseUrl,
    store,
    stores,
    issuer,
    close: async () => {
      await closeAll(servers);
      await stores.flush();
    },
  };
}

const closeAll = (servers: Server[]) => Promise.all(servers.map((s) => new Promise<void>((resolve) => { s.closeAllConnections(); s.close(() => resolve()); })));

/** A listening server whose request handler is set later; requests that arrive before it wait. */
interface HoldingServer extends Server { handle(listener: RequestListener): void }

async function listen(port: number, host: string, limits: Settings['connections']): Promise<HoldingServer> {
  const { createServer } = await import('node:http');
  let target: RequestListener | undefined;
  const held: [IncomingMessage, ServerResponse][] = [];
  // Node checks the header and request deadlines every connectionsCheckingInterval (30 s by
  // default): a tenth of the shorter deadline closes a stalled socket close to its deadline.
  const server = createServer({
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    connectionsCheckingInterval: Math.max(50, Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs) / 10),
  }, (req, res) => (target ? target(req, res) : held.push([req, res]))) as HoldingServer;
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  // A socket that never sends a byte starts no header deadline (and the parser reads natively,
  // so a socket inactivity timeout never fires): its first request must arrive in time.
  const firstRequest = new WeakMap<Socket, NodeJS.Timeout>();
  server.on('connection', (socket: Socket) => firstRequest.set(socket, setTimeout(() => socket.destroy(), limits.headersTimeoutMs).unref()));
  server.on('request', (req: IncomingMessage) => clearTimeout(firstRequest.get(req.socket)));
  server.handle = (listener) => {
    target = listener;
    for (const [req, res] of held.splice(0)) listener(req, res);
  };
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return server;
}
