import { ROSTER_PREFIX } from '../../spec/generate/openapi-rostering.js';
import type { RosteringConfig } from './config.js';
import { unknownPath } from './status.js';

/**
 * Splits a request path into its route prefix (tenant and/or context segments, per the seed's
 * four path shapes), the endpoint and the optional sourcedId. Paths that fit no shape are 404
 * before any token check, as upstream's router never matches them.
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
  const rest = segs.slice(at + PREFIX.length);
  if (rest.length && rest[rest.length - 1] === '') rest.pop();
  if (rest.length < 1 || rest.length > 2 || before.some((s) => !s)) throw unknownPath();

  const expected = (config.multiTenancy ? 1 : 0) + (config.context ? 1 : 0);
  let tenant: string | undefined;
  let context: string | undefined;
  let contextMissing = false;
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
      if (!config.context.accepts(context)) throw unknownPath();
    }
  }
  const sourcedId = rest[1] === undefined ? undefined : decode(rest[1]);
  if (sourcedId === '') throw unknownPath();
  return {
    ...(tenant !== undefined ? { tenant } : {}),
    ...(context !== undefined ? { context } : {}),
    contextMissing,
    base: `/${segs.slice(0, at + PREFIX.length).join('/')}`,
    endpoint: rest[0],
    ...(sourcedId !== undefined ? { sourcedId } : {}),
  };
}

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw unknownPath();
  }
}
