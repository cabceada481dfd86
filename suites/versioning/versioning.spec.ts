import { test, expect, target } from '../_harness/data.js';
import { notApplicable } from '../_harness/capabilities.js';
import { interfaceDescription } from '../_harness/interface-description.js';
import { expectProblem } from '../_harness/problem.js';
import { check, rule } from '../_harness/rules.js';

/** Releases and versions (seed: Versioning). */
const release = /\/v(\d+)(?:\.(\d+))?(?:\.\d+)*\/api$/.exec(new URL(target.dataApi.baseUrl).pathname);

test.describe('versions', () => {
  test('carries the release as a path segment before /api in {base_url}', rule('data.versioning.release-segment-in-base-url', 'data.discovery.root-document'), async ({ api, request }) => {
    expect(release, `release segment in ${target.dataApi.baseUrl}`).not.toBeNull();
    // The data API answers under that {base_url}; a discovery document at {base_url}/ is upstream's.
    expect((await api.get('academicWeeks?limit=1')).status()).toBe(200);
    await check('data.discovery.root-document', '{base_url}/ answers 200', async () => expect((await request.get(`${target.dataApi.baseUrl}/`)).status()).toBe(200));
  });

  test('gives the data API\'s interface description version 3', rule('data.versioning.interface-description-version-3'), async ({ request }) => {
    // The seed does not say where the description is: the target names it, or the discovery
    // document (upstream's, SHOULD) leads to it; with neither there is nothing to read.
    if (!target.capabilities?.interfaceDescription) {
      const root = await request.get(`${target.dataApi.baseUrl}/`);
      const urls = root.status() === 200 ? ((await root.json()) as { urls?: { openApiMetadata?: string } }).urls : undefined;
      if (!urls?.openApiMetadata) notApplicable('the target names no interface description (capabilities.interfaceDescription) and {base_url}/ leads to none');
    }
    expect((await interfaceDescription(request)).info.version).toBe('3');
  });

  test('answers errors with urn:core:api: problem details from release 7.2 on', rule('data.versioning.problem-details-from-7-2'), async ({ api, data }) => {
    const [major, minor] = [Number(release?.[1] ?? 0), Number(release?.[2] ?? 0)];
    if (major < 7 || (major === 7 && minor < 2)) notApplicable(`release ${major}.${minor} predates 7.2`);
    // Errors the seed's table shows a problem body for (a 404's body is not shown: decision 6).
    await expectProblem(await api.post('academicWeeks', await data.body('academicWeek', { weekIdentifier: undefined })), 'bad-request:data-validation-failed');
    const created = await data.create('academicWeek');
    await expectProblem(await api.delete(created.url, { 'If-Match': '"not-the-etag"' }), 'optimistic-lock-failed');
    await expectProblem(await api.post('academicWeeks', created.body, { 'Content-Type': 'text/plain' }), 'unsupported-media-type');
  });
});
