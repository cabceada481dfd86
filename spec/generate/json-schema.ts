import type { Field, Fields, ScalarField } from '../model/dsl.js';
import { NEUTRAL_NAMES, schemaPrefixOf } from '../naming/profiles.js';
import type { CompiledModel, CompiledResource, ValueKind } from '../model/compiled.js';
import { keyMaxLength } from '../model/key-lengths.js';

/**
 * OpenAPI 3.0 schema objects for model fields, carrying the seed's `x-Core-*` extensions, laid
 * out as upstream names them: one named schema per resource (`core_school`), per reference
 * target (`core_schoolReference`) and per collection item or embedded object
 * (`core_school_educationOrganizationCategory`), referenced by plain `$ref`.
 */
export type Schema = Record<string, unknown>;

export const DESCRIPTOR_MAX_LENGTH = 306;
/** Natural-key strings must not start or end with white space (seed Conventions). */
export const IDENTITY_STRING_PATTERN = '^(?!\\s)(.*\\S)$';
/** A required string holds more than white space (upstream: "is required and should not be left empty."). */
export const REQUIRED_STRING_PATTERN = '\\S';

const PREFIX = schemaPrefixOf(NEUTRAL_NAMES.dataModelName);
const X = NEUTRAL_NAMES.extensionPrefix;
export const schemaName = (resourceName: string) => `${PREFIX}${resourceName.charAt(0).toLowerCase()}${resourceName.slice(1)}`;
export const referenceSchemaName = (target: string) => `${PREFIX}${target}Reference`;
const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });

/** `educationOrganizationCategories` → `educationOrganizationCategory`, `addresses` → `address`. */
export function singular(name: string): string {
  if (/ies$/.test(name)) return `${name.slice(0, -3)}y`;
  if (/(ss|x|ch|sh)es$/.test(name)) return name.slice(0, -2);
  if (/s$/.test(name) && !/ss$/.test(name)) return name.slice(0, -1);
  return name;
}

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
  if (f.identity) s[`${X}isIdentity`] = true;
  if (f.nullable) { s.nullable = true; s['x-nullable'] = true; }
  if (f.deprecated) { s[`${X}isDeprecated`] = true; s[`${X}deprecatedReasons`] = [f.deprecated]; }
  return s;
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

function scalarFieldSchema(f: ScalarField): Schema {
  const s = scalarSchema(f.kind);
  if (f.kind === 'string') {
    if (f.maxLength !== undefined) s.maxLength = f.maxLength;
    if (f.minLength !== undefined) s.minLength = f.minLength;
    if (f.identity) s.pattern = IDENTITY_STRING_PATTERN;
    else if (f.required && !f.readOnly) s.pattern = REQUIRED_STRING_PATTERN;
  }
  Object.assign(s, numericBounds(f));
  if (f.readOnly) s.readOnly = true;
  return flags(f, s);
}

/**
 * Collects the named schemas of a document: a resource registers itself, its items and embedded
 * objects under names derived from its own, and the reference schemas it uses.
 */
export class SchemaRegistry {
  readonly schemas: Record<string, Schema> = {};

  constructor(private readonly model: CompiledModel) {}

  /** The resource body: model fields plus the system members every response carries; returns its `$ref`. */
  resource(r: CompiledResource): Schema {
    const name = schemaName(r.resourceName);
    const body = this.object(r.fields, name);
    const properties = body.properties as Record<string, Schema>;
    this.schemas[name] = {
      type: 'object',
      description: r.description ?? `The ${r.resourceName} resource.`,
      ...(r.updatable ? { [`${X}isUpdatable`]: true } : {}),
      ...(body.required ? { required: body.required } : {}),
      properties: {
        id: { type: 'string', readOnly: true, description: 'Server-assigned resource identifier. Must not be sent in a POST body.' },
        ...properties,
        _etag: { type: 'string', readOnly: true, description: 'System-generated version identifier.' },
        _lastModifiedDate: { type: 'string', format: 'date-time', readOnly: true },
      },
    };
    return ref(name);
  }

  private field(f: Field, owner: string, name: string): Schema {
    switch (f.kind) {
      case 'descriptor':
        return flags(f, { ...scalarSchema('descriptor'), ...(f.identity ? { pattern: IDENTITY_STRING_PATTERN } : {}), description: f.description ?? `A ${f.descriptor}Descriptor value: <namespace>#<codeValue>.` });
      case 'reference':
        // Plain `$ref`, as upstream (a Reference Object takes no siblings): the identity flags
        // are on the reference schema's fields, which are the target's natural key.
        return ref(this.reference(f.target));
      case 'collection': {
        const item = `${owner}_${singular(name)}`;
        this.schemas[item] = this.object(f.item, item);
        return flags(f, { type: 'array', items: ref(item), ...(f.required ? { minItems: 1 } : {}) });
      }
      case 'object': {
        const member = `${owner}_${name}`;
        this.schemas[member] = this.object(f.fields, member);
        return flags(f, ref(member));
      }
      case 'extension':
        return flags(f, { type: 'object', description: 'Extension members, keyed by extension name.' });
      default:
        return scalarFieldSchema(f);
    }
  }

  private object(fields: Fields, owner: string): Schema {
    const properties: Record<string, Schema> = {};
    const required: string[] = [];
    for (const [name, f] of Object.entries(fields)) {
      properties[name] = this.field(f, owner, name);
      if (f.required && !(f.kind !== 'reference' && 'readOnly' in f && f.readOnly)) required.push(name);
    }
    return { type: 'object', ...(required.length ? { required } : {}), properties };
  }

  /**
   * The reference schema of a target: its identity fields (each part of the natural key, so
   * flagged), all required, plus the read-only `link`. Registered once; returns its name.
   */
  private reference(target: string): string {
    const name = referenceSchemaName(target);
    if (this.schemas[name]) return name;
    const shape = this.model.resources.flatMap((r) => r.references).find((x) => x.target === target)!.fields;
    const properties: Record<string, Schema> = {};
    for (const m of shape) {
      properties[m.property] = { ...scalarSchema(m.kind), ...(m.kind === 'string' ? maxLengthOf(keyMaxLength(this.model, target, m.targetPath)) : {}), [`${X}isIdentity`]: true };
    }
    properties.link = { type: 'object', readOnly: true, properties: { rel: { type: 'string' }, href: { type: 'string' } } };
    this.schemas[name] = { type: 'object', required: shape.map((m) => m.property), properties };
    return name;
  }
}


const maxLengthOf = (n: number | undefined): Schema => (n === undefined ? {} : { maxLength: n });
