import { test, expect, target } from '../_harness/data.js';
import { model } from '../_harness/judged-model.js';
import { discoveryDocument, extensionPrefix, type OpenApiDocument, type Schema } from '../_harness/interface-description.js';
import { rule } from '../_harness/rules.js';

/**
 * What a real client reads before any data (decisions #29, upstream 7.3): the discovery
 * document, whose every URL answers; health; the metadata root with or without its slash; the
 * dependency order a bulk loader writes in.
 */
const base = target.dataApi.baseUrl;
const ns = target.dataApi.namespaceSegment;

test.describe('the client surface', () => {
  test('every URL of the discovery document answers, and it names the build and the token introspection', rule('data.discovery.urls-answer'), async ({ request, api }) => {
    const doc = await discoveryDocument(request) as { build?: string; urls?: Record<string, string> };
    expect(typeof doc.build, 'build').toBe('string');
    const urls = doc.urls ?? {};
    for (const key of ['dependencies', 'openApiMetadata', 'oauth', 'oauthTokenIntrospection', 'dataManagementApi']) expect(urls[key], key).toMatch(/^https?:\/\//);
    const failed: string[] = [];
    for (const [key, url] of Object.entries(urls)) {
      // The token endpoints take POST; everything else is read with the client's token.
      const res = /^oauth/.test(key) ? await request.post(url, { form: { grant_type: 'client_credentials' } }) : await api.get(url);
      if (res.status() === 404 || res.status() >= 500) failed.push(`${key} ${url} → ${res.status()}`);
    }
    expect(failed).toEqual([]);
  });

  test('answers GET {base_url}/health with 200 without a token', rule('data.discovery.health'), async ({ request }) => {
    expect((await request.get(`${base}/health`)).status()).toBe(200);
  });

  test('serves the metadata root with and without its trailing slash, alike', rule('data.discovery.metadata-root'), async ({ request }) => {
    const slash = await request.get(`${base}/metadata/`);
    const bare = await request.get(`${base}/metadata`);
    expect(slash.status()).toBe(200);
    expect(bare.status()).toBe(200);
    const sections = (await slash.json()) as { name: string; endpointUri: string; prefix: string }[];
    expect(sections.length).toBeGreaterThan(0);
    for (const s of sections) expect(Object.keys(s).sort()).toEqual(['endpointUri', 'name', 'prefix']);
    expect(await bare.json()).toEqual(sections);
  });

  // References may form a cycle (6.1: credential → studentAcademicRecord → reportCard → … →
  // staff → credential, through optional references): no order puts every member of one after
  // the others, so a reference between two resources of one cycle asks no order.
  const members = new Map(model.abstracts.map((a) => [a.name, a.members.map((m) => m.resource)]));
  const targets = (name: string) => [...new Set(model.byName.get(name)!.references.flatMap((ref) => members.get(ref.target) ?? [ref.target]))].filter((t) => t !== name);
  const reaches = (from: string, to: string) => {
    const seen = new Set([from]);
    const next = [from];
    while (next.length) for (const t of targets(next.pop()!)) if (t === to) return true; else if (!seen.has(t)) { seen.add(t); next.push(t); }
    return false;
  };
  const cycles = model.resources.some((r) => targets(r.name).some((t) => reaches(t, r.name)));
  test(`lists every endpoint once in an order where each resource follows every resource and descriptor it references${cycles ? ' outside a cycle of references' : ''}`, rule('data.discovery.dependencies'), async ({ request }) => {
    const res = await request.get(`${base}/metadata/data/v3/dependencies`);
    expect(res.status()).toBe(200);
    const entries = (await res.json()) as { resource: string; order: number; operations: string[] }[];
    const order = new Map<string, number>();
    for (const e of entries) {
      expect(order.has(e.resource), `${e.resource} listed once`).toBe(false);
      expect(Number.isInteger(e.order) && e.order >= 1, `${e.resource} order`).toBe(true);
      expect(e.operations, e.resource).toContain('Create');
      order.set(e.resource.toLowerCase(), e.order);
    }
    const of = (endpoint: string) => order.get(`/${ns}/${endpoint}`.toLowerCase());
    const missing = model.resources.filter((r) => of(r.endpoint) === undefined).map((r) => r.endpoint);
    expect(missing).toEqual([]);
    const early: string[] = [];
    for (const r of model.resources) {
      for (const ref of r.references) {
        for (const t of members.get(ref.target) ?? [ref.target]) {
          if (t !== r.name && of(model.byName.get(t)!.endpoint)! >= of(r.endpoint)! && !(cycles && reaches(t, r.name))) early.push(`${r.endpoint} (${of(r.endpoint)}) before ${t} at ${ref.path}`);
        }
      }
    }
    for (const r of model.resources) {
      for (const d of r.descriptors) {
        const descriptor = model.byName.get(`${d.descriptor}Descriptor`)!;
        if (of(descriptor.endpoint)! >= of(r.endpoint)!) early.push(`${r.endpoint} (${of(r.endpoint)}) before ${descriptor.endpoint} at ${d.path}`);
      }
    }
    expect(early).toEqual([]);
  });

  test('lays the interface descriptions out as upstream: Resources and Descriptors sections under the data root, named schemas by plain $ref', rule('data.discovery.interface-description-layout'), async ({ request }) => {
    const sections = (await (await request.get(`${base}/metadata/`)).json()) as { name: string; endpointUri: string }[];
    const names = sections.map((s) => s.name);
    expect(names).toEqual(expect.arrayContaining(['Resources', 'Descriptors']));
    const docs = new Map<string, OpenApiDocument & { servers?: { url: string }[] }>();
    for (const s of sections.filter((x) => ['Resources', 'Descriptors'].includes(x.name))) {
      const res = await request.get(s.endpointUri);
      expect(res.status(), s.endpointUri).toBe(200);
      docs.set(s.name, (await res.json()) as OpenApiDocument);
    }
    for (const [name, doc] of docs) {
      expect(doc.servers?.[0]?.url, `${name} server`).toMatch(/\/data\/v3\/?$/);
      const paths = Object.keys(doc.paths);
      expect(paths.length, name).toBeGreaterThan(0);
      expect(paths.filter((p) => !p.toLowerCase().startsWith(`/${ns}/`)), `${name}: paths outside /${ns}/`).toEqual([]);
    }
    expect(Object.keys(docs.get('Descriptors')!.paths).every((p) => /descriptors(\/|$)/i.test(p)), 'the Descriptors section holds descriptors only').toBe(true);
    const resources = docs.get('Resources')!;
    const schemas = resources.components?.schemas ?? {};
    expect(JSON.stringify(resources)).not.toContain('"allOf"');
    const post = resources.paths[Object.keys(resources.paths).find((p) => p.toLowerCase() === `/${ns}/schools`)!]?.post as { requestBody?: { content?: Record<string, { schema?: Schema }> } } | undefined;
    const school = schemas[String(Object.values(post?.requestBody?.content ?? {})[0]?.schema?.$ref).split('/').pop()!];
    expect(school, 'the school schema is named').toBeDefined();
    const lea = school!.properties?.localEducationAgencyReference;
    expect(Object.keys(lea ?? {}), 'a reference is a plain $ref').toEqual(['$ref']);
    const leaSchema = schemas[String(lea!.$ref).split('/').pop()!];
    expect(leaSchema?.properties?.localEducationAgencyId?.[`${extensionPrefix()}isIdentity`], 'reference fields are flagged as identity').toBe(true);
    const categories = school!.properties?.educationOrganizationCategories;
    expect(Object.keys((categories?.items as Schema | undefined) ?? {}), 'a collection item is a plain $ref').toEqual(['$ref']);
    expect(schemas[String((categories!.items as Schema).$ref).split('/').pop()!], 'the item schema is named').toBeDefined();
  });
});
