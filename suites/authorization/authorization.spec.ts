import { test, expect, target } from '../_harness/data.js';
import { capability } from '../_harness/capabilities.js';
import { expectProblemFamily, messagesOf } from '../_harness/checks.js';
import { resourceOf, type Builder } from '../_harness/builders.js';
import type { DataClient } from '../_harness/fixtures.js';
import { expectProblem } from '../_harness/problem.js';
import { check, rule } from '../_harness/rules.js';

/**
 * Authorization after authentication (seed: Authentication; decisions #21, #22): permission sets,
 * namespace prefixes, education-organization claims and person relationships. Each test acts as
 * a client role the target names (not applicable otherwise); the school-limited client's school
 * has a fixed id, so those tests run one after the other.
 */
test.describe.configure({ mode: 'default' });

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

test.describe('person records and relationships', () => {
  test('answers 403 to a relationship-based caller reading a student it just created, until an association exists', rule('data.authorization.new-person-not-accessible-403', 'data.errors.authorization-denied-type'), async ({ api, as, data }) => {
    const client = as('schoolLimited');
    const url = await createAs(client, api, 'students', await data.body('student'));
    await expectProblem(await client.get(url), 'security:authorization');
  });

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

  test('answers 403 to a relationship-based caller reading a staff member no association links to it', rule('data.authorization.person-relationship-required-403'), async ({ as, data }) => {
    const client = as('schoolLimited');
    const staff = await data.create('staff');
    await expectProblem(await client.get(staff.url), 'security:authorization');
  });

  // The other two kinds of person the rule names: staff through a staff association to the
  // caller's school, a contact (DS 5's parent) through a student-contact association to a student
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

  test('makes a contact readable (200) once a student-contact association links it to a student of the caller\'s school, hinting at it before', rule('data.authorization.person-accessible-after-association', 'data.authorization.relationship-hint'), async ({ api, as, data }) => {
    const client = as('schoolLimited');
    const schoolId = await ownSchool(api, data);
    const student = await data.create('student');
    await createAs(client, api, 'studentSchoolAssociations', await data.body('studentSchoolAssociation', { studentReference: { studentUniqueId: student.body.studentUniqueId }, schoolReference: { schoolId } }));
    const contact = await data.create('contact');
    const before = await expectProblem(await client.get(contact.url), 'security:authorization');
    await check('data.authorization.relationship-hint', 'the 403 names the student-contact association to create', () => expect(messagesOf(before).join(' ')).toMatch(/StudentContactAssociation/));
    await createAs(client, api, 'studentContactAssociations', await data.body('studentContactAssociation', { studentReference: { studentUniqueId: student.body.studentUniqueId }, contactReference: { contactUniqueId: contact.body.contactUniqueId } }));
    expect((await client.get(contact.url)).status()).toBe(200);
  });

  test('answers a student-school association naming a missing student with 409, not 403, for a relationship-based caller', rule('data.references.missing-student-in-association-409'), async ({ api, as, data }) => {
    const client = as('schoolLimited');
    const schoolId = await ownSchool(api, data);
    const body = await data.body('studentSchoolAssociation', { studentReference: { studentUniqueId: 'no-such-student-0002' }, schoolReference: { schoolId } });
    await expectProblem(await client.post('studentSchoolAssociations', body), 'data-conflict:unresolved-reference');
  });
});

test.describe('education organization claims', () => {
  test('answers 403 to reading a class period of a school outside the caller\'s claims', rule('data.authorization.edorg-claims-limit-access-403'), async ({ as, data }) => {
    const client = as('schoolLimited');
    const period = await data.create('classPeriod');
    await expectProblem(await client.get(period.url), 'security:authorization');
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

  test('answers 403 to writing a class period for a school outside the caller\'s claims', rule('data.authorization.edorg-claims-limit-access-403'), async ({ as, data }) => {
    const client = as('schoolLimited');
    const body = await data.body('classPeriod');
    await expectProblem(await client.post('classPeriods', body), 'security:authorization');
  });

  test('lets the caller write a class period of its own school', rule('data.authorization.edorg-claims-limit-access-403'), async ({ api, as, data }) => {
    const client = as('schoolLimited');
    const schoolId = await ownSchool(api, data);
    await createAs(client, api, 'classPeriods', await data.body('classPeriod', { schoolReference: { schoolId } }));
  });
});

test.describe('namespace prefixes', () => {
  test('refuses a write whose namespace starts with none of the caller\'s prefixes with 403 namespace-mismatch', rule('data.authorization.namespace-mismatch-403'), async ({ api, as, data }) => {
    capability('namespaceLimited');
    const body = await data.body('assessment', { educationOrganizationReference: undefined });
    await expectProblem(await as('namespaceLimited').post('assessments', body), 'security:authorization:namespace:access-denied:namespace-mismatch');
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

test.describe('permission sets', () => {
  test('refuses a resource the client\'s permission set does not grant with 403 access-denied:resource', rule('data.authorization.permission-set-resource-denied-403'), async ({ as }) => {
    const limits = capability('permissionLimits');
    await expectProblemFamily(await as(limits.client).get(`${limits.deniedResource}?limit=1`), 403, 'security:authorization:access-denied:resource');
  });

  test('refuses a resource the permission set does not grant on the item route and on writes, storing nothing', rule('data.authorization.permission-set-resource-denied-403'), async ({ api, as, data }) => {
    // Both sides and both routes: the collection read is refused above; so are the item read, create, update and delete.
    const limits = capability('permissionLimits');
    const client = as(limits.client);
    const name = resourceOf(limits.deniedResource).name;
    const body = await data.body(name);
    await expectProblemFamily(await client.post(limits.deniedResource, body), 403, 'security:authorization:access-denied:resource');
    const created = await data.create(name);
    await expectProblemFamily(await client.get(created.url), 403, 'security:authorization:access-denied:resource');
    await expectProblemFamily(await client.put(created.url, created.body), 403, 'security:authorization:access-denied:resource');
    await expectProblemFamily(await client.delete(created.url), 403, 'security:authorization:access-denied:resource');
    expect((await api.get(created.url)).status(), 'the record is still there').toBe(200);
  });

  test('refuses an action the client\'s permission set does not grant with 403 access-denied:action', rule('data.authorization.permission-set-action-denied-403'), async ({ as, data }) => {
    const limits = capability('permissionLimits');
    const client = as(limits.client);
    expect((await client.get(`${limits.readOnlyResource}?limit=1`)).status()).toBe(200);
    const body = await data.body(resourceOf(limits.readOnlyResource).name);
    await expectProblemFamily(await client.post(limits.readOnlyResource, body), 403, 'security:authorization:access-denied:action');
  });

  test('refuses an update and a delete the read-only permission set does not grant, on a record another client wrote', rule('data.authorization.permission-set-action-denied-403'), async ({ api, as, data }) => {
    // Both sides of write: create is refused above; update and delete need a record to exist.
    const limits = capability('permissionLimits');
    const client = as(limits.client);
    const created = await data.create(resourceOf(limits.readOnlyResource).name);
    expect((await client.get(created.url)).status(), 'the record is readable to the client').toBe(200);
    await expectProblemFamily(await client.put(created.url, created.body), 403, 'security:authorization:access-denied:action');
    await expectProblemFamily(await client.delete(created.url), 403, 'security:authorization:access-denied:action');
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
