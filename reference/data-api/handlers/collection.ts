import type { Context } from 'koa';
import type { CompiledResource } from '../../../spec/model/compiled.js';
import { operationIds } from '../../../spec/generate/openapi-data.js';
import { stringifyExact } from '../../http/exact-json.js';
import { Problem } from '../../http/problems.js';
import { getPath } from '../../store/json-path.js';
import { queryValueKey, type KeyChangeEvent, type StoredRecord } from '../../store/store.js';
import { authorize, principalOf, type DataApi } from '../context.js';
import { render, renderedJson } from '../documents.js';
import { profileAccept, profileFor, readView } from '../profiles.js';
import { parseId, type Route } from '../routes.js';
import { decodeToken, encodeToken, pastCursor, pagingModeProblems, partitionTokens, type Cursor } from './cursor.js';
import { queryErrors } from '../validation-errors.js';

/** Paging and change-version parameters every collection and feed takes. */
const COMMON = ['offset', 'limit', 'totalCount', 'MinChangeVersion', 'MaxChangeVersion'];
/** Cursor paging, on collections only. */
const CURSOR = ['pageToken', 'pageSize'];
const BOOLEANS = new Set(['totalCount']);
/** Parameters that are not a resource property: their bad values are parameter-validation problems. */
const NOT_PROPERTIES = new Set([...COMMON, ...CURSOR, 'number']);

export interface Paging {
  offset: number;
  limit: number;
  totalCount: boolean;
  min?: number;
  max?: number;
  /** Cursor paging (pageToken + pageSize): where the page starts, and its size in `limit`. */
  cursor?: Cursor;
}

/**
 * Reads the query string: names matched case-insensitively (decisions #15), values typed and
 * validated by openapi-backend against the operation's parameters; unknown names, repeated
 * names and out-of-range paging give 400 parameter-validation-failed, and a property's value
 * that cannot be read as its type 400 data-validation-failed at `$.<parameter>`, as `?id=`
 * does (decisions #46).
 */
export function readQuery(api: DataApi, ctx: Context, operationId: string, allowed: string[], booleans: Set<string> = BOOLEANS): { paging: Paging; filters: Record<string, unknown>; raw: Record<string, string> } {
  const canonical = new Map(allowed.map((n) => [n.toLowerCase(), n]));
  const query: Record<string, string> = {};
  const problems: string[] = [];
  for (const [rawName, value] of Object.entries(ctx.query)) {
    const name = canonical.get(rawName.toLowerCase()) ?? rawName;
    if (Array.isArray(value) || Object.hasOwn(query, name)) problems.push(`The query parameter '${name}' must be supplied at most once.`);
    else if (name === 'correlationId') continue;
    // Boolean values match case-insensitively (decisions #15): TRUE, True and true alike.
    else query[name] = booleans.has(name) && /^(true|false)$/i.test(value ?? '') ? value!.toLowerCase() : value ?? '';
  }
  const { errors, query: typed } = api.validator.validate(operationId, { query });
  // Messages name each value as it was sent.
  const bad = queryErrors(errors, query);
  const limitMax = api.settings.pageSizeLimit;
  const paging: Paging = {
    offset: typeof typed.offset === 'number' ? typed.offset : 0,
    limit: typeof typed.limit === 'number' ? typed.limit : limitMax,
    totalCount: typed.totalCount === true,
    ...(typeof typed.MinChangeVersion === 'number' ? { min: typed.MinChangeVersion } : {}),
    ...(typeof typed.MaxChangeVersion === 'number' ? { max: typed.MaxChangeVersion } : {}),
  };
  const valueErrors: Record<string, string[]> = {};
  for (const b of bad) {
    if (b.keyword !== 'additionalProperties' && canonical.has(b.name.toLowerCase()) && !NOT_PROPERTIES.has(b.name)) {
      (valueErrors[`$.${b.name}`] ??= []).push(b.message);
      continue;
    }
    if (b.name === 'pageSize') continue; // worded below, with the paging mode
    if (b.name === 'limit') problems.push(`Limit must be omitted or set to a value between 0 and ${limitMax}.`);
    else if (b.name === 'offset') problems.push('Offset must be greater than or equal to 0.');
    else problems.push(b.message);
  }
  // The interface description bounds limit by the default maximum; the configured one may be lower.
  if (paging.limit > limitMax) {
    problems.push(`Limit must be omitted or set to a value between 0 and ${limitMax}.`);
  }
  const sent = (name: string) => Object.hasOwn(query, name);
  problems.push(...pagingModeProblems({ offset: sent('offset'), limit: sent('limit'), totalCount: paging.totalCount, pageToken: sent('pageToken'), pageSize: sent('pageSize') }));
  if (sent('pageToken')) {
    const cursor = decodeToken(query.pageToken);
    if (!cursor) problems.push('The pageToken is not valid.');
    else paging.cursor = cursor;
    const size = typed.pageSize;
    if (sent('pageSize') && (typeof size !== 'number' || size < 1 || size > limitMax)) problems.push(`PageSize must be omitted or set to a value between 1 and ${limitMax}.`);
    else if (typeof size === 'number') paging.limit = size;
  }
  if (Object.keys(valueErrors).length) throw new Problem('bad-request:data-validation-failed', { validationErrors: valueErrors });
  if (problems.length) throw new Problem('bad-request:parameter-validation-failed', { detail: 'The request construction was invalid.', errors: [...new Set(problems)] });
  const filters: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(typed)) if (!COMMON.includes(name) && !CURSOR.includes(name)) filters[name] = value;
  // `?id=` must be an id, as upstream (400 at `$.id`), in any of its usual spellings.
  if (filters.id !== undefined) filters.id = parseId(String(filters.id));
  return { paging, filters, raw: query };
}

