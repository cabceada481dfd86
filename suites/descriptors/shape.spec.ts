import { test, expect } from '../_harness/fixtures.js';
import { descriptorBody } from '../_harness/builders.js';
import type { DataClient } from '../_harness/fixtures.js';
import { extensionPrefix, extensionsOf, flatten, interfaceDescription, resolve, resourceSchema } from '../_harness/interface-description.js';
import { check, rule } from '../_harness/rules.js';
import { model } from '../_harness/judged-model.js';
import { inGroups } from '../_harness/groups.js';

/**
 * The shared shape of every descriptor resource the model has (seed: Descriptor resources; decision
 * 43): `id`, a server-assigned int32 `<name>DescriptorId` that is the natural key (K),
 * `codeValue`, `namespace`, `shortDescription` and `_etag`, plus `description`,
 * `effectiveBeginDate`, `effectiveEndDate` and `priorDescriptorId` when set.
 */
const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;
const descriptors = model.resources.filter((r) => r.isDescriptor);
const isInt32 = (v: unknown) => Number.isInteger(v) && (v as number) >= INT32_MIN && (v as number) <= INT32_MAX;

test.describe('the shared shape of every descriptor resource', () => {
  test('declares <name>DescriptorId of every descriptor as an int32 natural-key member in the interface description', rule('data.descriptors.shared-shape'), async ({ request }) => {
    const doc = await interfaceDescription(request);
    const flag = `${extensionPrefix()}isIdentity`;
    const wrong: string[] = [];
    for (const r of descriptors) {
      const member = `${r.name}Id`;
      const declared = flatten(doc, resourceSchema(doc, r.endpoint))?.properties?.[member];
      const p = resolve(doc, declared);
      if (!p) {
        wrong.push(`${r.endpoint}: no ${member} described`);
        continue;
      }
      // int32: an integer whose format, if given, is int32 and whose bounds, if given, fit int32.
      if (p.type !== 'integer') wrong.push(`${r.endpoint}.${member}: type ${String(p.type)}, not integer`);
      if (p.format !== undefined && p.format !== 'int32') wrong.push(`${r.endpoint}.${member}: format ${String(p.format)}, not int32`);
      if (typeof p.maximum === 'number' && p.maximum > INT32_MAX) wrong.push(`${r.endpoint}.${member}: maximum ${p.maximum} beyond int32`);
      if (typeof p.minimum === 'number' && p.minimum < INT32_MIN) wrong.push(`${r.endpoint}.${member}: minimum ${p.minimum} beyond int32`);
      if (extensionsOf(doc, declared)[flag] !== true) wrong.push(`${r.endpoint}.${member}: not flagged ${flag} (K)`);
    }
    expect(descriptors.length).toBeGreaterThan(0);
    expect(wrong, `${wrong.length} descriptor ids declared otherwise`).toEqual([]);
  });

  /** GET by id of a descriptor just written: the shared members, as written; returns its DescriptorId. */
  async function expectShape(api: DataClient, url: string, id: string, member: string, written: Record<string, unknown>): Promise<number> {
    const res = await api.get(url);
    expect(res.status(), `GET ${url}`).toBe(200);
    await check('data.discovery.resources-as-json', 'GET by id answers JSON', () => expect(res.headers()['content-type'] ?? '').toMatch(/^application\/json/i));
    const got = (await res.json()) as Record<string, unknown>;
    expect(got.id, 'id').toBe(id);
    expect(isInt32(got[member]), `${member} ${JSON.stringify(got[member])} is an int32`).toBe(true);
    expect(typeof got._etag === 'string' && got._etag.length > 0, '_etag').toBe(true);
    expect(got).toMatchObject(written);
    return got[member] as number;
  }

  inGroups(descriptors, (r) => {
    const bare = r.name.replace(/Descriptor$/, '');
    const member = `${r.name}Id`;
    test(`returns every ${r.name} with id, an int32 ${member}, its members as written and _etag, and is writable with POST, PUT and DELETE`, rule('data.descriptors.shared-shape', 'data.discovery.resources-as-json'), async ({ api }) => {
      // The nullable members on a first descriptor, priorDescriptorId (naming the first) on a second.
      const first = descriptorBody(bare, { description: `Conformance ${bare} description`, effectiveBeginDate: '2024-07-01', effectiveEndDate: '2025-06-30' });
      const a = await api.create(r.endpoint, first);
      const firstId = await expectShape(api, a.url, a.id, member, first);
      const second = descriptorBody(bare, { priorDescriptorId: firstId });
      const posted = await api.post(r.endpoint, second);
      expect(posted.status(), `POST ${r.endpoint}: ${await posted.text()}`).toBe(201);
      const url = api.url(posted.headers().location);
      let gone = false;
      try {
        const secondId = await expectShape(api, url, url.split('/').pop()!, member, second);
        expect(secondId, `a ${member} of its own`).not.toBe(firstId);
        await check('data.discovery.resources-as-json', 'PUT answers 204 and DELETE 204', async () => {
          expect((await api.put(url, { ...second, shortDescription: `Replaced ${bare}` })).status(), `PUT ${url}`).toBe(204);
          const status = (await api.delete(url)).status();
          gone = status === 204;
          expect(status, `DELETE ${url}`).toBe(204);
        });
      } finally {
        // Deleted by the test, or else afterwards (without a request for what is gone).
        if (!gone) api.track(url);
      }
    });
  });
});
