import type { Context } from 'koa';
import { parseJson, readText, requireJsonContentType } from '../http/body.js';
import { Problem } from '../http/problems.js';
import type { DataStore } from '../store/store.js';
import type { Principal } from './bearer.js';
import { discriminatorPrefixOf, type NamingProfile } from '../../spec/naming/profiles.js';

/**
 * POST {base_url}/oauth/token_info: what the caller's own token grants (upstream token
 * introspection). A missing or invalid bearer token is a 401 with no body, as upstream answers
 * it on endpoints outside the data paths.
 */
export function tokenInfoEndpoint(store: DataStore, authenticate: (ctx: Context) => Principal | Promise<Principal>, naming: NamingProfile) {
  // Type discriminators name the model's schema as upstream does: `edfi.School`.
  const schema = discriminatorPrefixOf(naming.dataModelName);
  return async (ctx: Context): Promise<void> => {
    let principal: Principal;
    try {
      principal = await authenticate(ctx);
    } catch {
      ctx.status = 401;
      ctx.body = '';
      return;
    }
    const mediaType = requireJsonContentType(ctx, (t) => t === 'application/json' || t === 'application/x-www-form-urlencoded');
    // An oversized body is a 413 here too; any other reading failure counts as no body.
    const text = await readText(ctx).catch((err: unknown) => { if (err instanceof Problem && err.suffix === 'request-entity-too-large') throw err; return ''; });
    const fields = mediaType === 'application/json' && text.trim() ? (parseJson(text) as Record<string, unknown>) : Object.fromEntries(new URLSearchParams(text));
    const token = Object.entries(fields ?? {}).find(([k]) => k.toLowerCase() === 'token')?.[1];
    const bearer = ctx.get('authorization').replace(/^bearer\s+/i, '').trim();
    if (typeof token !== 'string' || !token) {
      throw new Problem('bad-request', { detail: 'An invalid token was provided', errors: ['The token was not present, or was not processable.'] });
    }
    if (token !== bearer) {
      throw new Problem('bad-request', { detail: 'The authentication token and the token to inspect must match.', errors: ['The authentication token (header) and the token to inspect in the body must match.'] });
    }
    const { client } = principal;
    const organizations = client.educationOrganizationIds.map((id) => {
      // An education organization's natural key is its id: a keyed lookup per kind, not a scan.
      for (const r of store.model.resources.filter((x) => x.educationOrganization)) {
        const rec = store.findByKey(r, { [r.educationOrganization!.idField]: id });
        if (rec) return { education_organization_id: id, name_of_institution: rec.doc.nameOfInstitution, type: `${schema}.${r.resourceName}` };
      }
      return { education_organization_id: id };
    });
    ctx.set('Cache-Control', 'no-cache');
    ctx.body = {
      active: true,
      client_id: client.key,
      namespace_prefixes: client.namespacePrefixes,
      education_organizations: organizations,
      assigned_profiles: client.profiles,
      claim_set: { name: client.permissionSet },
      exp: principal.claims.exp,
    };
  };
}
