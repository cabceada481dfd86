import type { HttpResponse } from '../_harness/http.js';
import { test, expect, target } from '../_harness/data.js';
import { capability, clientToken } from '../_harness/capabilities.js';
import { messagesOf } from '../_harness/checks.js';
import { keysOf, resourceOf, type Builder } from '../_harness/builders.js';
import type { DataClient } from '../_harness/fixtures.js';
import { expectProblem, expectProblemContentType, expectProblemUnder } from '../_harness/problem.js';
import { check, rule } from '../_harness/rules.js';
import { model } from '../_harness/judged-model.js';
import { contactLink, contactReference } from '../_harness/persons.js';

/**
 * Authorization after authentication (seed: Authentication; decisions #21, #22): permission sets,
 * namespace prefixes, education-organization claims and person relationships. Each test acts as
 * a client role the target names (not applicable otherwise); the school-limited client's school
 * has a fixed id, so those tests run one after the other.
 */
test.describe.configure({ mode: 'default' });

/** The person records of the model (seed: student, parent, staff). */
const PERSONS = model.resources.filter((r) => r.person);
if (PERSONS.length !== 3) throw new Error(`authorization.spec: expected the three person records (student, contact or parent, staff), the model has ${PERSONS.map((r) => r.name).join(', ')}`);

/** The school-limited client's own school, created (or found) by the primary client. */
async function ownSchool(api: DataClient, data: Builder): Promise<number> {
  const [schoolId] = capability('schoolLimited').schoolIds;
  const res = await api.post('schools', await data.body('school', { schoolId }));
  expect([200, 201], `own school ${schoolId}: ${await res.text()}`).toContain(res.status());
  if (res.status() === 201) api.track(res.headers().location);
  return schoolId;
}

/** POSTs a body as another client, expects 201 and has the primary client delete it afterwards. */
async function createAs(client: DataClient, api: DataClient, endpoint: string, body: Record<string, unknown>): Promise<string> {
  const res = await client.post(endpoint, body);
  expect(res.status(), `${endpoint}: ${await res.text()}`).toBe(201);
  api.track(res.headers().location);
  return res.headers().location;
}

/**
 * Upstream's errors entry of a 403 for a missing relationship (research: api-guidelines.md,
 * Authorization): the caller's claims, in any order (abbreviated past five), and the value's name.
 */
function expectRelationshipEntry(problem: { errors?: string[] }, valueName: string): void {
  const pattern = new RegExp(`^No relationships have been established between the caller's education organization id claim\\(s\\) \\(([^)]*)\\) and the resource item's '${valueName}' value\\.$`);
  const entry = (problem.errors ?? []).find((e) => pattern.test(e));
  expect(entry, `an entry naming '${valueName}' among ${JSON.stringify(problem.errors)}`).toBeDefined();
  const ids = capability('schoolLimited').schoolIds.map(String);
  if (ids.length <= 5) expect(pattern.exec(entry!)![1].split(', ').sort()).toEqual([...ids].sort());
}

