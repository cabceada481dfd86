import type { CompiledModel } from '../../spec/model/compiled.js';
import { stringifyExact } from '../http/exact-json.js';
import type { StoredRecord } from '../store/store.js';

/**
 * The members a reference to `target` holds, per model: a process may serve (or test) several
 * data standards, whose references to one target differ (a grading period's is keyed by
 * `periodSequence` in DS 4.0, by `gradingPeriodName` later).
 */
const shapeCache = new WeakMap<CompiledModel, Map<string, string[]>>();
export function referenceProperties(model: CompiledModel, target: string): string[] {
  let shapes = shapeCache.get(model);
  if (!shapes) shapeCache.set(model, (shapes = new Map()));
  let shape = shapes.get(target);
  if (!shape) {
    const ref = model.resources.flatMap((r) => r.references).find((x) => x.target === target);
    shape = ref ? ref.fields.map((m) => m.property) : [];
    shapes.set(target, shape);
  }
  return shape;
}

/** The response body of a record: id first, then the document, then the system members. */
export function render(record: StoredRecord): Record<string, unknown> {
  return { id: record.id, ...record.doc, _etag: record.etag, _lastModifiedDate: record.lastModified };
}

/**
 * The JSON of render(record), kept for the RENDERED_LIMIT records most recently rendered: a
 * record read again is answered without building and serialising its body again. A kept text
 * is used only while the record's document, `_etag` and `_lastModifiedDate` are the ones it was
 * made from (a write replaces the document object and stamps a new etag; a rollback puts the old
 * ones back). Bounded, not one per stored record: at a million records a text each would double
 * the store's memory.
 */
const RENDERED_LIMIT = 10_000;
const rendered = new Map<StoredRecord, { doc: Record<string, unknown>; etag: string; lastModified: string; json: string }>();
export function renderedJson(record: StoredRecord): string {
  const kept = rendered.get(record);
  if (kept && kept.doc === record.doc && kept.etag === record.etag && kept.lastModified === record.lastModified) return kept.json;
  const json = stringifyExact(render(record));
  if (kept) rendered.delete(record);
  else if (rendered.size >= RENDERED_LIMIT) rendered.delete(rendered.keys().next().value as StoredRecord);
  rendered.set(record, { doc: record.doc, etag: record.etag, lastModified: record.lastModified, json });
  return json;
}

/**
 * Deep equality of two pruned documents, ignoring member order and collection order: their
 * canonical texts (below) are equal. Compared member by member, and a collection item by item
 * in the order sent, so an unchanged document (most updates of an existing key) is compared
 * without writing either text; only a collection whose items differ in order is compared by its
 * canonical text.
 */
export function sameDocument(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && (sameInOrder(a, b) || canonical(a) === canonical(b));
  if (a && typeof a === 'object') {
    if (!b || typeof b !== 'object' || Array.isArray(b)) return false;
    const keys = Object.keys(a);
    if (keys.length !== Object.keys(b).length) return false;
    for (const k of keys) if (!Object.hasOwn(b, k) || !sameDocument((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false;
    return true;
  }
  if (b && typeof b === 'object') return false;
  return stringifyExact(a) === stringifyExact(b);
}

const sameInOrder = (a: unknown[], b: unknown[]) => a.length === b.length && a.every((x, i) => sameDocument(x, b[i]));

/** One text per document up to member and collection order: members sorted by name, items by their own text. */
export function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).sort().join(',')}]`;
  if (v && typeof v === 'object') return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`).join(',')}}`;
  return stringifyExact(v);
}
