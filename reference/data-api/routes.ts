import type { CompiledModel, CompiledResource } from '../../spec/model/compiled.js';
import { Problem } from '../http/problems.js';
import { withoutTrailingSlashes } from '../http/paths.js';

/**
 * O(1) routing of data-API paths (`{ns}/{resource}[/{id}|/deletes|/keyChanges|/partitions]`): a lookup of the
 * lower-cased resource segment in the model's endpoint index, never a scan of the operations.
 * Segments are matched case-insensitively (decisions #15).
 */
export type RouteKind = 'collection' | 'item' | 'deletes' | 'keyChanges' | 'partitions';

export interface Route {
  kind: RouteKind;
  resource: CompiledResource;
  /** The id segment as sent (item routes). */
  id?: string;
}

export const ALLOWED: Record<RouteKind, string[]> = {
  collection: ['GET', 'POST'],
  item: ['GET', 'PUT', 'DELETE'],
  deletes: ['GET'],
  keyChanges: ['GET'],
  partitions: ['GET'],
};

const notFound = () => new Problem('not-found');

/** `rest` is the path after `/data/v3/`, e.g. `core/academicWeeks/abc`; `segment` the deployment's namespace segment. */
export function resolveRoute(model: CompiledModel, rest: string, segment: string): Route {
  const segments = withoutTrailingSlashes(rest).split('/');
  if (segments.length < 2 || segments.length > 3) throw notFound();
  const [ns, endpoint, third] = segments;
  if (ns !== segment && ns.toLowerCase() !== segment.toLowerCase()) throw notFound();
  const resource = model.byEndpoint.get(endpoint.toLowerCase());
  if (!resource) throw notFound();
  if (third === undefined) return { kind: 'collection', resource };
  // Only a segment as long as one of the three names can be one (an id never is): no copy of ids.
  const lower = third.length === 7 || third.length === 10 ? third.toLowerCase() : '';
  if (lower === 'deletes') return { kind: 'deletes', resource };
  if (lower === 'keychanges') return { kind: 'keyChanges', resource };
  if (lower === 'partitions') return { kind: 'partitions', resource };
  // A segment that does not percent-decode is kept as sent: parseId then refuses it (400).
  let id = third;
  if (third.includes('%')) try { id = decodeURIComponent(third); } catch { /* not decodable */ }
  return { kind: 'item', resource, id };
}

/** 405 with `Allow`, worded as upstream for the common misuses. */
export function methodNotAllowed(route: Route, method: string): Problem {
  let message = `The endpoint of the request does not support the '${method}' method.`;
  if (route.kind === 'collection' && method === 'PUT') message = 'Resource collections cannot be replaced. To "upsert" an item in the collection, use POST. To update a specific item, use PUT and include the "id" in the route.';
  if (route.kind === 'collection' && method === 'DELETE') message = 'Resource collections cannot be deleted. To delete a specific item, use DELETE and include the "id" in the route.';
  if (route.kind === 'item' && method === 'POST') message = 'Resource items can only be updated using PUT. To "upsert" an item in the resource collection using POST, remove the "id" from the route.';
  return new Problem('method-not-allowed', { errors: [message] }, { Allow: ALLOWED[route.kind].join(', ') });
}

/** Ids are GUIDs; any usual spelling is accepted and normalised to 32 lower-case hex digits. */
export function parseId(raw: string): string {
  // The usual spelling, the one the API writes, is already normalised: one pass, no copies.
  if (isLowerHex32(raw)) return raw;
  // Braces come in pairs: `{…}` or none.
  const bare = /^\{.*\}$/.test(raw) ? raw.slice(1, -1) : raw;
  const hex = bare.replace(/-/g, '').toLowerCase();
  if (!/^[0-9a-f]{32}$/.test(hex) || (bare.includes('-') && !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(bare))) {
    throw new Problem('bad-request:data-validation-failed', { validationErrors: { '$.id': [`The value '${raw}' is not valid for Id.`] } });
  }
  return hex;
}

/** 32 characters, each a digit or a–f: the stored spelling of an id (a loop: a pattern's call cost more than the check). */
function isLowerHex32(raw: string): boolean {
  if (raw.length !== 32) return false;
  for (let i = 0; i < 32; i++) {
    const c = raw.charCodeAt(i);
    if (!((c >= 48 && c <= 57) || (c >= 97 && c <= 102))) return false; // 0-9, a-f
  }
  return true;
}
