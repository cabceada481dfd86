import { test, expect, target } from '../_harness/data.js';
import { asResponse, raw, unknownId } from '../_harness/checks.js';
import { discoveryDocument, extensionPrefix, interfaceDescription } from '../_harness/interface-description.js';
import { expectProblem } from '../_harness/problem.js';
import { check, rule } from '../_harness/rules.js';
import { early } from '../_harness/in-parallel.js';
import { model } from '../_harness/judged-model.js';

/** Where resources live and which methods they answer (seed: Endpoints). */
const base = target.dataApi.baseUrl;

/**
 * Every resource the model has is read with GET and written with POST, PUT and DELETE as JSON
 * (decision 43). Descriptors are written so in suites/descriptors/shape.spec.ts, with their shape.
 * School years are left out: they are shared keys a run must not change (decision 32).
 *
 * The record also carries, on every resource, the rules a deployment may have written per
 * resource (an upsert, an id check, a concurrency check in each controller), each in a check of
 * its own: the record reads with the id its Location named, a string _etag and, when sent, a
 * date-time _lastModifiedDate; a second POST of the same body updates (200); a POST carrying an id is refused (400
 * data-validation-failed, with a detail and an errors entry); a PUT carrying another id updates
 * the record the path names, which keeps its id; GET with If-None-Match equal to its _etag is
 * 304 with no body, and with another value 200; a PUT or a DELETE with an If-Match it does not match is 412
 * optimistic-lock-failed, the record kept; once deleted, it reads 404 and a second DELETE is 404.
 * The effects of each are checked in depth on one resource in upsert/, put/, etag/ and delete/.
 * Requests that do not depend on each other go together: six round trips more per resource.
 */
const EXISTING_KEY = 'data.upsert.existing-key-200-update';
const ID_IN_POST = 'data.upsert.id-in-post-body-400';
const ID_IN_PUT = 'data.put.id-in-body-ignored';
const NOT_MODIFIED = 'data.etag.if-none-match-match-304';
const STALE_IF_MATCH = 'data.etag.if-match-mismatch-put-412';
const STALE_IF_MATCH_DELETE = 'data.etag.if-match-mismatch-delete-412';
const DELETED = 'data.delete.existing-record-204';
const DELETE_UNKNOWN = 'data.delete.unknown-id-404';
const ID_ASSIGNED = 'data.upsert.id-server-assigned';
const ETAG_PRESENT = 'data.etag.etag-in-every-response';
const LAST_MODIFIED = 'data.etag.last-modified-date-timestamp';
const MODIFIED = 'data.etag.if-none-match-mismatch-200';
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** The answer's problem body after checking its status and problem type (the rules' own words: nothing of title or shape). */
async function refused(res: { status(): number; text(): Promise<string> }, status: number, suffix: string): Promise<{ detail?: unknown; errors?: unknown }> {
  const text = await res.text();
  expect(res.status(), text.slice(0, 300)).toBe(status);
  let body: { type?: unknown; detail?: unknown; errors?: unknown } = {};
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    // Not JSON: the type check below names what came.
  }
  expect(body.type, text.slice(0, 300)).toBe(`${target.dataApi.errorTypePrefix}${suffix}`);
  return body;
}

