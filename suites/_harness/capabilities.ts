import type { HttpClient, HttpResponse } from './http.js';
import { readFileSync } from 'node:fs';
import { test } from '@playwright/test';
import { expect } from './expect.js';
import type { Capabilities } from '../targets/types.js';
import { credentials, target } from './target.js';
import { sharedTokens } from './tokens.js';
import { LACKING_ANNOTATION, NEEDS_ANNOTATION } from './reporter/verdict.js';

/**
 * Applicability: a test that needs something the target does not declare (a capability, a
 * client role) is reported *not applicable* — an annotation the conformance reporter reads —
 * and skipped, never failed.
 */
export function notApplicable(description: string): never {
  test.info().annotations.push({ type: 'not-applicable', description });
  test.skip(true, `not applicable: ${description}`);
  throw new Error('unreachable: test.skip() throws');
}

/**
 * The one gate on what the target file declares: `declarations` are paths in the target file
 * (`capabilities.snapshotAdmin`, `clients.schoolLimited`, `rostering.flows.tenant`), several when
 * any of them will do. The test records them as needed whether they are met or not, so the
 * report (and `npm run capabilities`, which lists what a target lacks before it runs) knows every
 * declaration each rule's tests rely on; when none is met the test is not applicable (`needs
 * <path>[ or <path>] in the target file[: <detail>]`), and the console's closing list counts it
 * under what it lacked.
 */
export function needs(declarations: string | string[], met: unknown, detail?: string): asserts met {
  const named = (Array.isArray(declarations) ? declarations : [declarations]).join(' or ');
  // Support code reaches here outside any test too (unit tests of the rostering helpers): a met
  // need is then nothing to record, and a lacking one still ends in notApplicable's own error.
  const annotations = met && !running() ? undefined : test.info().annotations;
  if (!annotations) return;
  if (!annotations.some((a) => a.type === NEEDS_ANNOTATION && a.description === named)) annotations.push({ type: NEEDS_ANNOTATION, description: named });
  if (met) return;
  annotations.push({ type: LACKING_ANNOTATION, description: named });
  notApplicable(`needs ${named} in the target file${detail ? `: ${detail}` : ''}`);
}

/** Whether a Playwright test is running (test.info() throws outside one, and says nothing else). */
function running(): boolean {
  try {
    test.info();
    return true;
  } catch {
    return false;
  }
}

/** The named capability of the target, or not applicable. */
export function capability<K extends keyof Capabilities>(name: K): NonNullable<Capabilities[K]> {
  const cap = target.capabilities?.[name];
  needs(`capabilities.${name}`, cap !== undefined && cap !== null);
  return cap as NonNullable<Capabilities[K]>;
}

/** The token of the named client role, or not applicable. */
export function clientToken(role: string): string {
  const token = sharedTokens()[role];
  needs(`clients.${role}`, token);
  return token;
}

/** A capability URL: absolute, or relative to `{base_url}/`. */
export function capabilityUrl(url: string): string {
  return /^https?:/i.test(url) ? url : `${target.dataApi.baseUrl}/${url.replace(/^\//, '')}`;
}

export const basic = (c: { key?: string; secret?: string; keyEnv?: string; secretEnv?: string }): Record<string, string> => {
  const creds = credentials(c);
  return creds ? { Authorization: `Basic ${Buffer.from(`${creds.key}:${creds.secret}`).toString('base64')}` } : {};
};

/** Takes a snapshot through the target's snapshot hook (not applicable without one). */
export async function takeSnapshot(request: HttpClient): Promise<void> {
  const hook = capability('snapshotAdmin');
  const res = await request.post(capabilityUrl(hook.url), { headers: basic(hook) });
  expect(res.status(), `snapshot hook POST: ${await res.text()}`).toBeGreaterThanOrEqual(200);
  expect(res.status()).toBeLessThan(300);
}

/** Drops the snapshot through the target's snapshot hook; answers whether that worked. */
export async function dropSnapshot(request: HttpClient): Promise<HttpResponse> {
  const hook = capability('snapshotAdmin');
  return request.delete(capabilityUrl(hook.url), { headers: basic(hook) });
}

/** The issuer's private key (PEM) from the issuerSigningKey capability, or not applicable. */
export function issuerPrivateKeyPem(): string {
  const cap = capability('issuerSigningKey');
  const pem = cap.pemEnv ? process.env[cap.pemEnv] : cap.pemFile ? readFileSync(cap.pemFile, 'utf8') : undefined;
  if (!pem) notApplicable('capability issuerSigningKey names no readable key');
  return pem;
}

/** A profile media type: `application/vnd.<vendor>.<resource>.<profile>.readable+json` (or writable). */
export function profileMediaType(resource: string, profile: string, kind: 'readable' | 'writable'): string {
  return `application/vnd.${target.dataApi.mediaTypeVendor}.${resource.toLowerCase()}.${profile.toLowerCase()}.${kind}+json`;
}
