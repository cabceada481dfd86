import { test, expect, target } from '../_harness/data.js';
import { nullMembers } from '../_harness/checks.js';
import { expectProblem } from '../_harness/problem.js';
import { rule } from '../_harness/rules.js';
import { model } from '../_harness/judged-model.js';

/** POST {data_root}/core/<resource>: an upsert by natural key (seed Endpoints rule 1). */
test.describe('POST /core/academicWeeks', () => {
  test('creates a record with a new natural key and answers 201 with a Location addressing it', rule('data.upsert.new-key-201-location'), async ({ api, data }) => {
    const body = await data.body('academicWeek');
    const res = await api.post('academicWeeks', body);
    expect(res.status()).toBe(201);
    const location = res.headers().location;
    api.track(location);
    // Absolute or relative (an absolute URL is upstream's, SHOULD): the path names the item.
    expect(new URL(api.url(location)).pathname).toMatch(new RegExp(`/data/v3/${target.dataApi.namespaceSegment}/academicWeeks/[^/]+$`, 'i'));
    const got = await api.get(location);
    expect(got.status()).toBe(200);
    expect((await got.json()).weekIdentifier).toBe(body.weekIdentifier);
  });

  test('answers 200 and updates the record when the natural key already exists', rule('data.upsert.existing-key-200-update'), async ({ api, data }) => {
    const created = await data.create('academicWeek');
    const res = await api.post('academicWeeks', { ...created.body, totalInstructionalDays: 3 });
    expect(res.status()).toBe(200);
    expect((await (await api.get(created.url)).json()).totalInstructionalDays).toBe(3);
  });

  test('updates the record found by natural key in place, keeping its id and creating no other', rule('data.upsert.locate-by-natural-key'), async ({ api, data }) => {
    const created = await data.create('academicWeek');
    expect((await api.post('academicWeeks', { ...created.body, endDate: '2025-06-13' })).status()).toBe(200);
    const res = await api.get(`academicWeeks?weekIdentifier=${encodeURIComponent(created.body.weekIdentifier as string)}`);
    const items = (await res.json()) as { id: string; endDate: string }[];
    expect(items.map((i) => i.id)).toEqual([created.id]);
    expect(items[0].endDate).toBe('2025-06-13');
  });

  // program.programId is an optional member, not part of the natural key, though named as a
  // resource's own id would be: the update must store the value sent, not keep the stored one.
  test('updates a non-key member named like the resource\'s id (program.programId) to the value the POST sends', rule('data.upsert.locate-by-natural-key'), async ({ api, data }) => {
    const stamp = Date.now().toString(36).slice(-8);
    const created = await data.create('program', { programId: `A${stamp}` });
    const res = await api.post('programs', { ...created.body, programId: `B${stamp}` });
    expect(res.status()).toBe(200);
    const got = await (await api.get(created.url)).json();
    expect(got.id).toBe(created.id);
    expect(got.programId).toBe(`B${stamp}`);
  });

  test('gives every record a server-assigned string id equal to the last segment of its Location', rule('data.upsert.id-server-assigned'), async ({ api, data }) => {
    const created = await data.create('academicWeek');
    const got = await (await api.get(created.url)).json();
    expect(typeof got.id).toBe('string');
    expect(got.id).toBe(created.location.split('/').pop());
    const listed = (await (await api.get(`academicWeeks?weekIdentifier=${encodeURIComponent(created.body.weekIdentifier as string)}`)).json()) as { id: unknown }[];
    expect(listed.map((i) => i.id)).toEqual([created.id]);
  });

  test('refuses an id in the POST body with 400 data-validation-failed and an errors entry', rule('data.upsert.id-in-post-body-400'), async ({ api, data }) => {
    const body = await data.body('academicWeek');
    const problem = await expectProblem(await api.post('academicWeeks', { ...body, id: '0123456789abcdef0123456789abcdef' }), 'bad-request:data-validation-failed');
    expect(problem.errors?.length ?? 0).toBeGreaterThan(0);
    expect((await (await api.get(`academicWeeks?weekIdentifier=${encodeURIComponent(body.weekIdentifier as string)}`)).json()) as unknown[]).toEqual([]);
  });

  test('writes ids as 32 lower-case hex digits', rule('data.upsert.id-format-32-hex'), async ({ data }) => {
    const created = await data.create('academicWeek');
    expect(created.id).toMatch(/^[0-9a-f]{32}$/);
  });

  test('omits members whose value is null instead of sending null', rule('data.upsert.null-members-omitted'), async ({ api, data }) => {
    const created = await data.create('classPeriod', { officialAttendancePeriod: null });
    const got = await (await api.get(created.url)).json();
    expect(nullMembers(got)).toEqual([]);
  });

  test('sends an absolute Location URL ending in /<resource>/<id>', rule('data.upsert.location-absolute-url'), async ({ data }) => {
    const created = await data.create('academicWeek');
    expect(created.location).toMatch(/^https?:\/\/[^/]+\/.*\/academicWeeks\/[^/]+$/i);
  });

  test('ends Location in /<resource>/<id> when the request path ends in a slash', rule('data.upsert.location-absolute-url'), async ({ api, data }) => {
    // Upstream builds Location from the path as sent, its trailing slash trimmed (research §7).
    const created = await data.create('academicWeek');
    const res = await api.post('academicWeeks/', created.body);
    expect(res.status()).toBe(200);
    expect(res.headers()['location']).toMatch(new RegExp(`^https?://[^/]+/.*[^/]/academicWeeks/${created.id}$`, 'i'));
  });

  test('also sends a Location naming the existing record when an upsert answers 200', rule('data.upsert.location-on-200'), async ({ api, data }) => {
    const created = await data.create('academicWeek');
    const res = await api.post('academicWeeks', { ...created.body, totalInstructionalDays: 4 });
    expect(res.status()).toBe(200);
    expect(res.headers().location?.split('/').pop()).toBe(created.id);
  });

  test('accepts a body copied from a GET response, its link objects and _etag being ignored', rule('data.upsert.get-body-reposted'), async ({ api, data }) => {
    const created = await data.create('academicWeek');
    const { id: _id, ...copy } = (await (await api.get(created.url)).json()) as Record<string, unknown>;
    copy.schoolReference = { ...(copy.schoolReference as object), link: { rel: 'School', href: '/core/schools/0123456789abcdef0123456789abcdef' } };
    copy._etag = 'not-the-etag';
    const res = await api.post('academicWeeks', copy);
    expect(res.status()).toBe(200);
    expect(res.headers().location?.split('/').pop()).toBe(created.id);
  });
});

/** A natural key is new or not within its own resource: a record of another kind with the same values is no conflict. */
test.describe('POST /core/<resource>: keys of other resources', () => {
  test('creates a school (201) whose schoolId equals the natural key of a record of another resource, a school year', rule('data.upsert.new-key-201-location'), async ({ api, data }) => {
    // A year (of the default range) no education organization has as its id: those share one id
    // space upstream. Its school year type is the one there, or one the builder creates.
    const organizations = model.resources.filter((r) => r.educationOrganization);
    const found = async (query: string) => ((await (await api.get(query)).json()) as unknown[]).length > 0;
    let year: number | undefined;
    for (let y = 2050; y >= 1991 && year === undefined; y--) {
      if (!(await Promise.all(organizations.map((r) => found(`${r.endpoint}?${r.educationOrganization!.idField}=${y}`)))).includes(true)) year = y;
    }
    expect(year, 'a school year that no education organization has as its id').toBeDefined();
    await data.schoolYear(year!);
    const school = await data.create('school', { schoolId: year });
    expect((await (await api.get(school.url)).json()).schoolId).toBe(year);
  });
});