test.describe('every resource as JSON', () => {
  for (const r of model.resources.filter((x) => !x.isDescriptor && !x.isSchoolYearEnumeration)) {
    test(`serves ${r.endpoint} as JSON readable with GET, with its id and _etag, and writable with POST, PUT and DELETE; upserts by natural key, refuses an id on POST, ignores one on PUT, honours If-None-Match and If-Match, and answers 404 once deleted`, rule('data.discovery.resources-as-json', ID_ASSIGNED, ETAG_PRESENT, LAST_MODIFIED, NOT_MODIFIED, MODIFIED, EXISTING_KEY, ID_IN_POST, ID_IN_PUT, STALE_IF_MATCH, STALE_IF_MATCH_DELETE, DELETED, DELETE_UNKNOWN), async ({ api, data }) => {
      const body = await data.body(r.name);
      const post = await api.post(r.endpoint, body);
      expect(post.status(), `POST ${r.endpoint}: ${(await post.text()).slice(0, 500)}`).toBe(201);
      const url = api.url(post.headers().location);
      const id = url.split('/').pop();
      let gone = false;
      // Writes sent ahead of their checks: answered before the test ends, whichever check fails.
      const sent: Promise<unknown>[] = [];
      const ahead = <T>(write: Promise<T>) => (sent.push(write), early(write));
      try {
        const get = await api.get(url);
        expect(get.status(), `GET ${url}`).toBe(200);
        expect(get.headers()['content-type'] ?? '', `GET ${url}`).toMatch(/^application\/json/i);
        const read = (await get.json()) as { id?: unknown; _etag?: unknown; _lastModifiedDate?: unknown };
        await check(ID_ASSIGNED, `the ${r.name} reads with the string id its Location's last segment names`, () => expect(read.id, `GET ${url}`).toBe(id));
        await check(ETAG_PRESENT, `the ${r.name} reads with a string _etag`, () => expect(typeof read._etag, `_etag of GET ${url}: ${JSON.stringify(read._etag)}`).toBe('string'));
        if (read._lastModifiedDate !== undefined) {
          await check(LAST_MODIFIED, `the ${r.name}'s _lastModifiedDate is a date-time string`, () => expect(String(read._lastModifiedDate), `_lastModifiedDate of GET ${url}`).toMatch(DATE_TIME));
        }
        const same = early(api.get(url, { 'If-None-Match': String(read._etag) }));
        const other = early(api.get(url, { 'If-None-Match': `"${unknownId()}"` }));
        await check(NOT_MODIFIED, `GET of the ${r.name} with If-None-Match equal to its _etag answers 304 with no body`, async () => {
          const res = await same;
          expect(res.status(), `GET ${url} If-None-Match: ${String(read._etag)}`).toBe(304);
          expect(await res.text()).toBe('');
        });
        await check(MODIFIED, `GET of the ${r.name} with another If-None-Match answers 200 with it`, async () => {
          const res = await other;
          expect(res.status(), `GET ${url} with another If-None-Match`).toBe(200);
          expect(((await res.json()) as { id?: unknown }).id).toBe(id);
        });
        // A record made instead of either answer (201) is tracked by the api fixture and deleted after the test.
        const again = ahead(api.post(r.endpoint, body));
        const withId = ahead(api.post(r.endpoint, { ...body, id: unknownId() }));
        await check(EXISTING_KEY, `a second POST of the same ${r.name} answers 200`, async () => {
          const res = await again;
          expect(res.status(), `POST ${r.endpoint} again: ${(await res.text()).slice(0, 300)}`).toBe(200);
        });
        await check(ID_IN_POST, `a POST of the ${r.name} carrying an id is refused with 400 data-validation-failed, a detail and an errors entry`, async () => {
          const problem = await refused(await withId, 400, 'bad-request:data-validation-failed');
          expect(typeof problem.detail, 'detail').toBe('string');
          expect(Array.isArray(problem.errors) && problem.errors.length > 0, `errors: ${JSON.stringify(problem.errors)}`).toBe(true);
        });
        expect((await api.put(url, body)).status(), `PUT ${url}`).toBe(204);
        const withOtherId = ahead(api.put(url, { ...body, id: unknownId() }));
        const stale = ahead(api.put(url, body, { 'If-Match': `"${unknownId()}"` }));
        await check(ID_IN_PUT, `a PUT of the ${r.name} carrying another id updates the record its path names, which keeps its id`, async () => {
          const res = await withOtherId;
          expect(res.status(), `PUT ${url} with another id: ${(await res.text()).slice(0, 300)}`).toBe(204);
          const after = await api.get(url);
          expect(after.status(), `GET ${url} after it`).toBe(200);
          expect(((await after.json()) as { id?: unknown }).id, `GET ${url} after it`).toBe(id);
        });
        await check(STALE_IF_MATCH, `a PUT of the ${r.name} with an If-Match it does not match is refused with 412 optimistic-lock-failed`, async () => {
          await refused(await stale, 412, 'optimistic-lock-failed');
        });
        // Alone: a deployment that deleted here would fail the checks sent with it as well.
        await check(STALE_IF_MATCH_DELETE, `a DELETE of the ${r.name} with an If-Match it does not match is refused with 412 optimistic-lock-failed, the record kept`, async () => {
          await refused(await api.delete(url, { 'If-Match': `"${unknownId()}"` }), 412, 'optimistic-lock-failed');
          expect((await api.get(url)).status(), `GET ${url} after it`).toBe(200);
        });
        const status = (await api.delete(url)).status();
        gone = status === 204;
        expect(status, `DELETE ${url}`).toBe(204);
        const read404 = early(api.get(url));
        const deleteAgain = early(api.delete(url));
        await check(DELETED, `the deleted ${r.name} reads 404`, async () => expect((await read404).status(), `GET ${url} after its DELETE`).toBe(404));
        await check(DELETE_UNKNOWN, `a second DELETE of the ${r.name} answers 404`, async () => expect((await deleteAgain).status(), `DELETE ${url} again`).toBe(404));
      } finally {
        await Promise.allSettled(sent);
        if (!gone) api.track(url);
      }
    });
  }
});

