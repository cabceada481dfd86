import Router from '@koa/router';
import Koa, { type Context } from 'koa';
import { AVAILABLE_CHANGE_VERSIONS_PATH, DATA_ROOT, TOKEN_PATH } from '../../spec/generate/openapi-data.js';
import type { CompiledModel } from '../../spec/model/compiled.js';
import type { Settings } from '../config/load.js';
import { errorBoundary } from '../http/boundary.js';
import { Problem } from '../http/problems.js';
import { OriginPolicy } from '../http/origin.js';
import { RateLimiter, type Clock } from '../http/rate-limit.js';
import { Authorizer } from '../security/authorization.js';
import { bearerAuthenticator } from '../security/bearer.js';
import type { Issuer } from '../security/issuer.js';
import { tokenEndpoint } from '../security/token-endpoint.js';
import { tokenInfoEndpoint } from '../security/token-info.js';
import type { DataStore } from '../store/store.js';
import { adminRoutes } from '../admin/routes.js';
import type { DataApi } from './context.js';
import type { InstanceResolver } from './instances.js';
import { discoveryRoutes, type DiscoveryParts, type InterfaceDocuments } from './discovery.js';
import { feed, getAll, partitions } from './handlers/collection.js';
import { getById, put, remove } from './handlers/item.js';
import { upsert } from './handlers/upsert.js';
import { ALLOWED, methodNotAllowed, parseId, resolveRoute, type Route } from './routes.js';
import { withoutTrailingSlashes } from '../http/paths.js';
import type { RequestValidator } from './validator.js';

export interface DataApiParts {
  settings: Settings;
  model: CompiledModel;
  store: DataStore;
  validator: RequestValidator;
  issuer: Issuer;
  /** The generated interface descriptions of the standard served (served-standard.ts), served as metadata. */
  documents: InterfaceDocuments;
  /** Discovery's `dataModels` entry but its name (the naming profile's). */
  dataModel: DiscoveryParts['dataModel'];
  version: string;
  /** Identifies the build: the package version and the interface description's hash. */
  build: string;
  /** Resolves each request's data store from its token (and tenant route segment). */
  instances: InstanceResolver;
  /** Time for the throttles and rate limits (tests step it); `Date.now` by default. */
  clock?: Clock;
}

/**
 * The data API as a Koa app. Fixed endpoints (discovery, token, metadata, change versions) are
 * @koa/router routes; resource paths go through one catch-all that resolves them in O(1).
 */
export function createDataApiApp(parts: DataApiParts): Koa {
  const { settings, model, store, validator, issuer, clock = Date.now } = parts;
  const api: DataApi = { settings, model, store, validator, authenticate: bearerAuthenticator(issuer, settings.clients, settings.tokenClockSkewSeconds), authorizer: new Authorizer(model) };
  const router = new Router({ prefix: settings.basePath || undefined });

  discoveryRoutes(router, { basePath: settings.basePath, naming: settings.naming, model, documents: parts.documents, dataModel: parts.dataModel, version: parts.version, build: parts.build });
  router.post(TOKEN_PATH, tokenEndpoint(settings, issuer, clock));
  router.post(`${TOKEN_PATH}_info`, tokenInfoEndpoint(store, api.authenticate, settings.naming));
  router.get(AVAILABLE_CHANGE_VERSIONS_PATH, async (ctx) => {
    await api.authenticate(ctx);
    ctx.body = { oldestChangeVersion: 0, newestChangeVersion: readStore(ctx, store).newestChangeVersion };
  });
  adminRoutes(router, settings, store, clock);

  const limiter = settings.rateLimit ? new RateLimiter(settings.rateLimit, clock) : undefined;
  const origins = new OriginPolicy(settings);
  const app = new Koa();
  app.proxy = false;
  app.use(errorBoundary);
  app.use(async (ctx, next) => {
    ctx.state.maxBodyBytes = settings.maxBodyBytes;
    ctx.state.problemTypePrefix = settings.naming.problemTypePrefix;
    // Absolute URLs name the public origin, or a Host that names this service (never another).
    const served = origins.resolve(ctx);
    if (!served) throw new Problem('bad-request', { errors: ['The Host header does not name this service.'] });
    ctx.state.origin = served.origin;
    ctx.state.originAtListeningPort = served.atListeningPort;
    await next();
  });
  // The router is asked only for paths one of its routes names: its matching (the Host, the
  // path, every route's pattern, its debug log) was about 5 % of a GET by id's server time.
  const routes = router.routes();
  const fixed = fixedPaths(router);
  app.use((ctx, next) => (fixed && !fixed.has(fixedPathKey(ctx.path)) ? next() : routes(ctx as Parameters<typeof routes>[0], next)));
  app.use(async (ctx) => {
    // {base_url}[/<tenant>]/data/v3/… — the tenant segment only when the host is multi-tenant.
    const rest = ctx.path.slice(settings.basePath.length);
    const tenantMatch = parts.instances.multiTenant ? /^\/([^/]+)(\/.*)$/.exec(rest) : null;
    const tenant = tenantMatch ? safeDecode(tenantMatch[1]) : undefined;
    const path = tenantMatch ? tenantMatch[2] : rest;
    const prefix = `${DATA_ROOT}/`;
    if (!ctx.path.startsWith(settings.basePath) || !path.toLowerCase().startsWith(prefix.toLowerCase())) return fixedRouteFallback(ctx, router);
    // Awaited only when there is something to wait for: a known token, its data store and a
    // synchronous handler (GET) take no turn of the microtask queue.
    const principal = api.authenticate(ctx);
    ctx.state.principal = principal instanceof Promise ? await principal : principal;
    limiter?.take(ctx.state.principal.client.key);
    const route = resolveRoute(model, path.slice(prefix.length), settings.naming.namespaceSegment);
    const found = parts.instances.storeFor(ctx.state.principal, tenant);
    const requestStore = found instanceof Promise ? await found : found;
    const handled = dispatch(requestStore === store ? api : { ...api, store: requestStore }, ctx, route);
    if (handled) await handled;
  });
  return app;
}

