/**
 * What the model says of a resource's members, for the recipes that break one member of a kind
 * (issue 23 findings 1 and 2).
 */
import { numericBounds } from '../../spec/generate/json-schema.js';
import type { ScalarField } from '../../spec/model/dsl.js';
import { model } from '../../spec/model/index.js';

export type NumberKind = 'int32' | 'int64' | 'double';
export interface NumberMember { name: string; minimum?: number; maximum?: number }

export interface Shape {
  /** Top-level number members a client writes, by kind. */
  numbers: Record<NumberKind, NumberMember[]>;
  /** Top-level collections whose items need a member (so an empty item fails); `keyed` when items have key fields. */
  collections: { name: string; keyed: boolean }[];
}

const shapes = new Map<string, Shape | undefined>();

/** The shape of the resource served at `endpoint` (undefined for an endpoint the model lacks). */
export function shapeOf(endpoint: string): Shape | undefined {
  if (shapes.has(endpoint)) return shapes.get(endpoint);
  const r = model.resources.find((x) => x.endpoint === endpoint);
  let shape: Shape | undefined;
  if (r) {
    shape = { numbers: { int32: [], int64: [], double: [] }, collections: [] };
    for (const [name, f] of Object.entries(r.fields)) {
      if ((f.kind === 'int32' || f.kind === 'int64' || f.kind === 'double') && !f.readOnly) shape.numbers[f.kind].push({ name, ...numericBounds(f as ScalarField) });
      else if (f.kind === 'collection') {
        const keys = r.collections.find((c) => c.path === `$.${name}`)?.itemKeys ?? [];
        const required = Object.entries(f.item).filter(([, x]) => x.required || x.identity);
        if (required.length) shape.collections.push({ name, keyed: keys.length > 0 });
      }
    }
  }
  shapes.set(endpoint, shape);
  return shape;
}
