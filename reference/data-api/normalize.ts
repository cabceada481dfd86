import type { Fields } from '../../spec/model/dsl.js';
import type { CompiledResource, ValueKind } from '../../spec/model/compiled.js';

/**
 * Lenient readings of a write body, applied before validation, as both upstream servers read
 * it (decisions #28, #46): optional members sent as null are absent (an optional collection sent as
 * null means no items); booleans accept the spellings upstream clients send (`"true"`,
 * `"False"`, `" true "`, `"1"`, `"0"`, `1`, `0`); numeric text in an integer or number member, reference fields
 * included, is that number (`"255901001"`). Anything else is left for validation to refuse.
 * Returns a normalised copy.
 */
export function normalizeBody(resource: CompiledResource, value: unknown): unknown {
  return normalize(resource.fields, value, '$', referenceKinds(resource));
}

const INTEGER_TEXT = /^-?\d+$/;
const DECIMAL_TEXT = /^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

/** `"42"` → 42 for integer members (a BigInt past 2^53, so the int64 range check sees it exactly). */
function numberFromText(kind: ValueKind, v: unknown): unknown {
  if (typeof v !== 'string') return v;
  if ((kind === 'int32' || kind === 'int64') && INTEGER_TEXT.test(v)) {
    const n = BigInt(v);
    return n <= BigInt(Number.MAX_SAFE_INTEGER) && n >= BigInt(Number.MIN_SAFE_INTEGER) ? Number(n) : n;
  }
  if (kind === 'double' && DECIMAL_TEXT.test(v)) return Number(v);
  return v;
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

function normalize(fields: Fields, value: unknown, base: string, refs: Map<string, Map<string, ValueKind>>): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
  const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
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
        out[name] = numberFromText(f.kind, v);
        break;
      case 'reference': {
        const kinds = refs.get(`${base}.${name}`);
        if (!kinds || !v || typeof v !== 'object' || Array.isArray(v)) break;
        const copy = { ...(v as Record<string, unknown>) };
        for (const [property, kind] of kinds) if (property in copy) copy[property] = numberFromText(kind, copy[property]);
        out[name] = copy;
        break;
      }
      case 'collection':
        if (Array.isArray(v)) out[name] = v.map((item) => normalize(f.item, item, `${base}.${name}[*]`, refs));
        break;
      case 'object':
        out[name] = normalize(f.fields, v, `${base}.${name}`, refs);
        break;
      default:
    }
  }
  return out;
}
