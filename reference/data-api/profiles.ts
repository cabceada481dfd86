import type { Context } from 'koa';
import type { CompiledResource } from '../../spec/model/compiled.js';
import type { MemberFilter, ProfileConfig } from '../config/types.js';
import { Problem } from '../http/problems.js';
import { principalOf, type DataApi } from './context.js';

/**
 * Profiles (seed Endpoints rule 8): `application/vnd.<vendor>.<resource>.<profile>.readable+json` on
 * reads (Accept) and `...writable+json` on writes (Content-Type). A readable type on a write is
 * 400 invalid-profile-usage, a writable type on a read 400 invalid-method-usage, a profile not
 * assigned to the caller 403 incorrect-usage, and so is a plain JSON request of a caller whose
 * profile covers the resource in that direction. The vendor word is the deployment's (`core`,
 * upstream `ed-fi`).
 */
const patterns = new Map<string, RegExp>();
const profileType = (vendor: string): RegExp => {
  let p = patterns.get(vendor);
  if (!p) patterns.set(vendor, p = new RegExp(`^application/vnd\\.${vendor.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.([^.]+)\\.([^.]+)\\.(readable|writable)\\+json$`, 'i'));
  return p;
};

export interface AppliedProfile {
  name: string;
  filter: MemberFilter;
  mediaType?: string;
}

export const isProfileMediaType = (mediaType: string, vendor: string) => profileType(vendor).test(mediaType);

/** The profile media type named in Accept, if any (other types are ordinary JSON reads). */
export function profileAccept(ctx: Context, vendor: string): string | undefined {
  const accept = ctx.get('accept');
  // Every profile type has dots (application/vnd.<vendor>.…); the usual Accept has none: no copies.
  if (!accept.includes('.')) return undefined;
  const start = `application/vnd.${vendor}.`.toLowerCase();
  return accept.split(',').map((t) => t.split(';')[0].trim()).find((t) => t.toLowerCase().startsWith(start));
}

export function profileFor(api: DataApi, ctx: Context, resource: CompiledResource, direction: 'read' | 'write', mediaType: string | undefined): (AppliedProfile & { mediaType: string }) | undefined {
  const { client } = principalOf(ctx);
  // No profile asked for and none defined: nothing below can apply or be required.
  if (!mediaType && !api.settings.profiles.length) return undefined;
  const assigned = api.settings.profiles.filter((p) => client.profiles.includes(p.name) && p.resources[resource.endpoint]);
  const vendor = api.settings.naming.mediaTypeVendor;
  const match = mediaType ? profileType(vendor).exec(mediaType.trim()) : null;
  if (!match) {
    // A caller whose profile covers the resource must say so (seed: "a required covering
    // profile type missing" is 403 incorrect-usage).
    const covering = assigned.filter((p) => p.resources[resource.endpoint][direction]);
    if (covering.length) {
      throw new Problem('security:data-policy:incorrect-usage', {
        errors: [`The caller's profile${covering.length > 1 ? 's' : ''} '${covering.map((p) => p.name).join("', '")}' cover${covering.length > 1 ? '' : 's'} the '${resource.resourceName}' resource: use ${mediaTypeOf(vendor, resource, covering[0].name, direction)}.`],
      });
    }
    return undefined;
  }
  const [, resourceName, profileName, kind] = match;
  if ((kind.toLowerCase() === 'readable') !== (direction === 'read')) {
    throw direction === 'write'
      ? new Problem('profile:invalid-profile-usage', { errors: ['A readable profile content type cannot be used to write data.'] })
      : new Problem('profile:invalid-method-usage', { errors: ['A writable profile content type cannot be used to read data.'] });
  }
  const profile = assigned.find((p) => p.name.toLowerCase() === profileName.toLowerCase());
  if (!profile || resourceName.toLowerCase() !== resource.name.toLowerCase()) {
    throw new Problem('security:data-policy:incorrect-usage', { errors: [`The profile '${profileName}' is not assigned to the caller for the '${resource.resourceName}' resource.`] });
  }
  if (!profile.resources[resource.endpoint][direction]) {
    throw new Problem('profile:invalid-method-usage', { errors: [`The profile '${profile.name}' does not allow the '${resource.resourceName}' resource to be ${direction === 'read' ? 'read' : 'written'}.`] });
  }
  return { ...applied(profile, resource, direction), mediaType: match[0] };
}

const mediaTypeOf = (vendor: string, resource: CompiledResource, profile: string, direction: 'read' | 'write') =>
  `application/vnd.${vendor}.${resource.name.toLowerCase()}.${profile.toLowerCase()}.${direction === 'read' ? 'readable' : 'writable'}+json`;

function applied(profile: ProfileConfig, resource: CompiledResource, direction: 'read' | 'write'): AppliedProfile {
  return { name: profile.name, filter: profile.resources[resource.endpoint][direction]! };
}

/** Whether a top-level member survives the profile (identity members always do). */
function keeps(resource: CompiledResource, filter: MemberFilter, member: string): boolean {
  if (resource.identity.some((k) => k.path.split('.')[1] === member)) return true;
  if (filter.include) return filter.include.includes(member);
  return !(filter.exclude ?? []).includes(member);
}

/** A response body filtered to the profile's members (system members stay). */
export function readView(resource: CompiledResource, profile: AppliedProfile, body: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(body).filter(([k]) => k === 'id' || k.startsWith('_') || keeps(resource, profile.filter, k)));
}

/** A written document: members outside the profile keep the existing record's values. */
export function writeView(resource: CompiledResource, profile: AppliedProfile, doc: Record<string, unknown>, existing?: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(doc)) if (keeps(resource, profile.filter, k)) out[k] = v;
  for (const [k, v] of Object.entries(existing ?? {})) if (!keeps(resource, profile.filter, k)) out[k] = v;
  return out;
}
