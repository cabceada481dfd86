import { numericBounds } from '../../spec/generate/json-schema.js';
import type { Field, Fields, ScalarField } from '../../spec/model/dsl.js';
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
 * refuse. Returns the body read (the sent objects themselves where nothing reads otherwise) and
 * the numbers refused, at their JSON paths.
 */
export function normalizeBody(resource: CompiledResource, value: unknown): { body: unknown; errors: ValidationErrors } {
  const errors: ValidationErrors = {};
  const body = normalize(resource.fields, value, '$', -1, { refs: referenceKinds(resource), errors });
  return { body, errors };
}

interface Walk {
  refs: Map<Field, Map<string, ValueKind>>;
  errors: ValidationErrors;
}

/**
 * The member `name` of `container` (at `at`) read as a number of `kind`: the value to store (a
 * refusal is recorded at the member's path). `field` gives a member's bounds; reference fields
 * have none.
 */
function numberMember(kind: ValueKind, container: Record<string, unknown>, name: string, at: string, w: Walk, field?: ScalarField): unknown {
  const sent = container[name];
  if (kind !== 'int32' && kind !== 'int64' && kind !== 'double') return sent;
  const source = typeof sent === 'string' ? undefined : numberSource(container, name);
  // Most numbers are what they say: nothing to read.
  if (typeof sent !== 'string' && source === undefined) return sent;
  const read = readNumberMember(kind, name, sent, source, field ? numericBounds(field) : undefined);
  if (!read) return sent;
  if ('value' in read) return read.value;
  w.errors[`${at}.${name}`] = [read.refused];
  return sent;
}

/**
 * Each reference member of the resource (the model's field object) → its fields' kinds, computed
 * once per resource. Keyed by the field, not by its path: a path made per member read was a new
 * string to hash on every reference of every write. A field object shared by two places names
 * one target, so one shape.
 */
const kindsCache = new WeakMap<CompiledResource, Map<Field, Map<string, ValueKind>>>();
function referenceKinds(resource: CompiledResource): Map<Field, Map<string, ValueKind>> {
  let kinds = kindsCache.get(resource);
  if (!kinds) {
    const byPath = new Map(resource.references.map((r) => [r.path, new Map(r.fields.map((f) => [f.property, f.kind]))]));
    kinds = new Map();
    const walk = (fields: Fields, base: string) => {
      for (const [name, f] of Object.entries(fields)) {
        const path = `${base}.${name}`;
        if (f.kind === 'reference' && byPath.has(path)) kinds!.set(f, byPath.get(path)!);
        else if (f.kind === 'collection') walk(f.item, `${path}[*]`);
        else if (f.kind === 'object') walk(f.fields, path);
      }
    };
    walk(resource.fields, '$');
    kindsCache.set(resource, kinds);
  }
  return kinds;
}

/**
 * The concrete path is `base`, with `[index]` for an item (index ≥ 0), built only when a member needs it. Copies an
 * object only when one of its members reads otherwise: a body whose members need no reading
 * (most, and 1.4 million empty items) costs no copy and no path.
 */
function normalize(fields: Fields, value: unknown, base: string, index: number, w: Walk): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
  const sent = value as Record<string, unknown>;
  let out: Record<string, unknown> | undefined;
  let path: string | undefined;
  // The members sent, not the members the model has: an item sent empty costs nothing.
  for (const name in sent) {
    const f = Object.hasOwn(fields, name) ? fields[name] : undefined;
    if (!f) continue;
    const v = sent[name];
    if (v === null) {
      if (!f.required) delete (out ??= { ...sent })[name];
      continue;
    }
    switch (f.kind) {
      case 'boolean':
        // Text with spaces around, and "1" / "0", as both upstream servers read it (decisions #46).
        if (typeof v === 'string' && /^\s*(true|false|1|0)\s*$/i.test(v)) out = assign(sent, out, name, /^\s*(true|1)\s*$/i.test(v));
        else if (v === 1 || v === 0) out = assign(sent, out, name, v === 1);
        break;
      case 'int32':
      case 'int64':
      case 'double':
        out = assign(sent, out, name, numberMember(f.kind, sent, name, (path ??= pathOf(base, index)), w, f));
        break;
      case 'reference': {
        const kinds = w.refs.get(f);
        if (!kinds || !v || typeof v !== 'object' || Array.isArray(v)) break;
        const reference = v as Record<string, unknown>;
        let copy: Record<string, unknown> | undefined;
        for (const [property, kind] of kinds) {
          if (!(property in reference)) continue;
          const read = numberMember(kind, reference, property, `${(path ??= pathOf(base, index))}.${name}`, w);
          if (read !== reference[property]) (copy ??= { ...reference })[property] = read;
        }
        if (copy) out = assign(sent, out, name, copy);
        break;
      }
      case 'collection':
        if (Array.isArray(v)) out = assign(sent, out, name, normalizeItems(f.item, v, `${(path ??= pathOf(base, index))}.${name}`, w));
        break;
      case 'object':
        out = assign(sent, out, name, normalize(f.fields, v, `${(path ??= pathOf(base, index))}.${name}`, -1, w));
        break;
      default:
    }
  }
  return out ?? sent;
}

/** `out` (a copy of `sent`, made now if not yet) with `name` read as `read`, or as it was when unchanged. */
function assign(sent: Record<string, unknown>, out: Record<string, unknown> | undefined, name: string, read: unknown): Record<string, unknown> | undefined {
  if (read === sent[name]) return out;
  const copy = out ?? { ...sent };
  copy[name] = read;
  return copy;
}

/** The items read, in a new list only when one of them reads otherwise. */
function normalizeItems(fields: Fields, items: unknown[], path: string, w: Walk): unknown[] {
  let out: unknown[] | undefined;
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    const read = normalize(fields, item, path, i, w);
    if (read !== item) (out ??= items.slice())[i] = read;
  }
  return out ?? items;
}

const pathOf = (base: string, index: number) => (index < 0 ? base : `${base}[${index}]`);
