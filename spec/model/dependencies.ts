import type { Field, Fields } from './dsl.js';
import type { CompiledModel, CompiledReference, CompiledResource } from './compiled.js';

/**
 * The order in which a loader can write every resource without meeting an unresolved
 * reference or a missing descriptor, as upstream's `/metadata/data/v3/dependencies` gives it:
 * descriptors (and the school-year enumeration) first, then each resource one level after the
 * last of the resources and descriptors it references, through any reference (optional ones and
 * collection items included), an abstract target standing for all of its members. A resource referring to itself (a parent
 * learning standard) waits for nothing: its records can be written parents first.
 *
 * Where references form a cycle (DS 6.1: staff → credentials → student academic records →
 * report cards → competency objectives → special education program associations → service
 * providers → staff), a record can still be written: its optional references wait for a later
 * update. So, as upstream breaks such cycles by dropping an optional edge, the edges of a cycle
 * that a document may leave out (an optional reference, or one inside an optional collection)
 * do not order it; a cycle of required references alone is an error.
 */
export interface Dependency {
  resource: CompiledResource;
  order: number;
}

interface Edge { target: string; optional: boolean }

export function dependencyOrder(model: CompiledModel): Dependency[] {
  const membersOf = new Map(model.abstracts.map((a) => [a.name, a.members.map((m) => m.resource)]));
  const edges = new Map<string, Edge[]>();
  for (const r of model.resources) {
    const out: Edge[] = [];
    for (const ref of r.references) {
      const optional = !requiredFromRoot(r.fields, ref);
      for (const t of membersOf.get(ref.target) ?? [ref.target]) if (t !== r.name) out.push({ target: t, optional });
    }
    // Descriptor values must exist too (400 otherwise), so a resource waits for its descriptors.
    for (const d of r.descriptors) out.push({ target: `${d.descriptor}Descriptor`, optional: false });
    edges.set(r.name, r.isDescriptor ? [] : out);
  }
  let order: Map<string, number>;
  try {
    order = levels(model, edges);
  } catch {
    // Only a model with a cycle pays for finding the edges that close one.
    const component = stronglyConnected(model, edges);
    for (const [name, out] of edges) edges.set(name, out.filter((e) => !(e.optional && component.get(e.target) === component.get(name))));
    order = levels(model, edges);
  }
  return model.resources
    .map((resource) => ({ resource, order: order.get(resource.name)! }))
    .sort((a, b) => a.order - b.order || a.resource.endpoint.localeCompare(b.resource.endpoint));
}

/** Each resource one level after the last of its edges' targets. */
function levels(model: CompiledModel, edges: Map<string, Edge[]>): Map<string, number> {
  const order = new Map<string, number>();
  const visiting = new Set<string>();
  const visit = (name: string): number => {
    const known = order.get(name);
    if (known !== undefined) return known;
    if (visiting.has(name)) throw new Error(`dependencies: ${name} takes part in a reference cycle`);
    visiting.add(name);
    let level = 1;
    for (const e of edges.get(name)!) level = Math.max(level, visit(e.target) + 1);
    visiting.delete(name);
    order.set(name, level);
    return level;
  };
  for (const r of model.resources) visit(r.name);
  return order;
}

/** Whether a document must hold the reference: it and every collection or object around it are required. */
function requiredFromRoot(fields: Fields, ref: CompiledReference): boolean {
  let level: Fields | undefined = fields;
  for (const segment of ref.path.replace(/^\$\./, '').split('.')) {
    const f: Field | undefined = level?.[segment.replace(/\[\*\]$/, '')];
    if (!f || !(f.required || f.identity)) return false;
    level = f.kind === 'collection' ? f.item : f.kind === 'object' ? f.fields : undefined;
  }
  return true;
}

/** The strongly connected component of each resource (Tarjan): two resources share one when each reaches the other. */
function stronglyConnected(model: CompiledModel, edges: Map<string, Edge[]>): Map<string, number> {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const component = new Map<string, number>();
  const stack: string[] = [];
  let next = 0;
  const visit = (name: string) => {
    index.set(name, next);
    low.set(name, next++);
    stack.push(name);
    for (const { target } of edges.get(name)!) {
      if (!index.has(target)) { visit(target); low.set(name, Math.min(low.get(name)!, low.get(target)!)); }
      else if (!component.has(target)) low.set(name, Math.min(low.get(name)!, index.get(target)!));
    }
    if (low.get(name) === index.get(name)) {
      let member: string;
      do { member = stack.pop()!; component.set(member, index.get(name)!); } while (member !== name);
    }
  };
  for (const r of model.resources) if (!index.has(r.name)) visit(r.name);
  return component;
}
