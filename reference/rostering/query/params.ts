import { PAGE_SIZE } from '../../../spec/generate/openapi-rostering.js';
import type { Endpoint } from '../endpoints.js';
import { invalidData } from '../status.js';
import { parseFilter, type Filter } from './filter.js';

/**
 * Query parameters of a read (research/rostering.md §3): limit and offset as plain digits (a
 * limit above the maximum is clamped), sort and fields as comma lists of the resource's fields,
 * orderBy asc/desc, filter per filter.ts. Every mistake is a 400 `invalid_data`, never a 500;
 * a parameter given twice is a mistake too. Other parameters are ignored.
 */
export interface ListQuery {
  limit: number;
  offset: number;
  sort: string[];
  descending: boolean;
  fields?: string[];
  filter?: Filter;
}

export function readListQuery(querystring: string, endpoint: Endpoint): ListQuery {
  const q = once(querystring, ['limit', 'offset', 'sort', 'orderBy', 'filter', 'fields']);
  const sort = list(q.sort);
  const unknown = sort.filter((f) => !endpoint.filterable.has(f));
  if (unknown.length) throw invalidData(`Invalid sort field: ${unknown.join(', ')}. Allowed fields: ${[...endpoint.filterable].join(', ')}`);
  const order = (q.orderBy ?? '').trim().toLowerCase();
  if (order && order !== 'asc' && order !== 'desc') throw invalidData("Query parameter 'orderBy' must be asc or desc");
  const filter = q.filter !== undefined && q.filter.trim() !== '' ? parseFilter(q.filter, endpoint.filterable) : undefined;
  return {
    limit: Math.min(integer('limit', q.limit, PAGE_SIZE.default, 1), PAGE_SIZE.maximum),
    offset: integer('offset', q.offset, 0, 0),
    sort,
    descending: order === 'desc',
    ...fieldsOf(q.fields, endpoint),
    ...(filter ? { filter } : {}),
  };
}

/** `fields` of a single-record read. */
export function readSingleQuery(querystring: string, endpoint: Endpoint): { fields?: string[] } {
  return fieldsOf(once(querystring, ['fields']).fields, endpoint);
}

function fieldsOf(text: string | undefined, endpoint: Endpoint): { fields?: string[] } {
  if (text === undefined) return {};
  const fields = list(text);
  const unknown = fields.filter((f) => !endpoint.selectable.has(f));
  if (unknown.length) throw invalidData(`Invalid fields requested: ${unknown.join(', ')}. Allowed fields: ${[...endpoint.selectable].join(', ')}`);
  return fields.length ? { fields } : {};
}

function once(querystring: string, names: string[]): Record<string, string | undefined> {
  const params = new URLSearchParams(querystring);
  const out: Record<string, string | undefined> = {};
  for (const name of names) {
    const values = params.getAll(name);
    if (values.length > 1) throw invalidData(`Query parameter '${name}' must be supplied at most once`);
    out[name] = values[0];
  }
  return out;
}

const list = (text: string | undefined) => (text ?? '').split(',').map((s) => s.trim()).filter(Boolean);

function integer(name: string, text: string | undefined, fallback: number, min: number): number {
  const t = (text ?? '').trim();
  if (t === '') return fallback;
  if (!/^\d+$/.test(t)) throw invalidData(`Query parameter '${name}' must be a non-negative integer`);
  const n = Number(t);
  if (!Number.isSafeInteger(n)) throw invalidData(`Query parameter '${name}' exceeds the maximum supported value`);
  if (n < min) throw invalidData(`Query parameter '${name}' must be ${min} or greater`);
  return n;
}
