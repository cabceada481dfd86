import type { HttpResponse } from '../../_harness/http.js';
import { expect } from '../../_harness/fixtures.js';
import type { DataClient } from '../../_harness/fixtures.js';
import { expectProblem } from '../../_harness/problem.js';

/**
 * The seed's 401 causes (Errors: "`errors` entry: Authorization header missing; unknown scheme
 * (not Bearer); blank bearer token; expired or invalid token") and the data routes they are
 * sent to. Decision 35: each cause gives exactly one `errors` entry, and the entries of the four
 * causes differ from each other; which words they use is upstream's business (SHOULD).
 */
export const RESOURCE = 'academicSubjectDescriptors';

export interface Cause {
  name: string;
  rule: string;
  /** The Authorization header that brings the cause about (none for a missing header). */
  headers: Record<string, string>;
}

export const MISSING: Cause = { name: 'a missing Authorization header', rule: 'data.authentication.missing-authorization-401', headers: {} };
export const UNKNOWN_SCHEME: Cause = { name: 'an Authorization scheme other than Bearer', rule: 'data.authentication.non-bearer-scheme-401', headers: { Authorization: 'Basic YTpi' } };
export const BLANK: Cause = { name: 'a blank bearer token', rule: 'data.authentication.blank-bearer-token-401', headers: { Authorization: 'Bearer ' } };
export const INVALID: Cause = { name: 'a token the issuer never issued', rule: 'data.authentication.invalid-token-401', headers: { Authorization: 'Bearer not-a-real-token-0123456789' } };
export const CAUSES = [MISSING, UNKNOWN_SCHEME, BLANK, INVALID];

export interface Route {
  name: string;
  send: (headers: Record<string, string>) => Promise<HttpResponse>;
}

/**
 * Every method on the collection, an item and both feeds. The item id is in the id format and
 * names no record: authentication comes before anything else (decision 11).
 */
export function routes(anon: DataClient): Route[] {
  const item = `${RESOURCE}/${'0'.repeat(24)}${Date.now().toString(16).padStart(8, '0').slice(-8)}`;
  const body = { codeValue: 'x', shortDescription: 'x', namespace: 'uri://x.test/AcademicSubjectDescriptor' };
  return [
    { name: `GET ${RESOURCE}`, send: (h) => anon.get(`${RESOURCE}?limit=1`, h) },
    { name: `POST ${RESOURCE}`, send: (h) => anon.post(RESOURCE, body, h) },
    { name: `GET ${item}`, send: (h) => anon.get(item, h) },
    { name: `PUT ${item}`, send: (h) => anon.put(item, body, h) },
    { name: `DELETE ${item}`, send: (h) => anon.delete(item, h) },
    { name: `GET ${RESOURCE}/deletes`, send: (h) => anon.get(`${RESOURCE}/deletes`, h) },
    { name: `GET ${RESOURCE}/keyChanges`, send: (h) => anon.get(`${RESOURCE}/keyChanges`, h) },
  ];
}

/** A 401 `security:authentication` problem with exactly one `errors` entry; returns the entry. */
export async function soleEntry(res: HttpResponse, where: string): Promise<string> {
  const body = await expectProblem(res, 'security:authentication');
  expect(body.errors, `${where}: the errors of the 401`).toHaveLength(1);
  expect(typeof body.errors![0], `${where}: the errors entry`).toBe('string');
  return body.errors![0];
}

/**
 * The same content in other spelling is the same entry: letter case, spacing and punctuation do
 * not tell two causes apart.
 */
export const normalized = (entry: string) => entry.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();

/**
 * The entries the other causes get on this route, where they get exactly one (whether they do is
 * their own rules' business, not this test's).
 */
export async function entriesOfOthers(route: Route, others: Cause[]): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  for (const cause of others) {
    const res = await route.send(cause.headers);
    const errors = res.status() === 401 ? ((await res.json().catch(() => ({}))) as { errors?: unknown }).errors : undefined;
    if (Array.isArray(errors) && errors.length === 1 && typeof errors[0] === 'string') found.set(cause.name, errors[0]);
  }
  return found;
}

/**
 * Asserts that on `route` the request with `headers` gives 401 with one entry of its own: not
 * the entry (normalized) that any of `others` gets on the same route.
 */
export async function expectOwnEntry(route: Route, headers: Record<string, string>, causeName: string, others: Cause[]): Promise<string> {
  const own = await soleEntry(await route.send(headers), `${route.name} with ${causeName}`);
  for (const [other, entry] of await entriesOfOthers(route, others)) {
    expect(normalized(own), `${route.name}: the entry for ${causeName} ('${own}') is the entry for ${other} ('${entry}'); it must name its own cause`).not.toBe(normalized(entry));
  }
  return own;
}