test.describe('resource paths', () => {
  test('serves the data API under {base_url}/data/v3, {base_url} being origin, release segment and /api', rule('data.discovery.data-root-path'), async ({ api }) => {
    expect(new URL(base).pathname).toMatch(/\/[^/]+\/api$/);
    const res = await api.get(`${base}/data/v3/${target.dataApi.namespaceSegment}/academicWeeks?limit=1`);
    expect(res.status()).toBe(200);
    expect(Array.isArray(await res.json())).toBe(true);
  });

  test('serves core-model resources under the namespace segment core', rule('data.discovery.namespace-segment-core'), async ({ api }) => {
    for (const endpoint of ['academicWeeks', 'schools', 'academicSubjectDescriptors']) {
      expect((await api.get(`${base}/data/v3/${target.dataApi.namespaceSegment}/${endpoint}?limit=1`)).status(), endpoint).toBe(200);
    }
  });

  test('uses plural resource names in collection paths', rule('data.discovery.plural-resource-paths'), async ({ api }) => {
    for (const endpoint of ['academicWeeks', 'accountabilityRatings', 'assessments']) expect((await api.get(`${endpoint}?limit=1`)).status(), endpoint).toBe(200);
  });

  test('matches resource path segments case-insensitively', rule('data.discovery.path-segments-case-insensitive'), async ({ api, data }) => {
    const created = await data.create('academicWeek');
    expect((await api.get('AcademicWeeks?limit=1')).status()).toBe(200);
    expect((await api.get(`ACADEMICWEEKS/${created.id}`)).status()).toBe(200);
    expect((await api.get('Students?limit=1')).status()).toBe(200);
  });

  test('answers 404 not-found for an unknown resource path', rule('data.discovery.unknown-resource-404'), async ({ api }) => {
    const res = await api.get('notAResource');
    expect(res.status()).toBe(404);
    if ((await res.text()).trim()) await expectProblem(res, 'not-found');
  });
});

test.describe('methods', () => {
  test('answers PUT on a collection path with 405 method-not-allowed', rule('data.discovery.unsupported-method-405'), async ({ api }) => {
    await expectProblem(await api.put('academicWeeks', {}), 'method-not-allowed');
  });

  test('answers DELETE on a collection path with 405 method-not-allowed', rule('data.discovery.unsupported-method-405'), async ({ api }) => {
    await expectProblem(await api.delete('academicWeeks'), 'method-not-allowed');
  });

  test('answers POST on an item path with 405 method-not-allowed', rule('data.discovery.unsupported-method-405'), async ({ api, data }) => {
    const created = await data.create('academicWeek');
    await expectProblem(await api.post(created.url, created.body), 'method-not-allowed');
  });

  test('answers POST on /deletes with 405 method-not-allowed', rule('data.discovery.unsupported-method-405'), async ({ api }) => {
    await expectProblem(await api.post('academicWeeks/deletes', {}), 'method-not-allowed');
  });

  for (const method of ['HEAD', 'OPTIONS', 'PATCH']) {
    test(`answers ${method} on a data path with 405, not a framework default`, rule('data.discovery.head-options-patch-405'), async ({ api, data }) => {
      const created = await data.create('academicWeek');
      expect((await raw(method, api.url('academicWeeks'), api.headers())).status(), `${method} collection`).toBe(405);
      expect((await raw(method, created.url, api.headers())).status(), `${method} item`).toBe(405);
    });
  }

  test('sends an Allow header listing the supported methods with a 405', rule('data.discovery.405-allow-header'), async ({ api }) => {
    const res = await api.put('academicWeeks', {});
    expect(res.status()).toBe(405);
    const allow = (res.headers().allow ?? '').split(',').map((m) => m.trim().toUpperCase()).sort();
    expect(allow).toEqual(['GET', 'POST']);
    const item = await raw('PATCH', api.url(`academicWeeks/${unknownId()}`), api.headers());
    expect((item.headers().allow ?? '').split(',').map((m) => m.trim().toUpperCase()).sort()).toEqual(['DELETE', 'GET', 'PUT']);
  });

  test('answers PATCH on an item path with a method-not-allowed problem', rule('data.discovery.head-options-patch-405'), async ({ api }) => {
    await expectProblem(asResponse(await raw('PATCH', api.url(`academicWeeks/${unknownId()}`), api.headers({ 'Content-Type': 'application/json' }), '{}')), 'method-not-allowed');
  });
});

test.describe('discovery', () => {
  test('answers GET {base_url}/ without authentication with version, dataModels and absolute urls', rule('data.discovery.root-document'), async ({ request }) => {
    const doc = await discoveryDocument(request);
    expect(typeof doc.version).toBe('string');
    expect(Array.isArray(doc.dataModels)).toBe(true);
    for (const key of ['dataManagementApi', 'oauth', 'openApiMetadata']) expect(doc.urls?.[key], key).toMatch(/^https?:\/\//);
  });

  test('leads from urls.openApiMetadata to the OpenAPI description of the data resources with x-Core extensions', rule('data.discovery.openapi-document'), async ({ request }) => {
    const doc = await interfaceDescription(request, { discovered: true });
    expect(doc.openapi ?? doc.swagger).toBeTruthy();
    expect(Object.keys(doc.paths).some((p) => p.toLowerCase().endsWith(`/${target.dataApi.namespaceSegment}/academicweeks`))).toBe(true);
    expect(JSON.stringify(doc.components?.schemas ?? {})).toContain(`"${extensionPrefix()}isIdentity"`);
  });
});
