import type { Context } from 'koa';
import { operationIds } from '../../../spec/generate/openapi-data.js';
import { Problem } from '../../http/problems.js';
import { naturalKey, naturalKeyOfValues } from '../../store/keys.js';
import { authorize, principalOf, type DataApi } from '../context.js';
import { checkRecordQuota } from '../record-quota.js';
import { sameDocument } from '../documents.js';
import { writeView } from '../profiles.js';
import { checkReferences } from '../integrity.js';
import type { Route } from '../routes.js';
import { checkIfMatch, quoted } from './etag.js';
import { origin } from '../../http/origin.js';
import { answerDirectly } from '../../http/direct-response.js';
import { withoutTrailingSlashes } from '../../http/paths.js';
import { dataValidationFailed, readWriteBody } from './write-body.js';
import type { CompiledResource } from '../../../spec/model/compiled.js';
import type { Field } from '../../../spec/model/dsl.js';

/**
 * POST {data_root}/core/<resource>: upsert by natural key (seed rule 1). A new key creates the
 * record (201); an existing key updates it (200); both answer the item's absolute Location and
 * its ETag. Identical content changes nothing, not even `_lastModifiedDate`.
 */
export async function upsert(api: DataApi, ctx: Context, route: Route): Promise<void> {
  const { resource } = route;
  const body = await readWriteBody(api, ctx, resource, operationIds(resource).post, { rejectId: true });
  const key = naturalKey(resource, body.doc);
  const existing = api.store.collection(resource.name).byKey.get(key);
  const doc = body.profile ? writeView(resource, body.profile, body.doc, existing?.doc) : body.doc;
  if (existing) authorize(api, ctx, resource, 'Update', existing.doc, doc);
  else authorize(api, ctx, resource, 'Create', doc);
  // Through a profile the stored document holds members the checks did not see: looked up again.
  const resolved = body.profile ? undefined : body.resolved;
  checkReferences(api.model, api.store, resource, doc, resolved, body.profile ? undefined : body.references);
  if (existing) {
    checkIfMatch(ctx, existing);
    if (resource.isDescriptor) doc[`${resource.name}Id`] = existing.doc[`${resource.name}Id`];
    if (!sameDocument(existing.doc, doc)) api.store.replace(resource, existing, doc, resolved);
    respond(ctx, 200, existing.id, existing.etag);
    return;
  }
  if (body.profile) requireMembers(resource, doc);
  if (resource.educationOrganization) assertUniqueEducationOrganizationId(api, route, doc);
  checkRecordQuota(api, ctx);
  if (resource.isDescriptor) doc[`${resource.name}Id`] = api.store.nextDescriptorId();
  // The key looked up above is the stored document's unless a profile made another document.
  const created = api.store.create(resource, doc, { owner: principalOf(ctx).client.key, resolved, ...(body.profile ? {} : { key }) });
  respond(ctx, 201, created.id, created.etag);
}

/**
 * A create through a writable profile that leaves out a required member stores nothing: the
 * member is missing from what would be stored, as from a body without it (400), where an update
 * keeps the stored value.
 */
function requireMembers(resource: CompiledResource, doc: Record<string, unknown>): void {
  const missing = (Object.entries(resource.fields) as [string, Field][]).filter(([name, f]) => f.required && doc[name] === undefined).map(([name]) => name);
  if (missing.length) throw dataValidationFailed(Object.fromEntries(missing.map((m) => [`$.${m}`, [`${m} is required.`]])));
}

/**
 * The answer has no body, ended directly: Koa's body setter would name a text type only to have
 * it removed again (about 4 % of an upsert's server time, bench profile).
 */
function respond(ctx: Context, status: 200 | 201, id: string, etag: string): void {
  ctx.set('Location', `${origin(ctx)}${withoutTrailingSlashes(ctx.path)}/${id}`);
  ctx.set('ETag', quoted(etag));
  answerDirectly(ctx, status);
}

/** Education organization ids are unique across every member type (409 non-unique-identity). */
function assertUniqueEducationOrganizationId(api: DataApi, route: Route, doc: Record<string, unknown>): void {
  const id = doc[route.resource.educationOrganization!.idField];
  for (const other of api.model.resources) {
    if (!other.educationOrganization || other === route.resource) continue;
    if (api.store.collection(other.name).byKey.has(naturalKeyOfValues(other, [id]))) {
      throw new Problem('data-conflict:non-unique-identity', {
        detail: `The identifying value(s) of the item are the same as another item that already exists.`,
        errors: [`A natural key conflict occurred when attempting to create a new resource ${route.resource.resourceName} with a duplicate key. The duplicated educationOrganizationId is ${String(id)}, already used by a ${other.resourceName}.`],
      });
    }
  }
}