test.describe('person records and relationships', () => {
  // Every kind of person the seed names (student, parent, staff: the model's person records,
  // DS 5's contact being the seed's parent), created by the caller itself and read back at once.
  for (const person of PERSONS) {
    test(`answers 403 to a relationship-based caller reading the ${person.name} record it just created, until an association exists`, rule('data.authorization.new-person-not-accessible-403', 'data.errors.authorization-denied-type'), async ({ api, as, data }) => {
      const client = as('schoolLimited');
      const url = await createAs(client, api, person.endpoint, await data.body(person.name));
      const res = await client.get(url);
      expect(res.status(), `GET ${person.endpoint}/{id} of the record the caller created: ${await res.text()}`).toBe(403);
      await check('data.errors.authorization-denied-type', 'the 403 is security:authorization (or a type under it), titled Authorization Denied', () => expectProblemUnder(res, 'security:authorization'));
    });
  }

  test('hints at the association to create in the 403 for a missing person relationship', rule('data.authorization.relationship-hint'), async ({ api, as, data }) => {
    const client = as('schoolLimited');
    const url = await createAs(client, api, 'students', await data.body('student'));
    const problem = await expectProblem(await client.get(url), 'security:authorization');
    expect(messagesOf(problem).join(' ')).toMatch(/StudentSchoolAssociation/);
  });

  test('makes the student readable (200) once a student-school association links it to the caller\'s school', rule('data.authorization.person-accessible-after-association'), async ({ api, as, data }) => {
    const client = as('schoolLimited');
    const schoolId = await ownSchool(api, data);
    const student = await data.body('student');
    const url = await createAs(client, api, 'students', student);
    expect((await client.get(url)).status()).toBe(403);
    await createAs(client, api, 'studentSchoolAssociations', await data.body('studentSchoolAssociation', { studentReference: { studentUniqueId: student.studentUniqueId }, schoolReference: { schoolId } }));
    expect((await client.get(url)).status()).toBe(200);
  });

  test('answers 403 to a relationship-based caller reading a student no association links to it', rule('data.authorization.person-relationship-required-403'), async ({ as, data }) => {
    const client = as('schoolLimited');
    const student = await data.create('student');
    await expectProblem(await client.get(student.url), 'security:authorization');
  });

  test('leaves a student no association links to the caller out of a collection read', rule('data.authorization.person-relationship-required-403'), async ({ api, as, data }) => {
    const client = as('schoolLimited');
    const student = await data.create('student');
    const query = `students?studentUniqueId=${encodeURIComponent(String(student.body.studentUniqueId))}`;
    expect(((await (await api.get(query)).json()) as { id: string }[]).map((r) => r.id), 'the query finds the student for the primary client').toContain(student.id);
    const res = await client.get(query);
    if (res.status() === 200) expect(((await res.json()) as { id: string }[]).map((r) => r.id)).not.toContain(student.id);
    else await expectProblem(res, 'security:authorization');
  });

  test('answers 403 to a relationship-based caller updating a student no association links to it', rule('data.authorization.person-relationship-required-403'), async ({ as, data }) => {
    const client = as('schoolLimited');
    const student = await data.create('student');
    await expectProblem(await client.put(student.url, { ...student.body, firstName: 'Changed' }), 'security:authorization');
  });

  // POST is an upsert: a body with the key of an existing student is a write to that record, not
  // a new one, so the relationship is required as for PUT; the record keeps its values.
  test('answers 403 to a relationship-based caller posting the natural key of a student no association links to it', rule('data.authorization.person-relationship-required-403'), async ({ api, as, data }) => {
    const client = as('schoolLimited');
    const student = await data.create('student');
    await expectProblemUnder(await client.post('students', { ...student.body, firstName: 'Changed' }), 'security:authorization');
    expect((await (await api.get(student.url)).json()).firstName).toBe(student.body.firstName);
  });

  test('answers 403 to a relationship-based caller reading a staff member no association links to it', rule('data.authorization.person-relationship-required-403'), async ({ as, data }) => {
    const client = as('schoolLimited');
    const staff = await data.create('staff');
    await expectProblem(await client.get(staff.url), 'security:authorization');
  });

  // The other two kinds of person the rule names: staff through a staff association to the
  // caller's school, a contact (4.0's parent) through its student association to a student
  // the caller already reaches. Each is refused before the association and hinted at.
  test('makes a staff member readable (200) once a staff assignment links it to the caller\'s school, hinting at it before', rule('data.authorization.person-accessible-after-association', 'data.authorization.relationship-hint'), async ({ api, as, data }) => {
    const client = as('schoolLimited');
    const schoolId = await ownSchool(api, data);
    const staff = await data.create('staff');
    const before = await expectProblem(await client.get(staff.url), 'security:authorization');
    await check('data.authorization.relationship-hint', 'the 403 names the staff association to create', () => expect(messagesOf(before).join(' ')).toMatch(/StaffEducationOrganization/));
    await createAs(client, api, 'staffEducationOrganizationAssignmentAssociations', await data.body('staffEducationOrganizationAssignmentAssociation', { staffReference: { staffUniqueId: staff.body.staffUniqueId }, educationOrganizationReference: { educationOrganizationId: schoolId } }));
    expect((await client.get(staff.url)).status()).toBe(200);
  });

  // The seed's parent is the judged standard's contact person record (4.0's parent, later contact).
  const contacts = contactLink();
  test(`makes a ${contacts.person.name} readable (200) once a ${contacts.association.name} links it to a student of the caller's school, hinting at it before`, rule('data.authorization.person-accessible-after-association', 'data.authorization.relationship-hint'), async ({ api, as, data }) => {
    const client = as('schoolLimited');
    const schoolId = await ownSchool(api, data);
    const student = await data.create('student');
    await createAs(client, api, 'studentSchoolAssociations', await data.body('studentSchoolAssociation', { studentReference: { studentUniqueId: student.body.studentUniqueId }, schoolReference: { schoolId } }));
    const contact = await data.create(contacts.person.name);
    const before = await expectProblem(await client.get(contact.url), 'security:authorization');
    await check('data.authorization.relationship-hint', `the 403 names the ${contacts.association.name} to create`, () => expect(messagesOf(before).join(' ')).toMatch(new RegExp(contacts.association.resourceName)));
    await createAs(client, api, contacts.association.endpoint, await data.body(contacts.association.name, { studentReference: { studentUniqueId: student.body.studentUniqueId }, ...contactReference(contacts, contact.body[contacts.key]) }));
    expect((await client.get(contact.url)).status()).toBe(200);
  });

  // Reach is per person and per organization: another person linked to the caller's school, or
  // the same kind of association to an organization outside the claims, reaches no one else.
  // A student through a student-school association, a staff member through a staff assignment.
  const linkedToSchool = [
    { kind: 'student', who: 'a student', how: 'associated with', association: 'studentSchoolAssociation', value: 'StudentUniqueId',
      link: (p: Record<string, unknown>, schoolId: unknown) => ({ studentReference: { studentUniqueId: p.studentUniqueId }, schoolReference: { schoolId } }) },
    { kind: 'staff', who: 'a staff member', how: 'assigned to', association: 'staffEducationOrganizationAssignmentAssociation', value: 'StaffUniqueId',
      link: (p: Record<string, unknown>, schoolId: unknown) => ({ staffReference: { staffUniqueId: p.staffUniqueId }, educationOrganizationReference: { educationOrganizationId: schoolId } }) },
  ];
  for (const person of linkedToSchool) {
    test(`answers 403 for ${person.who} ${person.how} a school outside the caller's claims only, while ${person.who} of its own school is readable`, rule('data.authorization.person-relationship-required-403', 'data.errors.errors-entry-wording'), async ({ api, as, data }) => {
      const client = as('schoolLimited');
      const schoolId = await ownSchool(api, data);
      const linked = await data.create(person.kind);
      await data.create(person.association, person.link(linked.body, schoolId));
      expect((await client.get(linked.url)).status(), `${person.who} ${person.how} the caller's school`).toBe(200);
      const other = await data.create(person.kind);
      const otherSchool = await data.school();
      await data.create(person.association, person.link(other.body, otherSchool.keys.schoolId));
      const problem = await expectProblem(await client.get(other.url), 'security:authorization');
      await check('data.errors.errors-entry-wording', `the errors entry names the claims and the '${person.value}' value as upstream does`, () => expectRelationshipEntry(problem, person.value));
    });
  }

  test(`answers 403 for a ${contacts.person.name} associated only with a student the caller does not reach, while a ${contacts.person.name} of a student of its own school is readable`, rule('data.authorization.person-relationship-required-403', 'data.errors.errors-entry-wording'), async ({ api, as, data }) => {
    const client = as('schoolLimited');
    const schoolId = await ownSchool(api, data);
    const student = await data.create('student');
    await data.create('studentSchoolAssociation', { studentReference: { studentUniqueId: student.body.studentUniqueId }, schoolReference: { schoolId } });
    // A record about the student that is not an association (a restraint event at the school)
    // neither reaches a contact nor stops the association from reaching one.
    await data.create('restraintEvent', { studentReference: { studentUniqueId: student.body.studentUniqueId }, schoolReference: { schoolId } });
    const link = (studentUniqueId: unknown, contact: Record<string, unknown>) => data.create(contacts.association.name, { studentReference: { studentUniqueId }, ...contactReference(contacts, contact[contacts.key]) });
    const linked = await data.create(contacts.person.name);
    await link(student.body.studentUniqueId, linked.body);
    expect((await client.get(linked.url)).status(), `the ${contacts.person.name} of a student of the caller's school`).toBe(200);
    const unreached = await data.create('student');
    const other = await data.create(contacts.person.name);
    await link(unreached.body.studentUniqueId, other.body);
    const problem = await expectProblem(await client.get(other.url), 'security:authorization');
    // Upstream names the key in Pascal case ('ContactUniqueId', 4.0's 'ParentUniqueId').
    const valueName = contacts.key.charAt(0).toUpperCase() + contacts.key.slice(1);
    await check('data.errors.errors-entry-wording', `the errors entry names the claims and the '${valueName}' value as upstream does`, () => expectRelationshipEntry(problem, valueName));
  });

  test('answers a student-school association naming a missing student with 409, not 403, for a relationship-based caller', rule('data.references.missing-student-in-association-409'), async ({ api, as, data }) => {
    const client = as('schoolLimited');
    const schoolId = await ownSchool(api, data);
    const body = await data.body('studentSchoolAssociation', { studentReference: { studentUniqueId: 'no-such-student-0002' }, schoolReference: { schoolId } });
    await expectProblem(await client.post('studentSchoolAssociations', body), 'data-conflict:unresolved-reference');
  });
});

