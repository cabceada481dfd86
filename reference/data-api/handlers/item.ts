import type { Context } from 'koa';
import { operationIds } from '../../../spec/generate/openapi-data.js';
import { stringifyExact } from '../../http/exact-json.js';
import { Problem } from '../../http/problems.js';
import { keyValues, naturalKey } from '../../store/keys.js';
import type { StoredRecord } from '../../store/store.js';
import { authorize, type DataApi } from '../context.js';
import { render, renderedJson, sameDocument } from '../documents.js';
import { profileAccept, profileFor, readView, writeView } from '../profiles.js';
import { checkReferences, dependents } from '../integrity.js';
import { parseId, type Route } from '../routes.js';
import { checkIfMatch, ifNoneMatchHits, quoted } from './etag.js';
import { origin } from '../../http/origin.js';
import { answerDirectly } from '../../http/direct-response.js';
import { readWriteBody } from './write-body.js';

/** GET, PUT and DELETE of one record by id. */
function lookup(api: DataApi, route: Route, detail: string): StoredRecord {
  const id = parseId(route.id!);
  const record = api.store.collection(route.resource.name).byId.get(id);
  if (!record) throw new Problem('not-found', { detail });
  return record;
}

export function getById(api: DataApi, ctx: Context, route: Route): void {
  const record = lookup(api, route, 'The specified item could not be found.');
  authorize(api, ctx, route.resource, 'Read', record.doc);
  const profile = profileFor(api, ctx, route.resource, 'read', profileAccept(ctx, api.settings.naming.mediaTypeVendor));
  ctx.set('ETag', quoted(record.etag));
  if (ifNoneMatchHits(ctx, record)) {
    ctx.status = 304;
    return;
  }
  if (profile) {
    ctx.status = 200;
    ctx.type = `${profile.mediaType}; charset=utf-8`;
    ctx.body = stringifyExact(readView(route.resource, profile, render(record)));
    return;
  }
  // The usual read, answered directly: Koa's body and type setters were about 4 % of its server time (bench profile).
  ctx.set('Content-Type', 'application/json; charset=utf-8');
  answerDirectly(ctx, 200, renderedJson(record));
}

/**
 * PUT replaces the whole document (seed rule 2). A body `id` is ignored (seed Conventions).
 * Natural-key changes are refused unless the resource is updatable.
 */
export async function put(api: DataApi, ctx: Context, route: Route): Promise<void> {
  const { resource } = route;
  parseId(route.id!);
  const body = await readWriteBody(api, ctx, resource, operationIds(resource).put, { rejectId: false });
  const record = lookup(api, route, 'Resource to update was not found.');
  const doc = body.profile ? writeView(resource, body.profile, body.doc, record.doc) : body.doc;
  authorize(api, ctx, resource, 'Update', record.doc, doc);
  // Through a profile the stored document holds members the checks did not see: looked up again.
  const resolved = body.profile ? undefined : body.resolved;
  checkReferences(api.model, api.store, resource, doc, resolved, body.profile ? undefined : body.references);
  const key = naturalKey(resource, doc);
  if (key !== record.key) {
    if (!resource.updatable) {
      throw new Problem('bad-request:data-validation-failed:key-change-not-supported', {
        detail: `Identifying values for the ${resource.resourceName} data cannot be changed. Delete and recreate the item instead.`,
      });
    }
    if (api.store.collection(resource.name).byKey.has(key)) {
      const values = Object.entries(keyValues(resource, doc)).map(([k, v]) => `${k} = ${stringifyExact(v)}`).join(', ');
      throw new Problem('data-conflict:non-unique-identity', {
        errors: [`A natural key conflict occurred when attempting to update the resource ${resource.resourceName}: another item already has the identifying values ${values}.`],
      });
    }
  }
  checkIfMatch(ctx, record);
  if (resource.isDescriptor) doc[`${resource.name}Id`] = record.doc[`${resource.name}Id`];
  if (!sameDocument(record.doc, doc)) api.store.replace(resource, record, doc, resolved);
  ctx.status = 204;
  ctx.set('ETag', quoted(record.etag));
  ctx.set('Location', `${origin(ctx)}${ctx.path}`);
}

/**
 * DELETE removes the record (204); a record others still reference is kept (409, seed rule 4).
 * If-Match is checked before the dependents: 404, then 412, then 409, as ODS/API and DMS do
 * (decisions #46).
 */
export function remove(api: DataApi, ctx: Context, route: Route): void {
  const record = lookup(api, route, 'Resource to delete was not found.');
  authorize(api, ctx, route.resource, 'Delete', record.doc);
  checkIfMatch(ctx, record);
  const referencing = dependents(api.store, record);
  if (referencing.length) {
    throw new Problem('data-conflict:dependent-item-exists', {
      detail: `The requested action cannot be performed because this item is referenced by existing ${referencing.join(', ')} item(s).`,
    });
  }
  api.store.remove(route.resource, record);
  ctx.status = 204;
}
