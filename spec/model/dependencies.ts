import type { CompiledModel, CompiledResource } from './compiled.js';

/**
 * The order in which a loader can write every resource without meeting an unresolved
 * reference or a missing descriptor, as upstream's `/metadata/data/v3/dependencies` gives it:
 * descriptors (and the school-year enumeration) first, then each resource one level after the
 * last of the resources and descriptors it references, through any reference (optional ones and
 * collection items included), an abstract target standing for all of its members. A resource referring to itself (a parent
 * learning standard) waits for nothing: its records can be written parents first.
 */
export interface Dependency {
  resource: CompiledResource;
  order: number;
}

export function dependencyOrder(model: CompiledModel): Dependency[] {
  const membersOf = new Map(model.abstracts.map((a) => [a.name, a.members.map((m) => m.resource)]));
  const targets = (r: CompiledResource): string[] => {
    const out = new Set<string>();
    for (const ref of r.references) for (const t of membersOf.get(ref.target) ?? [ref.target]) if (t !== r.name) out.add(t);
    // Descriptor values must exist too (400 otherwise), so a resource waits for its descriptors.
    for (const d of r.descriptors) out.add(`${d.descriptor}Descriptor`);
    return [...out];
  };
  const order = new Map<string, number>();
  const visiting = new Set<string>();
  const visit = (r: CompiledResource): number => {
    const known = order.get(r.name);
    if (known !== undefined) return known;
    if (visiting.has(r.name)) throw new Error(`dependencies: ${r.name} takes part in a reference cycle`);
    visiting.add(r.name);
    let level = 1;
    if (!r.isDescriptor) for (const t of targets(r)) level = Math.max(level, visit(model.byName.get(t)!) + 1);
    visiting.delete(r.name);
    order.set(r.name, level);
    return level;
  };
  for (const r of model.resources) visit(r);
  return model.resources
    .map((resource) => ({ resource, order: order.get(resource.name)! }))
    .sort((a, b) => a.order - b.order || a.resource.endpoint.localeCompare(b.resource.endpoint));
}
