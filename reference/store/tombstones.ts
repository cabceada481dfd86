import type { CompiledResource } from '../../spec/model/compiled.js';

/**
 * What a delete event keeps of the deleted document (issue 23 point 10): its natural key and the
 * members the deletes feed's authorization reads (the namespace, the education organizations
 * and persons it names), so that a reader still sees only deletions of what it could have read
 * — and nothing else, however large the document was. Delete events are kept for as long as
 * the store lives; whole documents in them made every deletion keep its record's full size.
 */
export function tombstoneDoc(resource: CompiledResource, doc: Record<string, unknown>): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const path of keptPaths(resource)) copyPath(doc, kept, path.slice(2).split('.'));
  return kept;
}

const pathsByResource = new WeakMap<CompiledResource, string[]>();

/** The key's paths and every securable path of the resource (`$.a.b`, `$.items[*].c`). */
export function keptPaths(resource: CompiledResource): string[] {
  let paths = pathsByResource.get(resource);
  if (!paths) {
    const { securable } = resource;
    paths = [...new Set([
      ...resource.identity.map((k) => k.path),
      ...(resource.isDescriptor ? ['$.namespace'] : []),
      ...(securable.namespace ? [securable.namespace] : []),
      ...(resource.educationOrganization ? [`$.${resource.educationOrganization.idField}`] : []),
      ...securable.educationOrganization,
      ...Object.values(securable.person).flat(),
    ])];
    pathsByResource.set(resource, paths);
  }
  return paths;
}

/** Copies the value at a path (segments; `name[*]` walks every item) into `to`, keeping array positions. */
function copyPath(from: unknown, to: Record<string, unknown>, segments: string[]): void {
  if (!from || typeof from !== 'object' || !segments.length) return;
  const [segment, ...rest] = segments;
  const each = segment.endsWith('[*]');
  const name = each ? segment.slice(0, -3) : segment;
  if (!Object.hasOwn(from, name)) return;
  const value = (from as Record<string, unknown>)[name];
  if (!rest.length && !each) { to[name] = structuredClone(value); return; }
  if (each) {
    if (!Array.isArray(value)) return;
    const items = (Array.isArray(to[name]) ? to[name] : (to[name] = value.map(() => ({})))) as Record<string, unknown>[];
    value.forEach((item, i) => (rest.length ? copyPath(item, items[i], rest) : (items[i] = structuredClone(item) as Record<string, unknown>)));
    return;
  }
  const child = (to[name] && typeof to[name] === 'object' ? to[name] : (to[name] = {})) as Record<string, unknown>;
  copyPath(value, child, rest);
}
