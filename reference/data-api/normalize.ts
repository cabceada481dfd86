import { numericBounds } from '../../spec/generate/json-schema.js';
import type { Fields, ScalarField } from '../../spec/model/dsl.js';
import type { CompiledResource, ValueKind } from '../../spec/model/compiled.js';
import { numberSource } from '../http/exact-json.js';
import { readNumberMember } from './numeric-members.js';
import type { ValidationErrors } from './validation-errors.js';

/**
 * Lenient readings of a write body, applied before validation, as both upstream servers read
 * it (decisions #28, #46): optional members sent as null are absent (an optional collection sent as
 * null means no items); booleans accept the spellings upstream clients send (`"true"`,
 * `"False"`, `" true "`, `"1"`, `"0"`, `1`, `0`); numeric text in an integer or number member, reference fields
 * included, is that number (`"255901001"`, `"12.0"`), and every number is judged by its exact
 * value against the member's type (numeric-members.ts). Anything else is left for validation to
 * refuse. Returns a normalised copy and the numbers refused, at their JSON paths.
 */
export function normalizeBody(resource: CompiledResource, value: unknown): { body: unknown; errors: ValidationErrors } {
  const errors: ValidationErrors = {};
  const body = normalize(resource.fields, value, '$', '$', { refs: referenceKinds(resource), errors });
  return { body, errors };
}

interface Walk {
  refs: Map<string, Map<string, ValueKind>>;
  errors: ValidationErrors;
}

/**
 * The member `name` of `container` read as a number of `kind`: the value to store (a refusal is
 * recorded at `path`). `field` gives a member's bounds; reference fields have none.
 */
function numberMember(kind: ValueKind, container: Record<string, unknown>, name: string, path: string, w: Walk, field?: ScalarField): unknown {
  const sent = container[name];
  if (kind !== 'int32' && kind !== 'int64' && kind !== 'double') return sent;
  const source = typeof sent === 'string' ? undefined : numberSource(container, name);
  // Most numbers are what they say: nothing to read.
  if (typeof sent !== 'string' && source === undefined) return sent;
  const read = readNumberMember(kind, name, sent, source, field ? numericBounds(field) : undefined);
  if (!read) return sent;
  if ('value' in read) return read.value;
  w.errors[path] = [read.refused];
  return sent;
}

/** Reference path → its fields' kinds, computed once per resource. */
const kindsCache = new WeakMap<CompiledResource, Map<string, Map<string, ValueKind>>>();
function referenceKinds(resource: CompiledResource): Map<string, Map<string, ValueKind>> {
  let kinds = kindsCache.get(resource);
  if (!kinds) {
    kinds = new Map(resource.references.map((r) => [r.path, new Map(r.fields.map((f) => [f.property, f.kind]))]));
    kindsCache.set(resource, kinds);
  }
  return kinds;
}

/** `pattern` is the path with `[*]` for items (how references are looked up); `path` has the indexes. */
function normalize(fields: Fields, value: unknown, pattern: string, path: string, w: Walk): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
  const sent = value as Record<string, unknown>;
  const out: Record<string, unknown> = { ...sent };
  for (const [name, f] of Object.entries(fields)) {
    if (!(name in out)) continue;
    const v = out[name];
    if (v === null) {
      if (!f.required) delete out[name];
      continue;
    }
    switch (f.kind) {
      case 'boolean':
        // Text with spaces around, and "1" / "0", as both upstream servers read it (decisions #46).
        if (typeof v === 'string' && /^\s*(true|false|1|0)\s*$/i.test(v)) out[name] = /^\s*(true|1)\s*$/i.test(v);
        else if (v === 1 || v === 0) out[name] = v === 1;
        break;
      case 'int32':
      case 'int64':
      case 'double':
        out[name] = numberMember(f.kind, sent, name, `${path}.${name}`, w, f);
        break;
      case 'reference': {
        const kinds = w.refs.get(`${pattern}.${name}`);
        if (!kinds || !v || typeof v !== 'object' || Array.isArray(v)) break;
        const reference = v as Record<string, unknown>;
        const copy = { ...reference };
        for (const [property, kind] of kinds) if (property in copy) copy[property] = numberMember(kind, reference, property, `${path}.${name}.${property}`, w);
        out[name] = copy;
        break;
      }
      case 'collection':
        if (Array.isArray(v)) out[name] = v.map((item, i) => normalize(f.item, item, `${pattern}.${name}[*]`, `${path}.${name}[${i}]`, w));
        break;
      case 'object':
        out[name] = normalize(f.fields, v, `${pattern}.${name}`, `${path}.${name}`, w);
        break;
      default:
    }
  }
  return out;
}
