import { test, expect, target } from '../_harness/data.js';
import type { DataClient } from '../_harness/fixtures.js';
import { unknownId } from '../_harness/checks.js';
import { check, checkNotApplicable, rule } from '../_harness/rules.js';
import { early } from '../_harness/in-parallel.js';
import { model } from '../_harness/judged-model.js';
import { jsonOf, problemTypeOf, type Answer } from '../_harness/every-route.js';
import type { CompiledResource } from '../../spec/model/compiled.js';
import type { ScalarField } from '../../spec/model/dsl.js';
import { numericBounds } from '../../spec/generate/json-schema.js';
import { inGroups } from '../_harness/groups.js';

/**
 * Every resource the model has is read with GET and written with POST, PUT and DELETE as JSON
 * (decision 43). Descriptors are written so in suites/descriptors/shape.spec.ts, with their shape.
 * School years are left out: they are shared keys a run must not change (decision 32).
 *
 * The record also carries, on every resource, the rules a deployment may have written per
 * resource (an upsert, an id check, a concurrency check in each controller), each in a check of
 * its own that states only its rule's words:
 * - read: the id its Location named, a string _etag and, when sent, a date-time
 *   _lastModifiedDate; If-None-Match equal to its _etag is 304 with no body, another value 200;
 * - POST: the same body again updates (200); a body carrying an id is refused (400
 *   data-validation-failed, with a detail and an errors entry);
 * - PUT: a PUT that changes the record (a member outside its key set or changed, with the
 *   builder's values) gives it another _etag; a body carrying another id updates the record the
 *   path names, which keeps its id; a PUT
 *   or a DELETE with an If-Match it does not match is 412 optimistic-lock-failed, the record kept;
 * - DELETE: once deleted it reads 404, and a second DELETE is 404.
 * The effects of each are checked in depth on one resource in upsert/, put/, etag/ and delete/.
 * Requests that do not depend on each other go together: nine round trips more per resource.
 */
const ID_ASSIGNED = 'data.upsert.id-server-assigned';
const ETAG_PRESENT = 'data.etag.etag-in-every-response';
const LAST_MODIFIED = 'data.etag.last-modified-date-timestamp';
const NOT_MODIFIED = 'data.etag.if-none-match-match-304';
const MODIFIED = 'data.etag.if-none-match-mismatch-200';
const EXISTING_KEY = 'data.upsert.existing-key-200-update';
const ID_IN_POST = 'data.upsert.id-in-post-body-400';
const ID_IN_PUT = 'data.put.id-in-body-ignored';
const STALE_IF_MATCH = 'data.etag.if-match-mismatch-put-412';
const STALE_IF_MATCH_DELETE = 'data.etag.if-match-mismatch-delete-412';
const DELETED = 'data.delete.existing-record-204';
const DELETE_UNKNOWN = 'data.delete.unknown-id-404';
const ETAG_CHANGES = 'data.etag.etag-changes-on-update';
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** The test's record: where it lives, the body it was written with, and how a write is sent ahead of its check. */
interface TestRecord {
  api: DataClient;
  resource: CompiledResource;
  name: string;
  endpoint: string;
  body: Record<string, unknown>;
  url: string;
  id: string;
  /** Sends a write now, judged later; it is answered before the test ends, whichever check fails. */
  ahead: <T>(write: Promise<T>) => Promise<T>;
}

/** The answer's problem body after checking its status and problem type (the rules' own words: nothing of title or shape). */
async function refused(res: Answer, status: number, suffix: string): Promise<{ detail?: unknown; errors?: unknown }> {
  const text = await res.text();
  expect(res.status(), text.slice(0, 300)).toBe(status);
  expect(problemTypeOf(text), text.slice(0, 300)).toBe(`${target.dataApi.errorTypePrefix}${suffix}`);
  return (jsonOf(text) ?? {}) as { detail?: unknown; errors?: unknown };
}

const idOf = async (res: { json(): Promise<unknown> }) => ((await res.json()) as { id?: unknown }).id;