/**
 * Records tied to an education organization, one per way the tie is made (decision 43: the rule
 * names schools and organizations): through a school reference (classPeriod) and through an
 * education organization reference (course). Each is refused outside the caller's claims on every
 * method, and allowed on every method for the caller's own school (so the refusals are the claims').
 */
const CLAIM_SHAPES = [
  { resource: 'classPeriod', via: 'schoolReference', own: (schoolId: number) => ({ schoolReference: { schoolId } }) },
  { resource: 'course', via: 'educationOrganizationReference', own: (schoolId: number) => ({ educationOrganizationReference: { educationOrganizationId: schoolId } }) },
].map((s) => ({ ...s, endpoint: resourceOf(s.resource).endpoint }));
for (const s of CLAIM_SHAPES) {
  if (!resourceOf(s.resource).securable.educationOrganization.includes(`$.${s.via}.${Object.keys(Object.values(s.own(0))[0])[0]}`)) throw new Error(`authorization.spec: ${s.resource} is not secured through ${s.via}`);
}

/** A 403 for data outside the caller's claims: status for the claims rule, type and title for the errors rule. */
async function expectOutsideClaims(res: HttpResponse, what: string): Promise<void> {
  expect(res.status(), `${what}: ${(await res.text()).slice(0, 300)}`).toBe(403);
  await check('data.errors.authorization-denied-type', `${what}: security:authorization (or a type under it), titled Authorization Denied`, () => expectProblemUnder(res, 'security:authorization'));
}

