import type { CompiledResource } from '../../spec/model/compiled.js';
import { stringifyExact } from '../http/exact-json.js';
import { getPath } from './json-path.js';

/** Values of the natural key, keyed by query-parameter name (the `/deletes` keyValues shape). */
export function keyValues(resource: CompiledResource, doc: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const part of resource.identity) out[part.name] = getPath(doc, part.path);
  return out;
}

/**
 * The canonical natural-key string. Descriptor values and descriptor keys compare
 * case-insensitively (descriptors resolve case-insensitively); everything else exactly.
 */
export function naturalKey(resource: CompiledResource, doc: Record<string, unknown>): string {
  return naturalKeyOfValues(resource, resource.identity.map((part) => getPath(doc, part.path)));
}

/** The canonical key string of identity values given in identity order. */
export function naturalKeyOfValues(resource: CompiledResource, values: unknown[]): string {
  return stringifyExact(values.map((v, i) => (typeof v === 'string' && (resource.isDescriptor || resource.identity[i].kind === 'descriptor') ? v.toLowerCase() : v)));
}