/** What the first read shows, and what If-None-Match does with its _etag and with another value. */
async function readRules(t: TestRecord, read: { id?: unknown; _etag?: unknown; _lastModifiedDate?: unknown }): Promise<void> {
  await check(ID_ASSIGNED, `the ${t.name} reads with the string id its Location's last segment names`, () => expect(read.id, `GET ${t.url}`).toBe(t.id));
  await check(ETAG_PRESENT, `the ${t.name} reads with a string _etag`, () => expect(typeof read._etag, `_etag of GET ${t.url}: ${JSON.stringify(read._etag)}`).toBe('string'));
  if (read._lastModifiedDate !== undefined) {
    await check(LAST_MODIFIED, `the ${t.name}'s _lastModifiedDate is a date-time string`, () => expect(String(read._lastModifiedDate), `_lastModifiedDate of GET ${t.url}`).toMatch(DATE_TIME));
  }
  const same = early(t.api.get(t.url, { 'If-None-Match': String(read._etag) }));
  const other = early(t.api.get(t.url, { 'If-None-Match': `"${unknownId()}"` }));
  await check(NOT_MODIFIED, `GET of the ${t.name} with If-None-Match equal to its _etag answers 304 with no body`, async () => {
    const res = await same;
    expect(res.status(), `GET ${t.url} If-None-Match: ${String(read._etag)}`).toBe(304);
    expect(await res.text()).toBe('');
  });
  await check(MODIFIED, `GET of the ${t.name} with another If-None-Match answers 200 with it`, async () => {
    const res = await other;
    expect(res.status(), `GET ${t.url} with another If-None-Match`).toBe(200);
    expect(await idOf(res)).toBe(t.id);
  });
}

/** A POST of the existing key updates; a POST carrying an id is refused. A record made instead (201) is tracked by the api fixture and deleted after the test. */
async function postRules(t: TestRecord): Promise<void> {
  const again = t.ahead(t.api.post(t.endpoint, t.body));
  const withId = t.ahead(t.api.post(t.endpoint, { ...t.body, id: unknownId() }));
  await check(EXISTING_KEY, `a second POST of the same ${t.name} answers 200`, async () => {
    const res = await again;
    expect(res.status(), `POST ${t.endpoint} again: ${(await res.text()).slice(0, 300)}`).toBe(200);
  });
  await check(ID_IN_POST, `a POST of the ${t.name} carrying an id is refused with 400 data-validation-failed, a detail and an errors entry`, async () => {
    const problem = await refused(await withId, 400, 'bad-request:data-validation-failed');
    expect(typeof problem.detail, 'detail').toBe('string');
    expect(Array.isArray(problem.errors) && problem.errors.length > 0, `errors: ${JSON.stringify(problem.errors)}`).toBe(true);
  });
}

/**
 * A change to the body that any deployment of the standard accepts, with the values the builder
 * gives full bodies (held valid against upstream's shapes by builders-upstream.test.ts), on a
 * top-level member outside the natural key: an optional string set to `<name>-value`, a boolean
 * turned, a number moved by one within its bounds (or set to the builder's value), an optional
 * date set, or a written string's last letter changed. Undefined when the resource has none.
 */
function changeOf(r: CompiledResource, body: Record<string, unknown>): [string, unknown] | undefined {
  const top = (Object.entries(r.fields).filter(([, f]) => ['string', 'boolean', 'int32', 'double', 'date'].includes(f.kind)) as [string, ScalarField][])
    .filter(([name, f]) => !f.identity && !f.readOnly && !f.deprecated && name !== 'namespace');
  const text = top.find(([name, f]) => f.kind === 'string' && !f.required && body[name] === undefined);
  if (text) return [text[0], `${text[0]}-value`.slice(0, text[1].maxLength ?? 60).padEnd(text[1].minLength ?? 0, 'x')];
  const flag = top.find(([, f]) => f.kind === 'boolean');
  if (flag) return [flag[0], body[flag[0]] !== true];
  for (const [name, f] of top.filter(([, x]) => x.kind === 'int32' || x.kind === 'double')) {
    const { minimum = f.kind === 'int32' ? 1 : 0, maximum = f.kind === 'int32' ? 1_000_000 : 2.5 } = numericBounds(f);
    const now = body[name];
    if (typeof now !== 'number') return [name, Math.min(Math.max(f.kind === 'int32' ? 7 : 2.5, minimum), maximum)];
    if (now + 1 <= maximum || now - 1 >= minimum) return [name, now + 1 <= maximum ? now + 1 : now - 1];
  }
  const day = top.find(([name, f]) => f.kind === 'date' && !f.required && body[name] === undefined);
  if (day) return [day[0], /end|expiration/i.test(day[0]) ? '2025-06-06' : '2024-08-26'];
  // A required string outside the key, its last letter changed (its length, so its bounds, kept).
  const written = top.find(([name, f]) => f.kind === 'string' && typeof body[name] === 'string' && (body[name] as string).length > 0);
  if (!written) return undefined;
  const old = body[written[0]] as string;
  return [written[0], `${old.slice(0, -1)}${old.endsWith('q') ? 'z' : 'q'}`];
}

