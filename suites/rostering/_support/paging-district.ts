import { httpClient } from '../../_harness/http.js';
import { newEducationOrganizationId } from '../../_harness/builders.js';
import { target } from '../../_harness/target.js';
import { unlessHeld } from './setup.js';
import { Writer, buildDistrict } from './world.js';

/** The rostering paging tests' district: its id and how many schools it holds. */
export interface PagingDistrict { lea: number; schools: number }

/**
 * The worker fixture `pagingDistrict` (registered with the harness's other worker fixtures in
 * fixtures.ts): a district with 501 schools (more than the default page of 100 and the maximum
 * of 500) under the target's reserved paging district (rostering.organizations.pagingLea), whose
 * declared client reads it. It is under no other organization, so no other test's token sees it.
 * The tests using it run in one describe block, in order, so one worker at a time holds it.
 */
export async function pagingDistrict(use: (district: PagingDistrict) => Promise<void>): Promise<void> {
  const pagingLea = target.rostering?.organizations?.pagingLea;
  // Without reserved ids the tests are not applicable (they say so through reservedOrganizations()).
  if (pagingLea === undefined) return use(undefined as unknown as PagingDistrict);
  // An id the deployment already uses is never written over (setup.ts looked): not applicable.
  unlessHeld(['pagingLea']);
  const request = httpClient();
  const writer = await Writer.on(request);
  try {
    const { lea, school } = await buildDistrict(writer, { lea: pagingLea });
    const [made] = (await (await writer.client.get(`schools?schoolId=${school}`)).json()) as Record<string, unknown>[];
    const template = { ...made };
    delete template.id; delete template._etag; delete template._lastModifiedDate;
    const ids = Array.from({ length: 500 }, () => newEducationOrganizationId());
    // 25 at a time, each batch made (and deleted) together: at a distance, 20 round trips each way, not 500.
    for (let i = 0; i < ids.length; i += 25) {
      await writer.together(...ids.slice(i, i + 25).map((schoolId) => () => writer.create('schools', { ...template, schoolId, nameOfInstitution: `Paging School ${schoolId}` })));
    }
    await use({ lea, schools: ids.length + 1 });
  } finally {
    await writer.cleanup();
    await request.dispose();
  }
}