/** One page of items plus the Total-Count header when asked for (decisions #13). */
export function sendPage<T>(ctx: Context, items: T[], paging: Paging, toJson: (item: T) => unknown): void {
  if (paging.totalCount) ctx.set('Total-Count', String(items.length));
  const page = items.slice(paging.offset, paging.offset + paging.limit);
  ctx.status = 200;
  ctx.type = 'application/json; charset=utf-8';
  ctx.body = stringifyExact(page.map(toJson));
}

const inWindow = (v: number, p: Paging) => (p.min === undefined || v >= p.min) && (p.max === undefined || v <= p.max);

/**
 * GET {data_root}/core/<resource>: equality search on query fields, in creation order. One
 * filter is answered from its equality index; the rest are checked on those candidates only.
 * Without filters the page is read lazily, so a page costs its offset and size, not the store.
 */
export function getAll(api: DataApi, ctx: Context, route: Route): void {
  const { resource } = route;
  const { paging, filters, raw } = readQuery(api, ctx, operationIds(resource).getAll, [...COMMON, ...CURSOR, ...Object.keys(resource.queryFields)], booleansOf(resource));
  authorize(api, ctx, resource, 'Read');
  const profile = profileFor(api, ctx, resource, 'read', profileAccept(ctx, api.settings.naming.mediaTypeVendor));
  const { candidates, indexed, accept, collection, everyCandidate } = matching(api, ctx, resource, paging, filters, raw);
  const page: StoredRecord[] = [];
  let total = 0;
  const { cursor } = paging;
  if (cursor) {
    // Candidates come in creation order: skip to the token's position, stop past its range.
    for (const r of candidates) {
      if (r.created <= cursor.after) continue;
      if (pastCursor(r.created, cursor) || page.length >= paging.limit) break;
      if (accept(r)) page.push(r);
    }
  } else if (everyCandidate) {
    // Every candidate matches: the total is the candidate count and a page costs offset + limit.
    total = indexed ? indexed.size : collection.byId.size;
    let i = 0;
    for (const r of candidates) {
      if (i++ < paging.offset) continue;
      if (page.length >= paging.limit) break;
      page.push(r);
    }
  } else {
    for (const r of candidates) {
      if (!accept(r)) continue;
      if (total >= paging.offset && page.length < paging.limit) page.push(r);
      total++;
      if (!paging.totalCount && page.length >= paging.limit && total > paging.offset) break;
    }
  }
  if (paging.totalCount) ctx.set('Total-Count', String(total));
  // Every non-empty page, in either mode, says where the next one starts (7.3).
  const last = page.at(-1);
  if (last) ctx.set('Next-Page-Token', encodeToken(cursor?.until !== undefined ? { after: last.created, until: cursor.until } : { after: last.created }));
  ctx.status = 200;
  ctx.type = profile?.mediaType ? `${profile.mediaType}; charset=utf-8` : 'application/json; charset=utf-8';
  // Without a profile, each item's text as GET by id answers it (kept for recently read records): the same bytes as the array's.
  ctx.body = profile ? stringifyExact(page.map((r) => readView(resource, profile, render(r)))) : `[${page.map(renderedJson).join(',')}]`;
}

