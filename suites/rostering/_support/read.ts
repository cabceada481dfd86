import type { HttpClient, HttpResponse } from '../../_harness/http.js';
import { expect } from '../../_harness/expect.js';

/**
 * Reading the rostering service as the seed allows. It shows no fields and no payloads ("Fields of
 * the rostering resources: not shown"), so a MUST test takes a collection response as a JSON array
 * of records, or a JSON object holding one array of records whatever its key, and finds a record
 * by a value the test wrote, wherever the record holds it. The envelope keys (decision 24) and the
 * upstream mapping (rostering.md §10) are SHOULD rules, checked by tests of their own.
 */
export type Rec = Record<string, unknown>;

const isRecord = (v: unknown): v is Rec => !!v && typeof v === 'object' && !Array.isArray(v);

/** The records of a collection body: the array itself, or the one array member of an object. */
export function recordsIn(body: unknown): Rec[] | undefined {
  if (Array.isArray(body)) return body.every(isRecord) ? body : undefined;
  if (!isRecord(body)) return undefined;
  const arrays = Object.values(body).filter(Array.isArray);
  return arrays.length === 1 && arrays[0].every(isRecord) ? (arrays[0] as Rec[]) : undefined;
}

/** The JSON value of a text, or undefined when it is not JSON. */
export const parseJson = (text: string): unknown => { try { return JSON.parse(text); } catch { return undefined; } };

/** The records of a 200 collection response (both asserted, for the calling test's primary rule). */
export async function recordsOf(res: HttpResponse): Promise<Rec[]> {
  const text = await res.text();
  expect(res.status(), `GET ${res.url()}: ${text.slice(0, 300)}`).toBe(200);
  const records = recordsIn(parseJson(text));
  expect(records, `GET ${res.url()} answers a collection: a JSON array of records, or an object holding one (${text.slice(0, 200)})`).toBeDefined();
  return records!;
}

/** GET a collection URL with a token: its records. No query parameters: the seed shows none. */
export const readCollection = async (request: HttpClient, url: string, token: string): Promise<Rec[]> =>
  recordsOf(await request.get(url, { headers: { Authorization: `Bearer ${token}` } }));

/**
 * The scalar values a record holds as its own, at any depth (`userIds[].identifier` included),
 * but not inside a reference to another record (a nested object with a sourcedId): a school's
 * record names its district only by reference, so it never holds the district's values.
 */
export function ownValues(value: unknown, root = true): string[] {
  if (Array.isArray(value)) return value.flatMap((v) => ownValues(v, false));
  if (isRecord(value)) return root || !('sourcedId' in value) ? Object.values(value).flatMap((v) => ownValues(v, false)) : [];
  return value === null || value === undefined ? [] : [String(value)];
}

/** Every scalar anywhere in a value, references included (where a record's sourcedId shows). */
export function allValues(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(allValues);
  if (isRecord(value)) return Object.values(value).flatMap(allValues);
  return value === null || value === undefined ? [] : [String(value)];
}

/** The first of the marks a record holds as its own, if any. */
export const heldMark = (record: Rec, marks: Iterable<string>): string | undefined => {
  const own = new Set(ownValues(record));
  for (const m of marks) if (own.has(m)) return m;
  return undefined;
};

/** The record of a single read: the one member of an envelope when it is an object, else the body. */
export function recordIn(body: unknown): Rec | undefined {
  if (!isRecord(body)) return undefined;
  const members = Object.values(body);
  return members.length === 1 && isRecord(members[0]) ? members[0] : body;
}

/** How a record is told apart from others: its sourcedId, else its whole content. */
export const identity = (r: Rec): string => (typeof r.sourcedId === 'string' ? r.sourcedId : JSON.stringify(r));

/** Whether a body holds no record: null, empty, or an object whose members are all null or empty. */
export function holdsNoRecord(body: unknown): boolean {
  const empty = (v: unknown) => v === null || v === undefined || (Array.isArray(v) && !v.length) || (isRecord(v) && !Object.keys(v).length);
  return empty(body) || (isRecord(body) && Object.values(body).every(empty));
}

/**
 * A read that must not give these records: refused (any status from 400 up), or answered without
 * any of them (none of their identities anywhere in the body).
 */
export async function expectWithheld(res: HttpResponse, records: Rec[], what: string): Promise<void> {
  if (res.status() >= 400) return;
  const text = await res.text();
  const shown = records.map(identity).filter((id) => text.includes(id));
  expect(shown, `${what}: answered ${res.status()} with records it must not give`).toEqual([]);
}
