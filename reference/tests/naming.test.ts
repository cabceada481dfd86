import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startForTest } from './helpers.js';

/**
 * What an upstream-named deployment shows a client beyond what the conformance suites check
 * (they run against this profile in `npm test`): upstream's names in discovery, the data root,
 * the dependency order, the interface description's schema names, and token_info's type
 * discriminators (research ods-server-details.md §4–5). The neutral names are gone.
 */
test('the upstream naming profile names every surface as upstream does', async () => {
  const ref = await startForTest({
    naming: { profile: 'upstream' },
    clients: [{ key: 'test', secret: 'test-secret', educationOrganizationIds: [255901001], namespacePrefixes: ['uri://ed-fi.org'] }],
    demoData: true,
    warmValidators: false,
  });
  try {
    const get = async (path: string, init: RequestInit = {}) => {
      const res = await fetch(`${ref.dataApiBaseUrl}${path}`, init);
      assert.equal(res.status, 200, path);
      return res.json() as Promise<any>;
    };
    const bearer = { Authorization: `Bearer ${ref.token}` };
    const discovery = await get('/');
    assert.equal(discovery.dataModels[0].name, 'Ed-Fi');
    assert.deepEqual(await get('/data/v3/'), [{ name: 'ed-fi', endpointUri: `${ref.dataApiBaseUrl}/data/v3/ed-fi/` }]);
    const dependencies = (await get('/metadata/data/v3/dependencies')) as { resource: string }[];
    assert.ok(dependencies.every((d) => d.resource.startsWith('/ed-fi/')), 'dependencies under /ed-fi/');
    const resources = await get('/metadata/data/v3/resources/swagger.json');
    assert.ok('edFi_school' in resources.components.schemas && !('core_school' in resources.components.schemas));
    assert.equal(resources.paths['/ed-fi/schools'].post.requestBody.content['application/json'].schema.$ref, '#/components/schemas/edFi_school');

    const schools = await fetch(`${ref.dataApiBaseUrl}/data/v3/ed-fi/schools?schoolId=255901001`, { headers: bearer });
    assert.equal(schools.status, 200);
    assert.equal(((await schools.json()) as unknown[]).length, 1);
    const neutral = await fetch(`${ref.dataApiBaseUrl}/data/v3/core/schools`, { headers: bearer });
    assert.equal(neutral.status, 404, 'the neutral segment is not served');
    assert.equal(((await neutral.json()) as { type: string }).type, 'urn:ed-fi:api:not-found');

    const info = await get('/oauth/token_info', { method: 'POST', headers: { ...bearer, 'Content-Type': 'application/json' }, body: JSON.stringify({ token: ref.token }) });
    assert.deepEqual(info.education_organizations.map((o: { type: string }) => o.type), ['edfi.School']);
  } finally {
    await ref.close();
  }
});
