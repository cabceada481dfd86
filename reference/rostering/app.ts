import Koa, { type Context } from 'koa';
import { ROSTER_PREFIX } from '../../spec/generate/openapi-rostering.js';
import type { CompiledModel } from '../../spec/model/compiled.js';
import { OriginPolicy } from '../http/origin.js';
import { Buckets, type Clock, type Rate } from '../http/rate-limit.js';
import type { RosteringConfig } from './config.js';
import type { Endpoint } from './endpoints.js';
import { applyList, project } from './query/apply.js';
import { readListQuery, readSingleQuery } from './query/params.js';
import { parseRoute } from './route.js';
import type { StoreResolver } from './routing.js';
import { RosterError, statusBoundary, tooManyRequests, unauthorized, unknownPath } from './status.js';
import type { TokenCheck } from './token-check.js';
import { RosterViews } from './view.js';

export interface RosteringParts {
  config: RosteringConfig;
  model: CompiledModel;
  endpoints: Map<string, Endpoint>;
  tokens: TokenCheck;
  resolver: StoreResolver;
  /** Per-caller request rate (by client_id), and failed token checks per source address; each off when absent. */
  limits?: { perCaller?: Rate; failuresPerAddress?: Rate };
  /** Which Host values it answers and the origin its links name; by default the address a connection came in on. */
  origins?: OriginPolicy;
  /** Time for the limits (tests step it); `Date.now` by default. */
  clock?: Clock;
}

/**
 * The rostering read service as a Koa app. One pipeline for every endpoint, in the upstream
 * order (research §1): where the prefix sits (404) → token checks (401) → endpoint, for any path
 * under the prefix (404) → the endpoint's scope (401) → data-store resolution (401/404/400) →
 * query parameters (400) → the caller's rows.
 */
export function createRosteringApp(parts: RosteringParts): Koa {
  const { config, endpoints, tokens, resolver } = parts;
  const views = new RosterViews(parts.model);
  const clock = parts.clock ?? Date.now;
  const origins = parts.origins ?? new OriginPolicy({});
  const perCaller = parts.limits?.perCaller ? new Buckets(parts.limits.perCaller, clock) : undefined;
  const failures = parts.limits?.failuresPerAddress ? new Buckets(parts.limits.failuresPerAddress, clock) : undefined;
  const app = new Koa();
  app.proxy = false;
  app.use(statusBoundary);
  app.use(async (ctx) => {
    // Links name the public origin, or a Host that names this service (never another).
    const origin = origins.resolve(ctx)?.origin;
    if (!origin) throw new RosterError(400, 'The Host header does not name this service.');
    if (ctx.path === '/health-check' && ctx.method === 'GET') {
      ctx.body = { status: 'pass', mode: config.multiTenancy ? 'multi-tenant' : 'single-tenant' };
      return;
    }
    // A small discovery document at the root, so a client (or a person) finds the service.
    if (ctx.path === '/' && ctx.method === 'GET') {
      const segments = [config.multiTenancy ? '{tenantId}' : '', config.context ? '{contextValue}' : ''].filter(Boolean).map((s) => `/${s}`).join('');
      ctx.body = {
        applicationName: 'Rostering read service (reference implementation)',
        version: 'v1p2',
        urls: { rostering: `${origin}${segments}${ROSTER_PREFIX}`, healthCheck: `${origin}/health-check` },
      };
      return;
    }
    const route = parseRoute(ctx.path, config);
    if (ctx.method !== 'GET') {
      ctx.set('Allow', 'GET');
      throw new RosterError(405, 'The rostering service is read-only: only GET is supported.');
    }
    // The token is checked first, so that a valid one passes whatever others sent from its
    // address; failed checks are counted per address, and over the limit answered 429.
    const caller = await tokens.verify(ctx.get('authorization')).catch((err: unknown) => { throw failures ? counted(failures, ctx.req.socket.remoteAddress ?? '', err) : err; });
    if (perCaller) {
      const wait = perCaller.wait(caller.clientId);
      if (wait) throw tooManyRequests(wait);
      perCaller.take(caller.clientId);
    }
    const endpoint = route.unknown ? undefined : endpoints.get(route.endpoint.toLowerCase());
    if (!endpoint) throw unknownPath();
    if (!endpoint.scopes.some((s) => caller.scopes.has(s))) throw unauthorized();
    const store = resolver.resolve(route, caller);
    const view = views.of(store);
    const claimed = [...new Set(caller.educationOrganizationIds)].sort();

    if (route.sourcedId !== undefined) {
      const { fields } = readSingleQuery(ctx.querystring, endpoint);
      const row = view.find(endpoint, route.sourcedId, claimed);
      if (!row) throw new RosterError(404, `Resource not found: ${endpoint.name}/${route.sourcedId}`);
      send(ctx, `${origin}${route.base}`, { [endpoint.singleKey]: project(row.data, fields) });
      return;
    }
    const query = readListQuery(ctx.querystring, endpoint);
    const { total, items } = applyList(view.visible(endpoint, claimed), query);
    ctx.set('X-Total-Count', String(total));
    send(ctx, `${origin}${route.base}`, { [endpoint.collectionKey]: items });
  });
  return app;
}

/** A failed token check from this address, counted: its own error within the limit, 429 beyond it. */
function counted(failures: Buckets, address: string, err: unknown): unknown {
  if (!(err instanceof RosterError && err.status === 401)) return err;
  const wait = failures.wait(address);
  failures.take(address);
  return wait ? tooManyRequests(wait) : err;
}

/** JSON with every relative href made absolute under `root` (the origin and the request's route prefix). */
function send(ctx: Context, root: string, body: Record<string, unknown>): void {
  ctx.status = 200;
  ctx.type = 'application/json; charset=utf-8';
  // Plain JSON.stringify (a replacer function takes V8 off its fast serializer), then the
  // relative hrefs made absolute: in JSON text a member is exactly `"href":"/…`.
  ctx.body = JSON.stringify(body).replaceAll('"href":"/', `"href":${JSON.stringify(root).slice(0, -1)}/`);
}