test.describe('education organization claims', () => {
  for (const shape of CLAIM_SHAPES) {
    test(`answers 403 to reading, updating and deleting a ${shape.resource} of a school outside the caller's claims (tied through ${shape.via}), and the record stays`, rule('data.authorization.edorg-claims-limit-access-403', 'data.errors.authorization-denied-type'), async ({ api, as, data }) => {
      const client = as('schoolLimited');
      const created = await data.create(shape.resource);
      await expectOutsideClaims(await client.get(created.url), `GET ${shape.endpoint}/{id}`);
      await expectOutsideClaims(await client.put(created.url, created.body), `PUT ${shape.endpoint}/{id}`);
      await expectOutsideClaims(await client.delete(created.url), `DELETE ${shape.endpoint}/{id}`);
      expect((await api.get(created.url)).status(), 'the record is still there').toBe(200);
    });

    test(`answers 403 to creating a ${shape.resource} for a school outside the caller's claims (tied through ${shape.via}), storing nothing`, rule('data.authorization.edorg-claims-limit-access-403', 'data.errors.authorization-denied-type'), async ({ api, as, data }) => {
      const client = as('schoolLimited');
      const body = await data.body(shape.resource);
      await expectOutsideClaims(await client.post(shape.endpoint, body), `POST ${shape.endpoint}`);
      const query = Object.entries(keysOf(resourceOf(shape.resource), body)).map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`).join('&');
      expect(await (await api.get(`${shape.endpoint}?${query}`)).json(), 'nothing stored').toEqual([]);
    });

    test(`lets the caller create, read, update and delete a ${shape.resource} of its own school (tied through ${shape.via})`, rule('data.authorization.edorg-claims-limit-access-403'), async ({ api, as, data }) => {
      const client = as('schoolLimited');
      const schoolId = await ownSchool(api, data);
      const body = await data.body(shape.resource, shape.own(schoolId));
      const url = await createAs(client, api, shape.endpoint, body);
      expect((await client.get(url)).status(), `GET ${shape.endpoint}/{id}`).toBe(200);
      expect((await client.put(url, body)).status(), `PUT ${shape.endpoint}/{id}`).toBe(204);
      expect((await client.delete(url)).status(), `DELETE ${shape.endpoint}/{id}`).toBe(204);
    });
  }

  // An organization is tied to itself: a school outside the claims may be neither created nor
  // changed nor deleted by the caller. (Reads are left alone: upstream lets any caller read
  // education organizations.) The new school names no parent organization.
  test('answers 403 to creating, updating and deleting a school outside the caller\'s claims, and stores or changes nothing', rule('data.authorization.edorg-claims-limit-access-403', 'data.errors.authorization-denied-type'), async ({ api, as, data }) => {
    const client = as('schoolLimited');
    const body = await data.body('school');
    await expectOutsideClaims(await client.post('schools', body), 'POST schools');
    expect(await (await api.get(`schools?schoolId=${body.schoolId}`)).json(), 'nothing stored').toEqual([]);
    const school = await data.school();
    await expectOutsideClaims(await client.put(school.url, { ...school.body, nameOfInstitution: 'Changed by another school' }), 'PUT schools/{id}');
    await expectOutsideClaims(await client.delete(school.url), 'DELETE schools/{id}');
    const stored = await api.get(school.url);
    expect(stored.status(), 'the school is still there').toBe(200);
    expect(((await stored.json()) as { nameOfInstitution: string }).nameOfInstitution, 'unchanged').toBe(school.body.nameOfInstitution);
  });

  test('lists a class period of the caller\'s own school in a collection read, so the claims, not the route, leave the others out', rule('data.authorization.edorg-claims-limit-access-403'), async ({ api, as, data }) => {
    const client = as('schoolLimited');
    const schoolId = await ownSchool(api, data);
    const body = await data.body('classPeriod', { schoolReference: { schoolId } });
    const url = await createAs(client, api, 'classPeriods', body);
    const query = Object.entries(keysOf(resourceOf('classPeriod'), body)).map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`).join('&');
    const res = await client.get(`classPeriods?${query}`);
    expect(res.status(), await res.text()).toBe(200);
    expect(((await res.json()) as { id: string }[]).map((r) => r.id)).toContain(url.split('/').pop());
  });

  test('words the 403 for data outside the claims as upstream does: the claims and the value\'s name', rule('data.errors.detail-wording', 'data.errors.errors-entry-wording'), async ({ as, data }) => {
    const client = as('schoolLimited');
    const problem = await expectProblem(await client.get((await data.create('classPeriod')).url), 'security:authorization');
    expect(problem.detail).toBe('Access to the requested data could not be authorized.');
    const [entry] = problem.errors ?? [];
    const m = /^No relationships have been established between the caller's education organization id claim\(s\) \(([^)]*)\) and the resource item's 'SchoolId' value\.$/.exec(entry ?? '');
    expect(m, entry).toBeTruthy();
    // The claims in any order; upstream abbreviates a list of more than five with '...'.
    const ids = capability('schoolLimited').schoolIds.map(String);
    if (ids.length <= 5) expect(m![1].split(', ').sort()).toEqual([...ids].sort());
  });

  test('leaves class periods of schools outside the caller\'s claims out of a collection read', rule('data.authorization.edorg-claims-limit-access-403'), async ({ api, as, data }) => {
    // The collection route as well as the item route: a 403, or a list without the record, never the record.
    const client = as('schoolLimited');
    const period = await data.create('classPeriod');
    const query = Object.entries(period.keys).map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`).join('&');
    expect(((await (await api.get(`classPeriods?${query}`)).json()) as { id: string }[]).map((r) => r.id), 'the query finds the class period for the primary client').toContain(period.id);
    const res = await client.get(`classPeriods?${query}`);
    if (res.status() === 200) expect(((await res.json()) as { id: string }[]).map((r) => r.id)).not.toContain(period.id);
    else await expectProblem(res, 'security:authorization');
  });
});

test.describe('education organization claims in token_info', () => {
  test('names each organization of the caller\'s claims that exists in education_organizations by its id, name_of_institution and type', rule('data.token.token-info'), async ({ api, data, request }) => {
    // Here rather than in suites/token: the school-limited client's school has a fixed id, and the
    // tests of this file that store it run one after the other (research §4 for the members).
    const schoolId = await ownSchool(api, data);
    const [school] = (await (await api.get(`schools?schoolId=${schoolId}`)).json()) as { nameOfInstitution: string }[];
    expect(school, `school ${schoolId} is stored`).toBeDefined();
    const token = clientToken('schoolLimited');
    const res = await request.post(`${target.dataApi.baseUrl}/oauth/token_info`, { headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, data: JSON.stringify({ token }) });
    expect(res.status(), await res.text()).toBe(200);
    const entries = ((await res.json()) as { education_organizations?: Record<string, unknown>[] }).education_organizations ?? [];
    const entry = entries.find((e) => Number(e.education_organization_id) === schoolId);
    expect(entry, `an entry for ${schoolId} among ${JSON.stringify(entries)}`).toBeDefined();
    expect(entry!.name_of_institution, 'name_of_institution').toBe(school.nameOfInstitution);
    // A discriminator naming the organization's kind, upstream's `edfi.School`.
    expect(entry!.type, 'type').toMatch(/(^|\.)School$/);
  });
});

test.describe('namespace prefixes', () => {
  test('refuses a write whose namespace starts with none of the caller\'s prefixes with 403 namespace-mismatch', rule('data.authorization.namespace-mismatch-403', 'data.errors.detail-wording'), async ({ api, as, data }) => {
    capability('namespaceLimited');
    const body = await data.body('assessment', { educationOrganizationReference: undefined });
    const problem = await expectProblem(await as('namespaceLimited').post('assessments', body), 'security:authorization:namespace:access-denied:namespace-mismatch');
    // Upstream's detail begins so (research api-guidelines.md, Authorization); what follows varies.
    await check('data.errors.detail-wording', 'the detail says the namespace does not start with any of the caller\'s prefixes, as upstream does', () => expect(problem.detail ?? '').toMatch(/^Access to the requested data could not be authorized\. The 'Namespace' value of the data does not start with any of the caller's associated namespace prefixes/));
    expect(await (await api.get(`assessments?assessmentIdentifier=${encodeURIComponent(body.assessmentIdentifier as string)}`)).json()).toEqual([]);
  });

  test('refuses a namespace that contains one of the caller\'s prefixes but does not start with it', rule('data.authorization.namespace-mismatch-403'), async ({ api, as, data }) => {
    // Starts-with, not contains or ends-with: the prefix later in the value does not count.
    const { namespacePrefix } = capability('namespaceLimited');
    for (const namespace of [`uri://elsewhere.test/${namespacePrefix}`, `x${namespacePrefix}/assessments`]) {
      const body = await data.body('assessment', { educationOrganizationReference: undefined, namespace });
      await expectProblem(await as('namespaceLimited').post('assessments', body), 'security:authorization:namespace:access-denied:namespace-mismatch');
      expect(await (await api.get(`assessments?assessmentIdentifier=${encodeURIComponent(body.assessmentIdentifier as string)}`)).json(), namespace).toEqual([]);
    }
  });

  test('accepts a write whose namespace starts with one of the caller\'s prefixes', rule('data.authorization.namespace-prefix-match-allowed'), async ({ api, as, data }) => {
    const { namespacePrefix } = capability('namespaceLimited');
    const body = await data.body('assessment', { educationOrganizationReference: undefined, namespace: `${namespacePrefix}/assessments/${Date.now()}` });
    await createAs(as('namespaceLimited'), api, 'assessments', body);
  });
});