const booleansOf = (resource: CompiledResource) => new Set(['totalCount', ...Object.entries(resource.queryFields).filter(([, q]) => q.kind === 'boolean').map(([n]) => n)]);

/**
 * The records a collection query matches: candidates in creation order (one filter answered by
 * its equality index) and the check the others, the change-version window and authorization
 * make per candidate.
 */
function matching(api: DataApi, ctx: Context, resource: CompiledResource, paging: Paging, filters: Record<string, unknown>, raw: Record<string, string>) {
  const { client } = principalOf(ctx);
  const collection = api.store.collection(resource.name);
  const wanted = Object.entries(filters).map(([name, value]) => [name, wantedKey(resource, name, value, raw[name])] as const);
  const indexed = wanted.length ? collection.lookup(wanted[0][0], wanted[0][1]) : undefined;
  const candidates: Iterable<StoredRecord> = indexed ?? collection.byId.values();
  // The first filter is what the index answered: only the others are checked per candidate.
  const rest = wanted.slice(1);
  const unrestricted = client.permissionSet === 'unrestricted';
  const accept = (r: StoredRecord) =>
    inWindow(r.changeVersion, paging) &&
    rest.every(([name, key]) => queryValueKey(resource.queryFields[name].kind, name === 'id' ? r.id : getPath(r.doc, resource.queryFields[name].path)) === key) &&
    (unrestricted || api.authorizer.visible(api.store, client, resource, r));
  const everyCandidate = wanted.length <= 1 && unrestricted && paging.min === undefined && paging.max === undefined;
  return { candidates, indexed, accept, collection, everyCandidate };
}

/**
 * GET {data_root}/core/<resource>/partitions?number=N: page tokens that split what the query
 * matches into N ranges of near-equal size, each then paged with pageToken + pageSize (7.3).
 */
export function partitions(api: DataApi, ctx: Context, route: Route): void {
  const { resource } = route;
  const { paging, filters, raw } = readQuery(api, ctx, operationIds(resource).partitions, ['MinChangeVersion', 'MaxChangeVersion', 'number', ...Object.keys(resource.queryFields)], booleansOf(resource));
  const n = typeof filters.number === 'number' ? filters.number : 1;
  delete filters.number;
  authorize(api, ctx, resource, 'Read');
  const { candidates, accept } = matching(api, ctx, resource, paging, filters, raw);
  const created: number[] = [];
  for (const r of candidates) if (accept(r)) created.push(r.created);
  ctx.status = 200;
  ctx.type = 'application/json; charset=utf-8';
  ctx.body = JSON.stringify({ pageTokens: partitionTokens(created, n) });
}

/** The index key a query value is compared by (integers past 2^53 by their digits as sent). */
function wantedKey(resource: CompiledResource, name: string, value: unknown, raw: string): string {
  const kind = resource.queryFields[name].kind;
  if (Number.isInteger(value) && !Number.isSafeInteger(value)) return raw.trim();
  return queryValueKey(kind, value);
}

/**
 * GET .../deletes and .../keyChanges: change events in change-version order. Deletes are
 * filtered by what the caller could have read; several key changes of one item in the window
 * are one entry (the oldest old values, the newest new values), as upstream reports them.
 */
export function feed(api: DataApi, ctx: Context, route: Route): void {
  const { resource } = route;
  const ids = operationIds(resource);
  const { paging } = readQuery(api, ctx, route.kind === 'deletes' ? ids.deletes : ids.keyChanges, COMMON);
  authorize(api, ctx, resource, 'Read');
  const { client } = principalOf(ctx);
  const c = api.store.collection(resource.name);
  if (route.kind === 'deletes') {
    const visible = c.deletes.filter((d) => inWindow(d.changeVersion, paging) && (!d.doc || api.authorizer.visibleDocument(api.store, client, resource, d.doc)));
    sendPage(ctx, visible, paging, (d) => ({ id: d.id, changeVersion: d.changeVersion, keyValues: d.keyValues }));
    return;
  }
  const byItem = new Map<string, KeyChangeEvent>();
  for (const k of c.keyChanges) {
    if (!inWindow(k.changeVersion, paging)) continue;
    const first = byItem.get(k.id);
    byItem.set(k.id, first ? { ...k, oldKeyValues: first.oldKeyValues } : k);
  }
  sendPage(ctx, [...byItem.values()].sort((a, b) => a.changeVersion - b.changeVersion), paging, (k) => k);
}
