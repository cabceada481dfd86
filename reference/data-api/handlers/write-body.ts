import type { Context } from 'koa';
import type { CompiledResource } from '../../../spec/model/compiled.js';
import { parseJson, readText, requireJsonContentType } from '../../http/body.js';
import { Problem } from '../../http/problems.js';
import type { DataApi } from '../context.js';
import { prune } from '../documents.js';
import { checkUnification, resolveDescriptors } from '../integrity.js';
import { bodyErrors, type ValidationErrors } from '../validation-errors.js';

/**
 * The shared front half of POST and PUT (decisions #11 order): content type (415), body (400
 * bad-request), schema and key unification (400), descriptors (400). Returns the document to
 * store: model members only, descriptor values in canonical spelling.
 */
export async function readWriteBody(api: DataApi, ctx: Context, resource: CompiledResource, operationId: string, opts: { rejectId: boolean }): Promise<Record<string, unknown>> {
  requireJsonContentType(ctx);
  const body = parseJson(await readText(ctx));
  if (opts.rejectId && body && typeof body === 'object' && !Array.isArray(body) && 'id' in body) {
    throw new Problem('bad-request:data-validation-failed', {
      detail: 'The request data was constructed incorrectly.',
      errors: ["Resource identifiers cannot be assigned by the client. The 'id' property should not be included in the request body."],
    });
  }
  const { errors } = api.validator.validate(operationId, { method: ctx.method, path: ctx.state.specPath as string, query: {}, body });
  const validationErrors: ValidationErrors = bodyErrors(errors, body);
  if (Object.keys(validationErrors).length || body === null || typeof body !== 'object' || Array.isArray(body)) {
    if (!Object.keys(validationErrors).length) validationErrors.$ = ['The request body must be a JSON object.'];
    throw dataValidationFailed(validationErrors);
  }
  const doc = prune(api.model, resource.fields, body as Record<string, unknown>);
  const more: ValidationErrors = checkUnification(resource, doc);
  for (const [path, messages] of Object.entries(resolveDescriptors(api.model, api.store, resource, doc))) (more[path] ??= []).push(...messages);
  if (Object.keys(more).length) throw dataValidationFailed(more);
  return doc;
}

export function dataValidationFailed(validationErrors: ValidationErrors): Problem {
  return new Problem('bad-request:data-validation-failed', { validationErrors });
}
