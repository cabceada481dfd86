import { OpenAPIBackend, type Document } from 'openapi-backend';
import { ROSTER_PREFIX, type RosterType } from '../../spec/generate/openapi-rostering.js';
import type { ScopeName } from './token-check.js';

/**
 * The endpoint table, read from the generated rostering interface description
 * (spec/openapi/rostering.json): for each endpoint its type, envelope keys, the scopes that open
 * it, the filterable fields, the selectable fields (the type's schema properties) and its subset
 * restriction. Requests find their endpoint in this Map in O(1).
 */
export interface Endpoint {
  name: string;
  type: RosterType;
  collectionKey: string;
  singleKey: string;
  scopes: ScopeName[];
  filterable: Set<string>;
  selectable: Set<string>;
  inSubset: (data: Record<string, unknown>) => boolean;
}

type Schema = { $ref?: string; properties?: Record<string, Schema>; items?: Schema };
interface Op {
  security?: Record<string, string[]>[];
  'x-filterable-fields'?: string[];
  'x-subset'?: { path: string; equals: string };
  responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
}

export async function loadEndpoints(document: Document): Promise<Map<string, Endpoint>> {
  // openapi-backend lists the operations (quick: the generated document is checked by
  // `npm run spec:check`, and a full definition check would cost ~0.6 s at every start).
  const api = new OpenAPIBackend({ definition: structuredClone(document), quick: true, validate: false });
  await api.init();
  // Raw operations (openapi-backend hands them out dereferenced; the type names are in the $refs).
  const raw = document.paths as Record<string, { get: Op }>;
  const byPath = new Map(api.getOperations().filter((o) => o.method === 'get').map((o) => [o.path, raw[o.path].get]));
  const schemas = (document.components?.schemas ?? {}) as Record<string, Schema>;
  const endpoints = new Map<string, Endpoint>();
  for (const [path, op] of byPath) {
    if (!path.startsWith(`${ROSTER_PREFIX}/`) || path.endsWith('}')) continue;
    const name = path.slice(ROSTER_PREFIX.length + 1);
    const single = byPath.get(`${path}/{sourcedId}`);
    const collectionSchema = op.responses['200'].content!['application/json'].schema;
    const singleSchema = single?.responses['200'].content!['application/json'].schema;
    if (!singleSchema) throw new Error(`rostering document: ${path} has no single-record operation`);
    const [collectionKey, items] = Object.entries(collectionSchema.properties!)[0];
    const [singleKey] = Object.keys(singleSchema.properties!);
    const type = items.items!.$ref!.split('/').pop() as RosterType;
    const subset = op['x-subset'];
    endpoints.set(name.toLowerCase(), {
      name,
      type,
      collectionKey,
      singleKey,
      scopes: (op.security ?? []).flatMap((s) => Object.values(s).flat()) as ScopeName[],
      filterable: new Set(op['x-filterable-fields'] ?? []),
      selectable: new Set(Object.keys(schemas[type].properties ?? {})),
      inSubset: subset ? (data) => valuesAt(data, subset.path).includes(subset.equals) : () => true,
    });
  }
  return endpoints;
}

/** Values at a dotted path with `[*]` for every array item (`roles[*].role`); arrays are flattened. */
export function valuesAt(data: unknown, path: string): unknown[] {
  let current: unknown[] = [data];
  for (const seg of path.split('.')) {
    const name = seg.endsWith('[*]') ? seg.slice(0, -3) : seg;
    current = current.flatMap((v) => {
      const next = v && typeof v === 'object' ? (v as Record<string, unknown>)[name] : undefined;
      return Array.isArray(next) ? next : next === undefined ? [] : [next];
    });
  }
  return current;
}
