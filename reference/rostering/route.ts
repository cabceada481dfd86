import { ROSTER_PREFIX } from '../../spec/generate/openapi-rostering.js';
import type { RosteringConfig } from './config.js';
import { unknownPath } from './status.js';

/**
 * Splits a request path into its route prefix (tenant and/or context segments, per the seed's
 * four path shapes), the endpoint and the optional sourcedId. A path that does not reach the
 * rostering prefix where the configuration serves it is 404 before any token check (upstream's
 * app never mounts its routes there). A path under the prefix that names no resource (nothing or
 * too much after it, an undecodable or empty sourcedId, a context value its constraint refuses)
 * is `unknown`: 404, but after the token check, since every request to the prefix must carry a
 * valid token (seed 001, "What the service does"), as upstream's token check guards its whole
 * prefix before any route.
 */
export interface RosterRoute {
  /** Percent-decoded tenant segment (multi-tenant only). */
  tenant?: string;
  /** Percent-decoded context segment, when present. */
  context?: string;
  /** Context routing is on but the route carries no context value (answered 400 after auth). */
  contextMissing: boolean;
  /** Raw path up to and including the rostering prefix, for building hrefs. */
  base: string;
  endpoint: string;
  sourcedId?: string;
  /** Under the prefix, but naming no resource: 404 once the token has passed. */
  unknown?: true;
}

const PREFIX = ROSTER_PREFIX.slice(1).toLowerCase().split('/');

export function parseRoute(path: string, config: RosteringConfig): RosterRoute {
  const segs = path.split('/').slice(1);
  let at = -1;
  for (let i = 0; i + PREFIX.length <= segs.length && i <= 2; i++) {
    if (PREFIX.every((p, j) => segs[i + j].toLowerCase() === p)) { at = i; break; }
  }
  if (at < 0) throw unknownPath();
  const before = segs.slice(0, at).map(decode);
  if (before.some((s) => !s)) throw unknownPath();

  const expected = (config.multiTenancy ? 1 : 0) + (config.context ? 1 : 0);
  let tenant: string | undefined;
  let context: string | undefined;
  let contextMissing = false;
  let unknown = false;
  if (before.length > expected) throw unknownPath();
  if (config.multiTenancy) {
    // Without the tenant segment the path matches no route (upstream: framework 404).
    if (!before.length) throw unknownPath();
    tenant = before[0];
  }
  if (config.context) {
    if (before.length < expected) contextMissing = true;
    else {
      context = before[expected - 1];
      if (!config.context.accepts(context)) unknown = true;
    }
  }
  const rest = segs.slice(at + PREFIX.length);
  if (rest.length && rest[rest.length - 1] === '') rest.pop();
  if (rest.length < 1 || rest.length > 2) unknown = true;
  const sourcedId = rest.length === 2 ? decodeOrEmpty(rest[1]) : undefined;
  if (sourcedId === '') unknown = true;
  return {
    ...(tenant !== undefined ? { tenant } : {}),
    ...(context !== undefined ? { context } : {}),
    contextMissing,
    base: `/${segs.slice(0, at + PREFIX.length).join('/')}`,
    endpoint: rest[0] ?? '',
    ...(sourcedId ? { sourcedId } : {}),
    ...(unknown ? { unknown: true as const } : {}),
  };
}

/** A path segment decoded, or '' when it is not valid percent-encoding. */
function decodeOrEmpty(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return '';
  }
}

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw unknownPath();
  }
}
