import { test, expect, target } from '../_harness/data.js';
import { model } from '../../spec/model/index.js';
import { discoveryDocument } from '../_harness/interface-description.js';
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

  test('lists every endpoint once in an order where each resource follows every resource and descriptor it references', rule('data.discovery.dependencies'), async ({ request }) => {
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
    const members = new Map(model.abstracts.map((a) => [a.name, a.members.map((m) => m.resource)]));
    const early: string[] = [];
    for (const r of model.resources) {
      for (const ref of r.references) {
        for (const t of members.get(ref.target) ?? [ref.target]) {
          if (t !== r.name && of(model.byName.get(t)!.endpoint)! >= of(r.endpoint)!) early.push(`${r.endpoint} (${of(r.endpoint)}) before ${t} at ${ref.path}`);
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
});