/**
 * The paths the router's routes name, by fixedPathKey; undefined when a route has a parameter,
 * a wildcard or a pattern (then every request asks the router). The router matches a path
 * without case and with or without a trailing slash (its defaults): the key is the path in
 * lower case without trailing slashes, so a request the router may serve always finds its key.
 */
export function fixedPaths(router: Router): Set<string> | undefined {
  const paths = router.stack.map((layer) => String(layer.path));
  if (paths.some((p) => /[:*?()[\]{}+]/.test(p))) return undefined;
  return new Set(paths.map(fixedPathKey));
}

export function fixedPathKey(path: string): string {
  return withoutTrailingSlashes(path).toLowerCase();
}

/** Fixed endpoints: a known path with another method is 405, anything else 404. */
function fixedRouteFallback(ctx: Context, router: Router): void {
  const known = ['GET', 'POST', 'PUT', 'DELETE'].filter((m) => router.match(ctx.path, m).route);
  if (known.length) throw new Problem('method-not-allowed', { errors: [`The endpoint of the request does not support the '${ctx.method}' method.`] }, { Allow: known.join(', ') });
  throw new Problem('not-found');
}

function dispatch(api: DataApi, ctx: Context, route: Route): Promise<void> | void {
  const method = ctx.method;
  // A malformed id is refused before the method check, whatever the method (decisions #11).
  if (route.kind === 'item') parseId(route.id!);
  if (!ALLOWED[route.kind].includes(method)) throw methodNotAllowed(route, method);
  if (method !== 'GET') {
    // Writes are refused while a snapshot is selected (seed rule 5).
    if (/^true$/i.test(ctx.get('use-snapshot'))) {
      throw new Problem('method-not-allowed', { errors: ['An attempt was made to modify data in a Snapshot, but this data is read-only.'] }, { Allow: 'GET' });
    }
  } else {
    const read = readStore(ctx, api.store);
    if (read !== api.store) api = { ...api, store: read };
  }
  switch (route.kind) {
    case 'collection':
      return method === 'GET' ? getAll(api, ctx, route) : upsert(api, ctx, route);
    case 'item':
      if (method === 'GET') return getById(api, ctx, route);
      if (method === 'PUT') return put(api, ctx, route);
      return remove(api, ctx, route);
    case 'partitions':
      return partitions(api, ctx, route);
    default:
      return feed(api, ctx, route);
  }
}

/** Reads with Use-Snapshot: true come from the configured snapshot, else 404 (decisions #19). */
function readStore(ctx: Context, store: DataStore): DataStore {
  if (!/^true$/i.test(ctx.get('use-snapshot'))) return store;
  if (!store.snapshot) throw new Problem('not-found', { detail: 'Snapshot not found.', errors: ['The snapshot connection for the ODS has not been configured.'] });
  return store.snapshot;
}


function safeDecode(segment: string): string {
  try { return decodeURIComponent(segment); } catch { return segment; }
}
