import { readFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

/**
 * The rostering interface description (spec/openapi/rostering.json): the endpoint table (keys,
 * scopes, subsets) and validators of its record schemas (required members, enums such as the
 * "true"/"false" strings, formats), so the suites check responses against the document itself.
 */
interface Operation { security: Record<string, string[]>[]; 'x-subset'?: { path: string; equals: string }; responses: Record<string, { content?: Record<string, { schema: { properties: Record<string, { items?: { $ref: string }; $ref?: string }> } }> }> }
const document = JSON.parse(readFileSync(new URL('../../../spec/openapi/rostering.json', import.meta.url), 'utf8')) as {
  paths: Record<string, { get: Operation }>;
  components: { schemas: Record<string, { properties: Record<string, unknown>; required?: string[] }> };
};

export interface EndpointInfo {
  endpoint: string;
  type: string;
  collectionKey: string;
  singleKey: string;
  demographics: boolean;
  subset?: { path: string; equals: string };
}

const PREFIX = '/std/roster/rostering/v1p2/';

export const ENDPOINTS: EndpointInfo[] = Object.entries(document.paths)
  .filter(([path]) => path.startsWith(PREFIX) && !path.endsWith('}'))
  .map(([path, { get }]) => {
    const endpoint = path.slice(PREFIX.length);
    const [collectionKey, items] = Object.entries(get.responses['200'].content!['application/json'].schema.properties)[0];
    const single = document.paths[`${path}/{sourcedId}`].get;
    const [singleKey] = Object.keys(single.responses['200'].content!['application/json'].schema.properties);
    return {
      endpoint,
      type: items.items!.$ref.split('/').pop()!,
      collectionKey,
      singleKey,
      demographics: get.security.some((s) => Object.values(s).flat().some((x) => x.endsWith('roster-demographics.readonly'))),
      ...(get['x-subset'] ? { subset: get['x-subset'] } : {}),
    };
  });

export const endpoint = (name: string): EndpointInfo => ENDPOINTS.find((e) => e.endpoint === name)!;

const ajv = new Ajv({ strict: false, allErrors: true });
addFormats.default(ajv);
ajv.addSchema(document, 'rostering');
const validators = new Map<string, ValidateFunction>();

/** Schema errors of a record of the given type, as readable lines (empty when valid). */
export function schemaErrors(type: string, record: unknown): string[] {
  let v = validators.get(type);
  if (!v) validators.set(type, (v = ajv.compile({ $ref: `rostering#/components/schemas/${type}` })));
  return v(record) ? [] : (v.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`);
}

/** Selectable members of a type (its schema properties). */
export const membersOf = (type: string): string[] => Object.keys(document.components.schemas[type].properties);

/**
 * The demographic members: those of the demographics record that a user record does not have
 * (every record has sourcedId, status, dateLastModified and metadata), read from the interface
 * description, whose schemas are the 1.2 standard's.
 */
export const DEMOGRAPHIC_MEMBERS: readonly string[] = membersOf('demographics').filter((m) => !membersOf('user').includes(m));

/** A member name without letter case or separators: `birth_date`, `BirthDate` and `birthDate` are one. */
const squash = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');

/** Paths of the members, at any depth, named as one of `names` in any letter case or with separators. */
export function membersNamed(value: unknown, names: readonly string[], at = '$'): string[] {
  const wanted = new Set(names.map(squash));
  const walk = (v: unknown, path: string): string[] => {
    if (Array.isArray(v)) return v.flatMap((x, i) => walk(x, `${path}[${i}]`));
    if (!v || typeof v !== 'object') return [];
    return Object.entries(v).flatMap(([k, x]) => [...(wanted.has(squash(k)) ? [`${path}.${k}`] : []), ...walk(x, `${path}.${k}`)]);
  };
  return walk(value, at);
}

type Shape = { $ref?: string; properties?: Record<string, Shape>; items?: Shape; additionalProperties?: boolean };
const shapeOf = (s: Shape): Shape => (s.$ref ? (document.components.schemas[s.$ref.split('/').pop()!] as Shape) : s);

/**
 * Paths of the members a record holds that its type's schema does not define, at any depth
 * (role items, user ids, references). An object the schema leaves free-form (metadata, the
 * standard's place for extensions, and a credential, which allows more members) is not looked into.
 */
export function membersOutsideSchema(type: string, record: unknown): string[] {
  const walk = (schema: Shape, v: unknown, path: string): string[] => {
    const s = shapeOf(schema);
    if (Array.isArray(v)) return s.items ? v.flatMap((x, i) => walk(s.items!, x, `${path}[${i}]`)) : [];
    if (!v || typeof v !== 'object' || !s.properties) return [];
    return Object.entries(v).flatMap(([k, x]) => (s.properties![k] ? walk(s.properties![k], x, `${path}.${k}`) : s.additionalProperties === true ? [] : [`${path}.${k}`]));
  };
  return walk(document.components.schemas[type] as Shape, record, '$');
}
