/**
 * What the model says of a resource's members, for the recipes that break one member of a kind
 * (issue 23 findings 1, 2 and 8), and what the answer must then be: the number a spelling is,
 * exactly, and whether the member's type holds it. The fuzzer's own reading, written apart from
 * the reference's (reference/http/json-number.ts), so that the judge is a second opinion.
 */
import { numericBounds } from '../../spec/generate/json-schema.js';
import type { ScalarField } from '../../spec/model/dsl.js';
import { model } from '../../spec/model/index.js';

export type NumberKind = 'int32' | 'int64' | 'double';
export interface NumberMember { name: string; minimum?: number; maximum?: number }

export interface Shape {
  /** Top-level number members a client writes, by kind. */
  numbers: Record<NumberKind, NumberMember[]>;
  /** Top-level text members a client writes; `required` when blank text must be refused (required or key). */
  texts: { name: string; required: boolean }[];
  /** Top-level collections whose items need a member (so an empty item fails); `keyed` when items have key fields. */
  collections: { name: string; keyed: boolean }[];
  /** Top-level collections keyed by one text member whose items need only text: two items can differ in that text's spelling alone. */
  textKeyed: { name: string; key: string; required: { name: string; minLength: number }[] }[];
}

const shapes = new Map<string, Shape | undefined>();

/** The shape of the resource served at `endpoint` (undefined for an endpoint the model lacks). */
export function shapeOf(endpoint: string): Shape | undefined {
  if (shapes.has(endpoint)) return shapes.get(endpoint);
  const r = model.resources.find((x) => x.endpoint === endpoint);
  let shape: Shape | undefined;
  if (r) {
    shape = { numbers: { int32: [], int64: [], double: [] }, texts: [], collections: [], textKeyed: [] };
    for (const [name, f] of Object.entries(r.fields)) {
      if ((f.kind === 'int32' || f.kind === 'int64' || f.kind === 'double') && !f.readOnly) shape.numbers[f.kind].push({ name, ...numericBounds(f as ScalarField) });
      else if (f.kind === 'string' && !f.readOnly) shape.texts.push({ name, required: !!(f.required || f.identity) });
      else if (f.kind === 'collection') {
        const keys = r.collections.find((c) => c.path === `$.${name}`)?.itemKeys ?? [];
        const required = Object.entries(f.item).filter(([, x]) => x.required || x.identity);
        if (required.length) shape.collections.push({ name, keyed: keys.length > 0 });
        if (keys.length === 1 && f.item[keys[0]]?.kind === 'string' && required.every(([, x]) => x.kind === 'string')) {
          shape.textKeyed.push({ name, key: keys[0], required: required.map(([n, x]) => ({ name: n, minLength: (x as ScalarField).minLength ?? 0 })) });
        }
      }
    }
  }
  shapes.set(endpoint, shape);
  return shape;
}

/** A JSON number's exact value, m × 10^e, or undefined when the text is not in JSON's number grammar. */
export function exactNumber(text: string): { m: bigint; e: bigint } | undefined {
  // Short fixed spellings only (the recipes' tables): no quantifier here can backtrack into another.
  const g = /^(-?)(0|[1-9][0-9]*)(?:\.([0-9]+))?(?:[eE]([-+]?[0-9]+))?$/.exec(text);
  if (!g) return undefined;
  let m = BigInt(`${g[1]}${g[2]}${g[3] ?? ''}`);
  let e = BigInt(g[4] ?? 0) - BigInt((g[3] ?? '').length);
  if (m === 0n) return { m, e: 0n };
  while (m % 10n === 0n) { m /= 10n; e++; }
  return { m, e };
}

/** Compares two exact values (a finite double's text is exact: String(0.1) is the 0.1 it stands for). */
function compare(a: { m: bigint; e: bigint }, b: { m: bigint; e: bigint }): number {
  const e = a.e < b.e ? a.e : b.e;
  const x = a.m * 10n ** (a.e - e);
  const y = b.m * 10n ** (b.e - e);
  return x < y ? -1 : x > y ? 1 : 0;
}

const INTEGER_RANGE = { int32: [-(2n ** 31n), 2n ** 31n - 1n], int64: [-(2n ** 63n), 2n ** 63n - 1n] } as const;

/**
 * What a number member of `kind` must do with `spelling` (written as a literal, or as text: the
 * same, decisions #28): 'refuse' when its exact value is no value of the type (a fraction in an
 * integer, past the range, past the largest double, a nonzero value a double reads as 0, outside
 * the member's bounds, or no number at all); 'read' when the type holds it; undefined when the
 * member is judged by more than its type (a school year's configured range).
 */
export function numberVerdict(spelling: string, kind: NumberKind, member: NumberMember): 'refuse' | 'read' | undefined {
  const x = exactNumber(spelling);
  if (!x) return 'refuse';
  if (kind !== 'double') {
    if (x.e < 0n) return 'refuse';
    // Past 10^20 no integer type holds it; below, the value is small enough to build.
    if (x.m !== 0n && x.e > 20n) return 'refuse';
    const n = x.m * 10n ** x.e;
    const [min, max] = INTEGER_RANGE[kind];
    if (n < min || n > max) return 'refuse';
  } else {
    const value = Number(spelling);
    if (!Number.isFinite(value) || (value === 0 && x.m !== 0n)) return 'refuse';
  }
  if (member.maximum !== undefined && compare(x, exactNumber(String(member.maximum))!) > 0) return 'refuse';
  if (member.minimum !== undefined && compare(x, exactNumber(String(member.minimum))!) < 0) return 'refuse';
  return /^(schoolYear|.+SchoolYear)$/.test(member.name) ? undefined : 'read';
}
