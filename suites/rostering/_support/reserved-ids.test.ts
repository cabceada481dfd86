import { httpClient, type HttpClient } from '../../_harness/http.js';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { startInProcess, type ReferenceConfig } from '../../../tools/embedded/in-process.js';
import { reservedIdsInUse } from './setup.js';
import { Writer } from './world.js';

/**
 * Decision 32 (a run never writes over data it did not create), issue #24 point 1: a reserved
 * organization id the deployment already holds is found whatever kind of education organization
 * holds it, since an education organization id is one across its kinds; a free id is not.
 */
const conformance = JSON.parse(readFileSync(new URL('../../../reference/config/conformance.json', import.meta.url), 'utf8')) as ReferenceConfig;
let ref: Awaited<ReturnType<typeof startInProcess>>;
let ctx: HttpClient;
let writer: Writer;

before(async () => {
  ref = await startInProcess({ clients: conformance.clients! });
  ctx = httpClient();
  const primary = conformance.clients!.find((c) => c.key === 'conformance-primary')!;
  const res = await ctx.post(`${ref.dataApiBaseUrl}/oauth/token`, { form: { grant_type: 'client_credentials', client_id: primary.key, client_secret: primary.secret! } });
  writer = new Writer(ctx, ((await res.json()) as { access_token: string }).access_token, ref.dataApiBaseUrl);
  // The reference starts empty: the descriptors the bodies below name.
  for (const [resource, namespace, codeValue] of [['educationOrganizationCategoryDescriptors', 'EducationOrganizationCategoryDescriptor', 'Other'], ['localEducationAgencyCategoryDescriptors', 'LocalEducationAgencyCategoryDescriptor', 'Independent']]) {
    await writer.client.create(resource, { namespace: `uri://core.org/${namespace}`, codeValue, shortDescription: codeValue });
  }
});

after(async () => {
  await ctx.dispose();
  await ref.close();
});

const category = { categories: [{ educationOrganizationCategoryDescriptor: 'uri://core.org/EducationOrganizationCategoryDescriptor#Other' }] };

test('an id held by an education organization of a kind the world never writes (post-secondary institution, organization department) is found and named', async () => {
  const held = [
    ['postSecondaryInstitutions', { postSecondaryInstitutionId: 90990011, nameOfInstitution: 'Held College', ...category }],
    ['organizationDepartments', { organizationDepartmentId: 90990101, nameOfInstitution: 'Held Department', ...category }],
  ] as const;
  for (const [resource, body] of held) await writer.client.create(resource, body);
  const taken = await reservedIdsInUse(writer, { lea1: 90990011, schoolA: 90990101, schoolB: 90990102 });
  assert.deepEqual(taken, {
    lea1: 'is already the deployment\'s postSecondaryInstitution "Held College"',
    schoolA: 'is already the deployment\'s organizationDepartment "Held Department"',
  });
});

test('a state agency, district or school holding an id is named before any other kind, and its world name says an earlier run left it', async () => {
  await writer.client.create('localEducationAgencies', { localEducationAgencyId: 90990201, nameOfInstitution: 'District r1a2b3c', localEducationAgencyCategoryDescriptor: 'uri://core.org/LocalEducationAgencyCategoryDescriptor#Independent', ...category });
  assert.deepEqual(await reservedIdsInUse(writer, { lea2: 90990201 }), { lea2: 'is already the deployment\'s localEducationAgency "District r1a2b3c", which an earlier run of the suites left' });
});