/**
 * A 403 of a permission-set family (seed Errors, the 403 authorization row): status, a type in the
 * family and the row's title for the test's own rule; the problem-details members and the
 * content type for the errors rules that state them.
 */
async function expectDenied(res: HttpResponse, family: 'resource' | 'action'): Promise<void> {
  const text = await res.text();
  const what = `${res.url().replace(/^.*\/data\/v3\//, '')}: ${text.slice(0, 300)}`;
  expect(res.status(), what).toBe(403);
  const body = JSON.parse(text) as Record<string, unknown>;
  const root = `${target.dataApi.errorTypePrefix}security:authorization:access-denied:${family}`;
  const type = String(body.type);
  expect(type === root || type.startsWith(`${root}:`), `type ${type} in the family ${root}`).toBe(true);
  expect(body.title, 'the title of the seed\'s 403 authorization row').toBe('Authorization Denied');
  await check('data.errors.problem-details-shape', 'type, title, detail and correlationId are strings, status is 403', () => {
    for (const member of ['type', 'title', 'detail', 'correlationId']) expect(typeof body[member], `${member} of ${what}`).toBe('string');
    expect(body.status, what).toBe(403);
  });
  await check('data.errors.content-type-json-utf8', 'served as application/json; charset=utf-8', () => expectProblemContentType(res));
}

