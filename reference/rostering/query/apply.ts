import { valuesAt } from '../endpoints.js';
import type { Row } from '../mapping/index.js';
import { matches } from './filter.js';
import type { ListQuery } from './params.js';

/**
 * Filter, order, page and project the visible rows (already in sourcedId order). The filter runs
 * on rows the caller may see, so an OR can never widen visibility. Sorting is stable, sourcedId
 * breaking ties, so pages never overlap.
 */
export function applyList(rows: Row[], q: ListQuery): { total: number; items: Record<string, unknown>[] } {
  let selected = q.filter ? rows.filter((r) => matches(q.filter!, r.data)) : rows;
  if (q.sort.length) {
    const keyed = selected.map((row, i) => ({ row, i, keys: q.sort.map((f) => first(row.data, f)) }));
    keyed.sort((a, b) => {
      for (let k = 0; k < q.sort.length; k++) {
        const c = compare(a.keys[k], b.keys[k]);
        if (c) return q.descending ? -c : c;
      }
      return a.i - b.i;
    });
    selected = keyed.map((k) => k.row);
  } else if (q.descending) {
    selected = [...selected].reverse();
  }
  const page = selected.slice(q.offset, q.offset + q.limit);
  return { total: selected.length, items: page.map((r) => project(r.data, q.fields)) };
}

export function project(data: Record<string, unknown>, fields: string[] | undefined): Record<string, unknown> {
  if (!fields) return data;
  const out: Record<string, unknown> = {};
  for (const f of fields) if (data[f] !== undefined) out[f] = data[f];
  return out;
}

function first(data: Record<string, unknown>, field: string): string | undefined {
  const v = valuesAt(data, field)[0];
  if (v === undefined || v === null) return undefined;
  return typeof v === 'object' ? String((v as Record<string, unknown>).role ?? (v as Record<string, unknown>).sourcedId ?? '') : String(v);
}

/** Text order; a missing value sorts after every present one. */
function compare(a: string | undefined, b: string | undefined): number {
  if (a === b) return 0;
  if (a === undefined) return 1;
  if (b === undefined) return -1;
  return a < b ? -1 : 1;
}
