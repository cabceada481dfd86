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
 * The canonical natural-key string. Text compares after Unicode NFC, so one key spelled
 * composed (`é`, U+00E9) or decomposed (`e` U+0301) is one key, never two records (issue 23
 * finding 8); descriptor values and descriptor keys also case-insensitively (descriptors resolve
 * case-insensitively); everything else exactly.
 */
export function naturalKey(resource: CompiledResource, doc: Record<string, unknown>): string {
  return naturalKeyOfValues(resource, resource.identity.map((part) => getPath(doc, part.path)));
}

/** The canonical key string of identity values given in identity order. */
export function naturalKeyOfValues(resource: CompiledResource, values: unknown[]): string {
  return stringifyExact(values.map((v, i) => (typeof v === 'string' ? keyText(v, resource.isDescriptor || resource.identity[i].kind === 'descriptor') : v)));
}

/** Any non-ASCII character: only such text can have another Unicode spelling. */
const NON_ASCII = /[^\x00-\x7f]/;

/** Key text in its canonical spelling: NFC, and lower case where it compares case-insensitively. */
export function keyText(text: string, caseInsensitive = false): string {
  const composed = NON_ASCII.test(text) ? text.normalize('NFC') : text;
  return caseInsensitive ? composed.toLowerCase() : composed;
}