test.describe('permission sets', () => {
  test('refuses a resource the client\'s permission set does not grant with 403 access-denied:resource', rule('data.authorization.permission-set-resource-denied-403', 'data.errors.problem-details-shape', 'data.errors.content-type-json-utf8'), async ({ as }) => {
    const limits = capability('permissionLimits');
    await expectDenied(await as(limits.client).get(`${limits.deniedResource}?limit=1`), 'resource');
  });

  test('refuses a resource the permission set does not grant on the item route and on writes, storing nothing', rule('data.authorization.permission-set-resource-denied-403', 'data.errors.problem-details-shape', 'data.errors.content-type-json-utf8'), async ({ api, as, data }) => {
    // Both sides and both routes: the collection read is refused above; so are the item read, create, update and delete.
    const limits = capability('permissionLimits');
    const client = as(limits.client);
    const name = resourceOf(limits.deniedResource).name;
    const body = await data.body(name);
    await expectDenied(await client.post(limits.deniedResource, body), 'resource');
    const created = await data.create(name);
    await expectDenied(await client.get(created.url), 'resource');
    await expectDenied(await client.put(created.url, created.body), 'resource');
    await expectDenied(await client.delete(created.url), 'resource');
    expect((await api.get(created.url)).status(), 'the record is still there').toBe(200);
  });

  test('refuses an action the client\'s permission set does not grant with 403 access-denied:action', rule('data.authorization.permission-set-action-denied-403', 'data.errors.problem-details-shape', 'data.errors.content-type-json-utf8'), async ({ as, data }) => {
    const limits = capability('permissionLimits');
    const client = as(limits.client);
    expect((await client.get(`${limits.readOnlyResource}?limit=1`)).status()).toBe(200);
    const body = await data.body(resourceOf(limits.readOnlyResource).name);
    await expectDenied(await client.post(limits.readOnlyResource, body), 'action');
  });

  test('refuses an update and a delete the read-only permission set does not grant, on a record another client wrote', rule('data.authorization.permission-set-action-denied-403', 'data.errors.problem-details-shape', 'data.errors.content-type-json-utf8'), async ({ api, as, data }) => {
    // Both sides of write: create is refused above; update and delete need a record to exist.
    const limits = capability('permissionLimits');
    const client = as(limits.client);
    const created = await data.create(resourceOf(limits.readOnlyResource).name);
    expect((await client.get(created.url)).status(), 'the record is readable to the client').toBe(200);
    await expectDenied(await client.put(created.url, created.body), 'action');
    await expectDenied(await client.delete(created.url), 'action');
    expect((await api.get(created.url)).status(), 'the record is still there').toBe(200);
  });

  test('lets the unrestricted permission set read a new student without any association', rule('data.authorization.unrestricted-permission-set'), async ({ api, as, data }) => {
    const role = capability('unrestrictedClient');
    const client = role === 'primary' ? api : as(role);
    const url = await createAs(client, api, 'students', await data.body('student'));
    expect((await client.get(url)).status()).toBe(200);
  });

  test('lets the unrestricted permission set write any namespace', rule('data.authorization.unrestricted-permission-set'), async ({ api, as, data }) => {
    const role = capability('unrestrictedClient');
    const client = role === 'primary' ? api : as(role);
    const foreign = `uri://elsewhere.example/${Date.now()}`;
    expect(foreign.startsWith(target.testData.namespacePrefix)).toBe(false);
    await createAs(client, api, 'assessments', await data.body('assessment', { namespace: foreign }));
  });
});
