import type { Field, Fields, ScalarField } from '../model/dsl.js';
import type { CompiledModel, CompiledResource, ValueKind } from '../model/compiled.js';

/** OpenAPI 3.0 schema objects for model fields, carrying the seed's `x-Core-*` extensions. */
export type Schema = Record<string, unknown>;

export const DESCRIPTOR_MAX_LENGTH = 306;
/** Natural-key strings must not start or end with white space (seed Conventions). */
export const IDENTITY_STRING_PATTERN = '^(?!\\s)(.*\\S)$';
/** A required string holds more than white space (upstream: "is required and should not be left empty."). */
export const REQUIRED_STRING_PATTERN = '\\S';

export const schemaName = (resourceName: string) => `core_${resourceName}`;
export const referenceSchemaName = (target: string) => `core_${target}Reference`;

export function scalarSchema(kind: ValueKind): Schema {
  switch (kind) {
    case 'string': return { type: 'string' };
    case 'int32': return { type: 'integer', format: 'int32' };
    case 'int64': return { type: 'integer', format: 'int64' };
    case 'double': return { type: 'number', format: 'double' };
    case 'boolean': return { type: 'boolean' };
    case 'date': return { type: 'string', format: 'date' };
    case 'date-time': return { type: 'string', format: 'date-time' };
    case 'time': return { type: 'string', format: 'time' };
    case 'descriptor': return { type: 'string', maxLength: DESCRIPTOR_MAX_LENGTH };
  }
}

function flags(f: Field, s: Schema): Schema {
  if (f.description) s.description = f.description;
  if (f.identity) s['x-Core-isIdentity'] = true;
  if (f.nullable) { s.nullable = true; s['x-nullable'] = true; }
  if (f.deprecated) { s['x-Core-isDeprecated'] = true; s['x-Core-deprecatedReasons'] = [f.deprecated]; }
  return s;
}

export function fieldSchema(f: Field): Schema {
  switch (f.kind) {
    case 'descriptor':
      return flags(f, { ...scalarSchema('descriptor'), ...(f.identity ? { pattern: IDENTITY_STRING_PATTERN } : {}), description: f.description ?? `A ${f.descriptor}Descriptor value: <namespace>#<codeValue>.` });
    case 'reference':
      return flags(f, { allOf: [{ $ref: `#/components/schemas/${referenceSchemaName(f.target)}` }] });
    case 'collection':
      return flags(f, { type: 'array', items: objectSchema(f.item), ...(f.required ? { minItems: 1 } : {}) });
    case 'object':
      return flags(f, objectSchema(f.fields));
    case 'extension':
      return flags(f, { type: 'object', description: 'Extension members, keyed by extension name.' });
    default: {
      const s = scalarSchema(f.kind);
      if (f.kind === 'string') {
        if (f.maxLength !== undefined) s.maxLength = f.maxLength;
        if (f.minLength !== undefined) s.minLength = f.minLength;
        if (f.identity || f.keyString) s.pattern = IDENTITY_STRING_PATTERN;
        else if (f.required && !f.readOnly) s.pattern = REQUIRED_STRING_PATTERN;
      }
      Object.assign(s, numericBounds(f));
      if (f.readOnly) s.readOnly = true;
      return flags(f, s);
    }
  }
}

/**
 * Inclusive bounds of a number: the data standard's own, narrowed by a decimal's precision
 * (totalDigits 5, fractionDigits 2 → -999.99 … 999.99, as upstream validates).
 */
export function numericBounds(f: ScalarField): { minimum?: number; maximum?: number } {
  let min = f.minimum;
  let max = f.maximum;
  if (f.totalDigits !== undefined) {
    const fraction = f.fractionDigits ?? 0;
    const limit = Number((10 ** (f.totalDigits - fraction) - 10 ** -fraction).toFixed(fraction));
    min = Math.max(min ?? -limit, -limit);
    max = Math.min(max ?? limit, limit);
  }
  return { ...(min !== undefined ? { minimum: min } : {}), ...(max !== undefined ? { maximum: max } : {}) };
}

export function objectSchema(fields: Fields): Schema {
  const properties: Record<string, Schema> = {};
  const required: string[] = [];
  for (const [name, f] of Object.entries(fields)) {
    properties[name] = fieldSchema(f);
    if (f.required && !(f.kind !== 'reference' && 'readOnly' in f && f.readOnly)) required.push(name);
  }
  return { type: 'object', ...(required.length ? { required } : {}), properties };
}

/** The resource body: model fields plus the system members every response carries. */
export function resourceSchema(r: CompiledResource): Schema {
  const body = objectSchema(r.fields);
  const properties = body.properties as Record<string, Schema>;
  return {
    type: 'object',
    description: r.description ?? `The ${r.resourceName} resource.`,
    ...(r.updatable ? { 'x-Core-isUpdatable': true } : {}),
    ...(body.required ? { required: body.required } : {}),
    properties: {
      id: { type: 'string', readOnly: true, description: 'Server-assigned resource identifier. Must not be sent in a POST body.' },
      ...properties,
      _etag: { type: 'string', readOnly: true, description: 'System-generated version identifier.' },
      _lastModifiedDate: { type: 'string', format: 'date-time', readOnly: true },
    },
  };
}

/** One reference schema per target: the target's identity fields, all required, plus `link`. */
export function referenceSchemas(model: CompiledModel): Record<string, Schema> {
  const targets = new Set<string>();
  for (const r of model.resources) for (const ref of r.references) targets.add(ref.target);
  const out: Record<string, Schema> = {};
  for (const target of [...targets].sort()) {
    const shape = model.resources.flatMap((r) => r.references).find((ref) => ref.target === target)!.fields;
    const properties: Record<string, Schema> = {};
    for (const m of shape) {
      properties[m.property] = { ...scalarSchema(m.kind), ...(m.kind === 'string' ? stringLengthOf(model, target, m.targetPath) : {}) };
    }
    properties.link = { type: 'object', readOnly: true, properties: { rel: { type: 'string' }, href: { type: 'string' } } };
    out[referenceSchemaName(target)] = { type: 'object', required: shape.map((m) => m.property), properties };
  }
  return out;
}

/** The max length of a string identity field, followed through nested references. */
function stringLengthOf(model: CompiledModel, target: string, path: string): Schema {
  const res = model.byName.get(target);
  if (!res) return {};
  const [, first, ...rest] = path.split('.');
  const f = res.fields[first];
  if (!f) return {};
  if (f.kind === 'string') return f.maxLength !== undefined ? { maxLength: f.maxLength } : {};
  if (f.kind === 'reference' && rest.length) {
    const m = res.references.find((x) => x.path === `$.${first}`)?.fields.find((x) => x.property === rest[0]);
    return m ? stringLengthOf(model, f.target, m.targetPath) : {};
  }
  return {};
}