/** A PUT that changes the record gives it another _etag (read just before and just after). */
async function etagRule(t: TestRecord): Promise<void> {
  const title = `a PUT that changes the ${t.name} gives it another _etag`;
  const change = changeOf(t.resource, t.body);
  if (!change) return checkNotApplicable(ETAG_CHANGES, title, `${t.name} has no member outside its key this test can change`);
  await check(ETAG_CHANGES, title, async () => {
    const etag = async () => ((await (await t.api.get(t.url)).json()) as { _etag?: unknown })._etag;
    const before = await etag();
    const put = await t.api.put(t.url, { ...t.body, [change[0]]: change[1] });
    expect(put.status(), `PUT ${t.url} with ${change[0]} ${JSON.stringify(change[1])}: ${(await put.text()).slice(0, 300)}`).toBe(204);
    expect(await etag(), `_etag of ${t.url} after ${change[0]} changed (before: ${String(before)})`).not.toBe(before);
  });
}

/** A PUT carrying another id is the path's record's; a PUT, then a DELETE, with an If-Match it does not match is refused. */
async function putRules(t: TestRecord): Promise<void> {
  const withOtherId = t.ahead(t.api.put(t.url, { ...t.body, id: unknownId() }));
  const stale = t.ahead(t.api.put(t.url, t.body, { 'If-Match': `"${unknownId()}"` }));
  await check(ID_IN_PUT, `a PUT of the ${t.name} carrying another id updates the record its path names, which keeps its id`, async () => {
    const res = await withOtherId;
    expect(res.status(), `PUT ${t.url} with another id: ${(await res.text()).slice(0, 300)}`).toBe(204);
    const after = await t.api.get(t.url);
    expect(after.status(), `GET ${t.url} after it`).toBe(200);
    expect(await idOf(after), `GET ${t.url} after it`).toBe(t.id);
  });
  await check(STALE_IF_MATCH, `a PUT of the ${t.name} with an If-Match it does not match is refused with 412 optimistic-lock-failed`, async () => {
    await refused(await stale, 412, 'optimistic-lock-failed');
  });
  // Alone: a deployment that deleted here would fail the checks sent with it as well.
  await check(STALE_IF_MATCH_DELETE, `a DELETE of the ${t.name} with an If-Match it does not match is refused with 412 optimistic-lock-failed, the record kept`, async () => {
    await refused(await t.api.delete(t.url, { 'If-Match': `"${unknownId()}"` }), 412, 'optimistic-lock-failed');
    expect((await t.api.get(t.url)).status(), `GET ${t.url} after it`).toBe(200);
  });
}

/** Once deleted, the record reads 404, and a second DELETE of it is 404. */
async function deletedRules(t: TestRecord): Promise<void> {
  const read = early(t.api.get(t.url));
  const again = early(t.api.delete(t.url));
  await check(DELETED, `the deleted ${t.name} reads 404`, async () => expect((await read).status(), `GET ${t.url} after its DELETE`).toBe(404));
  await check(DELETE_UNKNOWN, `a second DELETE of the ${t.name} answers 404`, async () => expect((await again).status(), `DELETE ${t.url} again`).toBe(404));
}

test.describe('every resource as JSON', () => {
  inGroups(model.resources.filter((x) => !x.isDescriptor && !x.isSchoolYearEnumeration), (r) => {
    test(`serves ${r.endpoint} as JSON readable with GET, with its id and _etag, and writable with POST, PUT and DELETE; upserts by natural key, refuses an id on POST, ignores one on PUT, honours If-None-Match and If-Match, changes its _etag with it, and answers 404 once deleted`, rule('data.discovery.resources-as-json', ID_ASSIGNED, ETAG_PRESENT, LAST_MODIFIED, NOT_MODIFIED, MODIFIED, EXISTING_KEY, ID_IN_POST, ETAG_CHANGES, ID_IN_PUT, STALE_IF_MATCH, STALE_IF_MATCH_DELETE, DELETED, DELETE_UNKNOWN), async ({ api, data }) => {
      const body = await data.body(r.name, {}, { shared: true });
      const post = await api.post(r.endpoint, body);
      expect(post.status(), `POST ${r.endpoint}: ${(await post.text()).slice(0, 500)}`).toBe(201);
      const url = api.url(post.headers().location);
      const sent: Promise<unknown>[] = [];
      const t: TestRecord = { api, resource: r, name: r.name, endpoint: r.endpoint, body, url, id: url.split('/').pop()!, ahead: (write) => (sent.push(write), early(write)) };
      let gone = false;
      try {
        const get = await api.get(url);
        expect(get.status(), `GET ${url}`).toBe(200);
        expect(get.headers()['content-type'] ?? '', `GET ${url}`).toMatch(/^application\/json/i);
        await readRules(t, (await get.json()) as Parameters<typeof readRules>[1]);
        await postRules(t);
        expect((await api.put(url, body)).status(), `PUT ${url}`).toBe(204);
        await etagRule(t);
        await putRules(t);
        const status = (await api.delete(url)).status();
        gone = status === 204;
        expect(status, `DELETE ${url}`).toBe(204);
        await deletedRules(t);
      } finally {
        await Promise.allSettled(sent);
        if (!gone) api.track(url);
      }
    });
  });
});
