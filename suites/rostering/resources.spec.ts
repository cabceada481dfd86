import { rule } from '../_harness/rules.js';
import { ENDPOINTS, endpoint, schemaErrors } from './_support/schema.js';
import { readCollection, recordIn } from './_support/read.js';
import { RESOURCES, bearer, expectStatus, getJson, list, rosterUrl, seaToken, tokenFor, type RosterRecord } from './_support/service.js';
import { test, expect, nullsIn, referencesIn } from './_support/test.js';
import { key } from './_support/world.js';
import { resourceOf } from '../_harness/builders.js';

/**
 * The resources: each of the seed's twelve answers 200 with its records (MUST, read as the seed
 * allows: a collection whatever its envelope); every endpoint answers with its envelope and records valid against the
 * rostering interface description; subsets; references that resolve; null members left out; and
 * the data the data API wrote, mapped and visible at once. Read with a token naming the world's
 * state agency, which reaches everything the world holds.
 */
test.describe('rostering resources', () => {
  test('GET on each of the twelve resources answers 200 with its records to a token holding the scopes it needs', rule('roster.roster-resources.resource-list'), async ({ request, world }) => {
    const token = await seaToken(request, world, ['core', 'demographics']);
    for (const resource of RESOURCES) await readCollection(request, rosterUrl(resource), token);
  });

  for (const e of ENDPOINTS) {
    test(`GET ${e.endpoint} answers {"${e.collectionKey}": [...]} with records valid against the interface description`, rule('roster.roster-resources.collection-envelope'), async ({ request, world }) => {
      const token = await seaToken(request, world);
      const body = await getJson(request, rosterUrl(`${e.endpoint}?limit=500`), token);
      expect(Object.keys(body)).toEqual([e.collectionKey]);
      const items = body[e.collectionKey] as RosterRecord[];
      expect(Array.isArray(items)).toBe(true);
      expect(items.length, `the world has ${e.endpoint}`).toBeGreaterThan(0);
      for (const item of items) expect(schemaErrors(e.type, item), `${e.endpoint} ${item.sourcedId}`).toEqual([]);
    });

    test(`GET ${e.endpoint}/{sourcedId} answers {"${e.singleKey}": {...}}`, e.endpoint === 'demographics' ? rule('roster.roster-resources.demographics-single-key', 'roster.roster-resources.single-envelope') : rule('roster.roster-resources.single-envelope'), async ({ request, world }) => {
      const token = await seaToken(request, world);
      const [first] = await list(request, e.endpoint, token);
      expect(first, `the world has ${e.endpoint}`).toBeTruthy();
      const body = await getJson(request, rosterUrl(`${e.endpoint}/${encodeURIComponent(first.sourcedId)}`), token);
      expect(Object.keys(body)).toEqual([e.singleKey]);
      const record = body[e.singleKey] as RosterRecord;
      expect(record.sourcedId).toBe(first.sourcedId);
      expect(record).toEqual(first);
      expect(schemaErrors(e.type, record)).toEqual([]);
    });
  }

  test('leaves out members whose value is null, in collections and single records', rule('roster.roster-resources.null-keys-omitted'), async ({ request, world }) => {
    const token = await seaToken(request, world);
    for (const e of ENDPOINTS) {
      const items = await list(request, e.endpoint, token);
      expect(nullsIn(items), e.endpoint).toEqual([]);
      const single = await getJson(request, rosterUrl(`${e.endpoint}/${items[0].sourcedId}`), token);
      expect(nullsIn(single), `${e.endpoint}/{id}`).toEqual([]);
    }
    // The student written with explicit nulls is there, without those members.
    const [grace] = (await list(request, 'students', token)).filter((u) => u.identifier === world.students.st2);
    expect(grace).toBeTruthy();
    expect(grace).not.toHaveProperty('middleName');
    expect(grace).not.toHaveProperty('preferredFirstName');
  });

  test('the subset endpoints return exactly the matching records of their base endpoint', rule('roster.roster-resources.subset-endpoints'), async ({ request, world }) => {
    const token = await seaToken(request, world);
    const matches = (r: RosterRecord, subset: { path: string; equals: string }) =>
      subset.path === 'type' ? r.type === subset.equals : ((r.roles as { role: string }[]) ?? []).some((x) => x.role === subset.equals);
    const bases: Record<string, string> = { schools: 'orgs', terms: 'academicSessions', gradingPeriods: 'academicSessions', students: 'users', teachers: 'users' };
    for (const [sub, baseName] of Object.entries(bases)) {
      const e = endpoint(sub);
      const subset = e.subset!;
      const items = await list(request, sub, token);
      const base = await list(request, baseName, token);
      expect(items.length, `${sub} is not empty`).toBeGreaterThan(0);
      for (const item of items) expect(matches(item, subset), `${sub} ${item.sourcedId} has ${subset.path} ${subset.equals}`).toBe(true);
      expect(items.map((i) => i.sourcedId).sort(), `${sub} = ${baseName} where ${subset.path} is ${subset.equals}`)
        .toEqual(base.filter((b) => matches(b, subset)).map((b) => b.sourcedId).sort());
      // A base record outside the subset is not found through the subset endpoint.
      const outside = base.find((b) => !matches(b, subset));
      expect(outside, `${baseName} has a record outside ${sub}`).toBeTruthy();
      await expectStatus(await request.get(rosterUrl(`${sub}/${outside!.sourcedId}`), { headers: bearer(token) }), 404);
    }
  });

  test('every reference names a record that its href serves', rule('roster.roster-resources.href-integrity', 'roster.roster-resources.single-envelope'), async ({ request, world }) => {
    const token = await seaToken(request, world);
    const singleKeys: Record<string, string> = { academicSession: 'academicSession', class: 'class', course: 'course', org: 'org', user: 'user' };
    const seen = new Map<string, string>();
    for (const e of ENDPOINTS) {
      for (const item of await list(request, e.endpoint, token)) {
        for (const r of referencesIn(item)) {
          expect(Object.keys(singleKeys), `${e.endpoint} ${item.sourcedId} ${r.at} type`).toContain(r.type);
          expect(r.href, `${r.at} href names the sourcedId`).toMatch(new RegExp(`/${r.sourcedId}$`));
          seen.set(r.href, r.type);
        }
      }
    }
    expect(seen.size, 'the world has references').toBeGreaterThan(10);
    for (const [href, type] of seen) {
      const url = /^https?:/.test(href) ? href : rosterUrl(href);
      const body = await getJson(request, url, token);
      expect(recordIn(body)?.sourcedId, `${href} serves a ${type}`).toBe(href.split('/').pop());
    }
  });

  test('maps the core data the data API holds: organizations, sessions, classes, courses, people and enrollments', rule('roster.roster-resources.data-api-mapping', 'roster.roster-resources.no-refresh-delay'), async ({ request, world }) => {
    const token = await seaToken(request, world);
    const orgs = await list(request, 'orgs', token);
    const orgOf = (id: number) => orgs.find((o) => o.identifier === String(id))!;
    expect(orgOf(world.sea)).toMatchObject({ type: 'state', name: world.names.sea });
    expect(orgOf(world.lea1)).toMatchObject({ type: 'district', parent: { sourcedId: orgOf(world.sea).sourcedId, type: 'org' } });
    expect(orgOf(world.schoolA)).toMatchObject({ type: 'school', name: world.names.schoolA, parent: { sourcedId: orgOf(world.lea1).sourcedId } });
    expect((orgOf(world.lea1).children as RosterRecord[]).map((c) => c.sourcedId).sort()).toEqual([orgOf(world.schoolA).sourcedId, orgOf(world.schoolB).sourcedId].sort());

    const sessions = await list(request, 'academicSessions', token);
    const session = (title: string) => sessions.find((s) => s.title === title)!;
    expect(session(world.sessions.fall)).toMatchObject({ type: 'semester', schoolYear: String(world.year), startDate: `${world.year - 1}-08-20` });
    expect(session(world.sessions.tri)).toMatchObject({ type: 'gradingPeriod' });
    expect(session(world.sessions.q1)).toMatchObject({ type: 'term' });
    // 4.0's grading periods have no name to title them by: there, the one under Fall.
    const gradingPeriod = resourceOf('gradingPeriod').fields.gradingPeriodName ? session(world.sessions.gradingPeriod)
      : sessions.find((s) => s.type === 'gradingPeriod' && (s.parent as RosterRecord | undefined)?.sourcedId === session(world.sessions.fall).sourcedId);
    expect(gradingPeriod).toMatchObject({ type: 'gradingPeriod', parent: { sourcedId: session(world.sessions.fall).sourcedId } });
    const schoolYear = sessions.find((s) => s.sourcedId === (session(world.sessions.fall).parent as RosterRecord).sourcedId)!;
    expect(schoolYear).toMatchObject({ type: 'schoolYear', schoolYear: String(world.year), title: `${world.year - 1}-${world.year}` });

    const courses = await list(request, 'courses', token);
    const m1 = courses.find((c) => c.courseCode === world.courses.m1)!;
    expect(m1).toMatchObject({ org: { sourcedId: orgOf(world.lea1).sourcedId }, schoolYear: { sourcedId: schoolYear.sourcedId } });
    const classes = await list(request, 'classes', token);
    const s1 = classes.find((c) => c.classCode === world.courses.m1)!;
    expect(s1).toMatchObject({
      classType: 'scheduled', course: { sourcedId: m1.sourcedId }, school: { sourcedId: orgOf(world.schoolA).sourcedId },
      terms: [{ sourcedId: session(world.sessions.fall).sourcedId, type: 'academicSession' }],
    });
    expect(s1.periods).toEqual([expect.stringMatching(/^P1 /)]);

    const users = await list(request, 'users', token);
    const user = (id: string) => users.find((u) => u.identifier === id)!;
    expect(user(world.students.st1)).toMatchObject({
      givenName: 'Ada', middleName: 'King', enabledUser: 'true', email: world.emails.st1, username: world.emails.st1, grades: ['Ninth grade'],
      roles: [{ role: 'student', roleType: 'primary', org: { sourcedId: orgOf(world.schoolA).sourcedId } }],
    });
    expect(user(world.staff.t1)).toMatchObject({ email: world.emails.t1, roles: [{ role: 'teacher' }], userIds: [{ type: 'staffUniqueId', identifier: world.staff.t1 }] });
    expect(user(world.staff.p1)).toMatchObject({ roles: [{ role: 'principal', org: { sourcedId: orgOf(world.schoolB).sourcedId } }] });
    expect(user(world.contact)).toMatchObject({ roles: [{ role: 'parent', org: { sourcedId: orgOf(world.schoolA).sourcedId } }] });

    const enrollments = await list(request, 'enrollments', token);
    const of = (person: string) => enrollments.filter((x) => (x.user as RosterRecord).sourcedId === user(person).sourcedId);
    expect(of(world.students.st1).map((x) => (x.class as RosterRecord).sourcedId)).toContain(s1.sourcedId);
    expect(of(world.students.st1)).toHaveLength(2);
    expect(of(world.staff.t1)).toEqual([expect.objectContaining({ role: 'teacher', primary: 'true', class: expect.objectContaining({ sourcedId: s1.sourcedId }) })]);
    expect(of(world.staff.t2)).toEqual([expect.objectContaining({ role: 'teacher', primary: 'false' })]);

    const demographics = await list(request, 'demographics', token);
    expect(demographics.find((d) => d.sourcedId === user(world.students.st1).sourcedId)).toMatchObject({
      birthDate: '2010-12-10', sex: 'female', asian: 'true', white: 'true', blackOrAfricanAmerican: 'false',
      demographicRaceTwoOrMoreRaces: 'true', hispanicOrLatinoEthnicity: 'true', cityOfBirth: 'Austin', countryOfBirthCode: 'US', stateOfBirthAbbreviation: 'TX',
    });
  });

  test('a record written through the data API is visible, changed and gone in the very next read', rule('roster.roster-resources.no-refresh-delay'), async ({ request, world, api }) => {
    // School D: no other test reads it, so the record coming and going disturbs none.
    const token = await tokenFor(request, { orgs: [world.schoolD], scopes: ['core'] });
    const studentUniqueId = key('new');
    const student = await api.create('students', { studentUniqueId, firstName: 'Fresh', lastSurname: 'Student', birthDate: '2011-03-04' });
    const grade = (await list(request, 'students', await seaToken(request, world))).find((u) => u.identifier === world.students.st1)!.grades as string[];
    expect(grade).toEqual(['Ninth grade']);
    // Not yet at a school: not a rostering user.
    const find = async () => (await list(request, 'students', token)).find((u) => u.identifier === studentUniqueId);
    expect(await find()).toBeUndefined();
    const gradeDescriptor = (await (await api.get(`studentSchoolAssociations?studentUniqueId=${world.students.st1}`)).json())[0].entryGradeLevelDescriptor as string;
    const ssa = await api.create('studentSchoolAssociations', { studentReference: { studentUniqueId }, schoolReference: { schoolId: world.schoolD }, entryDate: `${world.year - 1}-09-01`, entryGradeLevelDescriptor: gradeDescriptor });
    expect(await find()).toMatchObject({ givenName: 'Fresh', familyName: 'Student' });
    const put = await api.put(student.url, { studentUniqueId, firstName: 'Renamed', lastSurname: 'Student', birthDate: '2011-03-04' });
    expect(put.status(), await put.text()).toBe(204);
    expect(await find()).toMatchObject({ givenName: 'Renamed' });
    expect((await api.delete(ssa.url)).status()).toBe(204);
    expect(await find()).toBeUndefined();
  });
});

