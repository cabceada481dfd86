import { test, expect, target } from '../_harness/data.js';
import { asResponse, raw, unknownId } from '../_harness/checks.js';
import { discoveryDocument, extensionPrefix, interfaceDescription } from '../_harness/interface-description.js';
import { expectProblem } from '../_harness/problem.js';
import { rule } from '../_harness/rules.js';

/** Where resources live and which methods they answer (seed: Endpoints). */
const base = target.dataApi.baseUrl;

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
