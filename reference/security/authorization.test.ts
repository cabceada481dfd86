import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startReference, type RunningReference } from '../server.js';

/**
 * Authorization after authentication (seed: Authentication; decisions #21, #22) for the
 * namespace-based and relationship-based permission sets, in process. Records are put straight
 * into the store (this file is about who may see and write them, not how they were written).
 * The Playwright authorization family tests the same against any target; this file is the fast
 * test command of `npm run mutation` for authorization.ts.
 */
let ref: RunningReference;
const tokens: Record<string, string> = {};
const NS = 'uri://auth.example';
const CATEGORY = `${NS}/EducationOrganizationCategoryDescriptor#School`;
const GRADE = `${NS}/GradeLevelDescriptor#Ninth`;

const put = (name: string, doc: Record<string, unknown>) => ref.store.create(ref.store.model.byName.get(name)!, doc).id;
const call = (client: string, method: string, path: string, body?: unknown) => fetch(`${ref.dataApiBaseUrl}/data/v3/core/${path}`, {
  method, headers: { Authorization: `Bearer ${tokens[client]}`, 'Content-Type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }),
});
const problem = async (res: Response) => ({ status: res.status, ...((await res.json()) as { type: string; detail?: string; errors?: string[] }) });
const school = (schoolId: number, lea?: number) => ({ schoolId, nameOfInstitution: `S${schoolId}`, educationOrganizationCategories: [{ educationOrganizationCategoryDescriptor: CATEGORY }], gradeLevels: [{ gradeLevelDescriptor: GRADE }], ...(lea ? { localEducationAgencyReference: { localEducationAgencyId: lea } } : {}) });
const ids: Record<string, string> = {};

before(async () => {
  ref = await startReference({
    overrides: {
      port: 0, rosteringPort: 0, warmValidators: false,
      // Contacts and their associations, as 5.2 names them (4.0's parents: data-standards-persons.test.ts).
      dataStandard: '5.2',
      clients: [
        { key: 'all', secret: 's' },
        { key: 'ns', secret: 's', permissionSet: 'namespace-based', namespacePrefixes: [`${NS}/a`, `${NS}/b`] },
        { key: 'rel', secret: 's', permissionSet: 'relationship-based', educationOrganizationIds: [255900] },
        { key: 'many', secret: 's', permissionSet: 'relationship-based', educationOrganizationIds: [1, 2, 3, 4, 5, 6] },
        { key: 'none', secret: 's', permissionSet: 'relationship-based' },
        { key: 'five', secret: 's', permissionSet: 'relationship-based', educationOrganizationIds: [1, 2, 3, 4, 5] },
      ],
    },
  });
  for (const key of ['all', 'ns', 'rel', 'many', 'none', 'five']) {
    const res = await fetch(`${ref.dataApiBaseUrl}/oauth/token`, { method: 'POST', headers: { Authorization: `Basic ${Buffer.from(`${key}:s`).toString('base64')}`, 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'grant_type=client_credentials' });
    tokens[key] = ((await res.json()) as { access_token: string }).access_token;
  }
  const descriptor = (name: string, code: string, ns = NS) => put(name, { namespace: `${ns}/${name.charAt(0).toUpperCase()}${name.slice(1)}`, codeValue: code, shortDescription: code });
  descriptor('educationOrganizationCategoryDescriptor', 'School');
  descriptor('gradeLevelDescriptor', 'Ninth');
  ids.descA = descriptor('academicSubjectDescriptor', 'A', `${NS}/a`);
  ids.descC = descriptor('academicSubjectDescriptor', 'C', `${NS}/c`);
  ids.lea = put('localEducationAgency', { localEducationAgencyId: 255900, nameOfInstitution: 'LEA' });
  descriptor('localEducationAgencyCategoryDescriptor', 'Independent');
  descriptor('absenceEventCategoryDescriptor', 'Sick');
  // A child LEA with one parent in reach and one (a state agency) out of it.
  ids.twoParents = put('localEducationAgency', { localEducationAgencyId: 255961, nameOfInstitution: 'LEA2', parentLocalEducationAgencyReference: { localEducationAgencyId: 255900 }, stateEducationAgencyReference: { stateEducationAgencyId: 255999 } });
  // A grandchild stored before its parent: reach grows over more than one pass.
  ids.grandchild = put('localEducationAgency', { localEducationAgencyId: 255962, nameOfInstitution: 'LEA3', parentLocalEducationAgencyReference: { localEducationAgencyId: 255963 } });
  put('localEducationAgency', { localEducationAgencyId: 255963, nameOfInstitution: 'LEA4', parentLocalEducationAgencyReference: { localEducationAgencyId: 255900 } });
  ids.greatGrandchild = put('school', school(255966, 255962));
  ids.inReach = put('school', school(255901, 255900));
  ids.outOfReach = put('school', school(255902));
  ids.studentIn = put('student', { studentUniqueId: 'in', firstName: 'I', lastSurname: 'N', birthDate: '2010-01-01' });
  ids.studentOut = put('student', { studentUniqueId: 'out', firstName: 'O', lastSurname: 'T', birthDate: '2010-01-01' });
  put('studentSchoolAssociation', { studentReference: { studentUniqueId: 'in' }, schoolReference: { schoolId: 255901 }, entryDate: '2025-08-20', entryGradeLevelDescriptor: GRADE });
  put('studentSchoolAssociation', { studentReference: { studentUniqueId: 'out' }, schoolReference: { schoolId: 255902 }, entryDate: '2025-08-20', entryGradeLevelDescriptor: GRADE });
  ids.staffIn = put('staff', { staffUniqueId: 'staff-in', firstName: 'S', lastSurname: 'I' });
  put('staffEducationOrganizationAssignmentAssociation', { staffReference: { staffUniqueId: 'staff-in' }, educationOrganizationReference: { educationOrganizationId: 255901 }, staffClassificationDescriptor: 'x', beginDate: '2025-01-01' });
  ids.staffOut = put('staff', { staffUniqueId: 'staff-out', firstName: 'S', lastSurname: 'O' });
  ids.contactIn = put('contact', { contactUniqueId: 'contact-in', firstName: 'C', lastSurname: 'I' });
  ids.contactOut = put('contact', { contactUniqueId: 'contact-out', firstName: 'C', lastSurname: 'O' });
  put('studentContactAssociation', { studentReference: { studentUniqueId: 'in' }, contactReference: { contactUniqueId: 'contact-in' } });
  put('studentContactAssociation', { studentReference: { studentUniqueId: 'out' }, contactReference: { contactUniqueId: 'contact-out' } });
  // A record naming a student that is not itself an association (reach is computed beside it).
  put('restraintEvent', { restraintEventIdentifier: 'r1', eventDate: '2025-09-01', studentReference: { studentUniqueId: 'in' }, schoolReference: { schoolId: 255901 } });
  // A descriptor without a namespace (only possible straight in the store): no prefix matches it.
  ids.descNone = put('academicSubjectDescriptor', { codeValue: 'N', shortDescription: 'N' });
  // Records about a staff member that are no association: reached only through the staff member.
  ids.absenceIn = put('staffAbsenceEvent', { eventDate: '2025-09-01', absenceEventCategoryDescriptor: `${NS}/AbsenceEventCategoryDescriptor#Sick`, staffReference: { staffUniqueId: 'staff-in' } });
  ids.absenceOut = put('staffAbsenceEvent', { eventDate: '2025-09-01', absenceEventCategoryDescriptor: `${NS}/AbsenceEventCategoryDescriptor#Sick`, staffReference: { staffUniqueId: 'staff-out' } });
});
after(async () => { await ref.close(); });

test('unrestricted: everything', async () => {
  assert.equal((await call('all', 'POST', 'academicSubjectDescriptors', { namespace: `${NS}/z/AcademicSubjectDescriptor`, codeValue: 'U', shortDescription: 'U' })).status, 201, 'writes descriptors');
  assert.equal((await call('all', 'POST', 'students', { studentUniqueId: 'u', firstName: 'U', lastSurname: 'U', birthDate: '2010-01-01' })).status, 201, 'writes persons');
  for (const [path, id] of [['students', ids.studentOut], ['schools', ids.outOfReach], ['academicSubjectDescriptors', ids.descC]]) {
    assert.equal((await call('all', 'GET', `${path}/${id}`)).status, 200, path);
  }
  assert.equal(((await (await call('all', 'GET', 'schools')).json()) as unknown[]).length, 3);
});

test('namespace-based: descriptors under its prefixes, read-only elsewhere, no person records', async () => {
  assert.equal((await call('ns', 'GET', `academicSubjectDescriptors/${ids.descA}`)).status, 200);
  const other = await problem(await call('ns', 'GET', `academicSubjectDescriptors/${ids.descC}`));
  assert.equal(other.status, 403);
  assert.match(other.type, /security:authorization:namespace:access-denied:namespace-mismatch$/);
  assert.equal(other.detail, `Access to the requested data could not be authorized. The 'Namespace' value of the data does not start with any of the caller's associated namespace prefixes ('${NS}/a', '${NS}/b').`);
  assert.equal((await call('ns', 'GET', `academicSubjectDescriptors/${ids.descNone}`)).status, 403, 'no namespace');
  const listed = (await (await call('ns', 'GET', 'academicSubjectDescriptors')).json()) as { codeValue: string }[];
  assert.deepEqual(listed.map((d) => d.codeValue), ['A'], 'the collection shows only its namespaces');
  assert.equal((await call('ns', 'POST', 'academicSubjectDescriptors', { namespace: `${NS}/b/AcademicSubjectDescriptor`, codeValue: 'B', shortDescription: 'B' })).status, 201);
  assert.equal((await call('ns', 'POST', 'academicSubjectDescriptors', { namespace: `${NS}/c/AcademicSubjectDescriptor`, codeValue: 'C2', shortDescription: 'C' })).status, 403);
  assert.equal((await call('ns', 'POST', 'academicSubjectDescriptors', { namespace: `x${NS}/a/AcademicSubjectDescriptor`, codeValue: 'X', shortDescription: 'X' })).status, 403, 'a prefix, not a substring');
  // Resources without a namespace: readable, not writable.
  assert.equal((await call('ns', 'GET', `schools/${ids.outOfReach}`)).status, 200);
  const write = await problem(await call('ns', 'PUT', `schools/${ids.outOfReach}`, school(255902)));
  assert.equal(write.status, 403);
  assert.match(write.type, /security:authorization:access-denied:action$/);
  assert.deepEqual(write.errors, ["The API client's permission set does not allow the 'Update' action on the 'School' resource."]);
  assert.equal((await call('ns', 'DELETE', `schools/${ids.outOfReach}`)).status, 403);
  // Person records: not even readable.
  for (const [method, path] of [['GET', `students/${ids.studentIn}`], ['GET', 'students'], ['DELETE', `students/${ids.studentIn}`]]) {
    const denied = await problem(await call('ns', method, path));
    assert.equal(denied.status, 403, `${method} ${path}`);
    assert.match(denied.type, /security:authorization:access-denied:resource$/);
    assert.deepEqual(denied.errors, ["The API client's permission set does not include the 'Student' resource."]);
  }
  const create = await problem(await call('ns', 'POST', 'students', { studentUniqueId: 'n', firstName: 'N', lastSurname: 'S', birthDate: '2010-01-01' }));
  assert.equal(create.status, 403);
  assert.match(create.type, /access-denied:resource$/);
});

test('relationship-based: organizations down the hierarchy from its claims', async () => {
  assert.equal((await call('rel', 'GET', `localEducationAgencies/${ids.lea}`)).status, 200);
  assert.equal((await call('rel', 'GET', `schools/${ids.inReach}`)).status, 200, 'a school under the claimed LEA');
  const out = await problem(await call('rel', 'GET', `schools/${ids.outOfReach}`));
  assert.equal(out.status, 403);
  assert.match(out.type, /security:authorization$/);
  assert.equal(out.detail, 'Access to the requested data could not be authorized.');
  assert.deepEqual(out.errors, ["No relationships have been established between the caller's education organization id claim(s) (255900) and the resource item's 'SchoolId' value."]);
  const listed = (await (await call('rel', 'GET', 'schools')).json()) as { schoolId: number }[];
  assert.deepEqual(listed.map((s) => s.schoolId), [255966, 255901]);
  // A new organization within reach (its parent is) may be created; one outside may not.
  assert.equal((await call('rel', 'POST', 'schools', school(255903, 255900))).status, 201);
  assert.equal((await call('rel', 'GET', 'schools')).status, 200);
  assert.equal(((await (await call('rel', 'GET', 'schools')).json()) as unknown[]).length, 3, 'the new school is within reach at once');
  assert.equal((await call('rel', 'POST', 'schools', school(255904))).status, 403);
  assert.equal((await call('rel', 'POST', 'schools', school(255905, 255999))).status, 403);
  // Records naming organizations: each named one must be within reach.
  assert.equal((await call('rel', 'POST', 'classPeriods', { schoolReference: { schoolId: 255901 }, classPeriodName: 'P1' })).status, 201);
  const foreign = await problem(await call('rel', 'POST', 'classPeriods', { schoolReference: { schoolId: 255902 }, classPeriodName: 'P1' }));
  assert.equal(foreign.status, 403);
  assert.deepEqual(foreign.errors, ["No relationships have been established between the caller's education organization id claim(s) (255900) and the resource item's 'SchoolId' value."]);
  // Unsecured resources (descriptors) are read-only.
  assert.equal((await call('rel', 'GET', `academicSubjectDescriptors/${ids.descC}`)).status, 200);
  const write = await problem(await call('rel', 'POST', 'academicSubjectDescriptors', { namespace: `${NS}/a/AcademicSubjectDescriptor`, codeValue: 'R', shortDescription: 'R' }));
  assert.equal(write.status, 403);
  assert.deepEqual(write.errors, ["The API client's permission set does not allow the 'Create' action on the 'AcademicSubjectDescriptor' resource."]);
});

test('relationship-based: the hierarchy through any one parent, over several passes; absent optional references', async () => {
  assert.equal((await call('rel', 'GET', `localEducationAgencies/${ids.twoParents}`)).status, 200, 'one parent in reach suffices');
  assert.equal((await call('rel', 'GET', `localEducationAgencies/${ids.grandchild}`)).status, 200, 'a grandchild stored before its parent');
  assert.equal((await call('rel', 'GET', `schools/${ids.greatGrandchild}`)).status, 200, 'a school under that grandchild');
  // A new LEA under a claimed one, with other (absent) parent references: created.
  const lea = (id: number, parent: number) => ({ localEducationAgencyId: id, nameOfInstitution: `L${id}`, localEducationAgencyCategoryDescriptor: `${NS}/LocalEducationAgencyCategoryDescriptor#Independent`, categories: [{ educationOrganizationCategoryDescriptor: CATEGORY }], parentLocalEducationAgencyReference: { localEducationAgencyId: parent } });
  assert.equal((await call('rel', 'POST', 'localEducationAgencies', lea(255964, 255900))).status, 201);
  assert.equal((await call('rel', 'POST', 'localEducationAgencies', lea(255965, 255998))).status, 403);
  // An association without its optional graduation plan reference is judged by its school alone.
  const associations = (await (await call('rel', 'GET', 'studentSchoolAssociations')).json()) as { studentReference: { studentUniqueId: string } }[];
  assert.deepEqual(associations.map((a) => a.studentReference.studentUniqueId), ['in']);
});

test('relationship-based: records about a person that are no association need the person in reach', async () => {
  assert.equal((await call('rel', 'GET', `staffAbsenceEvents/${ids.absenceIn}`)).status, 200);
  const out = await problem(await call('rel', 'GET', `staffAbsenceEvents/${ids.absenceOut}`));
  assert.equal(out.status, 403);
  assert.equal(out.detail, "Access to the requested data could not be authorized. Hint: You may need to create corresponding 'StaffEducationOrganizationEmploymentAssociation' or 'StaffEducationOrganizationAssignmentAssociation' items.");
  // Writable: secured by a person, though by no organization.
  const event = (staff: string) => ({ eventDate: '2025-09-02', absenceEventCategoryDescriptor: `${NS}/AbsenceEventCategoryDescriptor#Sick`, staffReference: { staffUniqueId: staff } });
  assert.equal((await call('rel', 'POST', 'staffAbsenceEvents', event('staff-in'))).status, 201);
  assert.equal((await call('rel', 'POST', 'staffAbsenceEvents', event('staff-out'))).status, 403);
  // An optional person reference left out asks nothing of the person; one naming a person out of reach denies.
  const section = { localCourseCode: 'c', schoolId: 255901, schoolYear: 2025, sessionName: 's', sectionIdentifier: 'x' };
  const taken = (eventDate: string, staff?: string) => put('sectionAttendanceTakenEvent', { sectionReference: section, calendarDateReference: { calendarCode: 'c', date: '2025-09-01', schoolId: 255901, schoolYear: 2025 }, eventDate, ...(staff ? { staffReference: { staffUniqueId: staff } } : {}) });
  assert.equal((await call('rel', 'GET', `sectionAttendanceTakenEvents/${taken('2025-09-01')}`)).status, 200, 'without its optional staff reference');
  assert.equal((await call('rel', 'GET', `sectionAttendanceTakenEvents/${taken('2025-09-02', 'staff-in')}`)).status, 200);
  assert.equal((await call('rel', 'GET', `sectionAttendanceTakenEvents/${taken('2025-09-03', 'staff-out')}`)).status, 403);
});

test('relationship-based: persons only through an association, contacts through a student', async () => {
  assert.equal((await call('rel', 'GET', `students/${ids.studentIn}`)).status, 200);
  const student = await problem(await call('rel', 'GET', `students/${ids.studentOut}`));
  assert.equal(student.status, 403);
  assert.equal(student.detail, "Access to the requested data could not be authorized. Hint: You may need to create a corresponding 'StudentSchoolAssociation' item.");
  assert.deepEqual(student.errors, ["No relationships have been established between the caller's education organization id claim(s) (255900) and the resource item's 'StudentUniqueId' value."]);
  assert.equal((await call('rel', 'GET', `staffs/${ids.staffIn}`)).status, 200);
  const staff = await problem(await call('rel', 'GET', `staffs/${ids.staffOut}`));
  assert.equal(staff.status, 403);
  assert.equal(staff.detail, "Access to the requested data could not be authorized. Hint: You may need to create corresponding 'StaffEducationOrganizationEmploymentAssociation' or 'StaffEducationOrganizationAssignmentAssociation' items.");
  assert.deepEqual(staff.errors, ["No relationships have been established between the caller's education organization id claim(s) (255900) and the resource item's 'StaffUniqueId' value."]);
  assert.equal((await call('rel', 'GET', `contacts/${ids.contactIn}`)).status, 200);
  const contact = await problem(await call('rel', 'GET', `contacts/${ids.contactOut}`));
  assert.equal(contact.status, 403);
  assert.equal(contact.detail, "Access to the requested data could not be authorized. Hint: You may need to create a corresponding 'StudentContactAssociation' item.");
  assert.deepEqual(contact.errors, ["No relationships have been established between the caller's education organization id claim(s) (255900) and the resource item's 'ContactUniqueId' value."]);
  const students = (await (await call('rel', 'GET', 'students')).json()) as { studentUniqueId: string }[];
  assert.deepEqual(students.map((s) => s.studentUniqueId), ['in']);
  // A new person may be created (out of reach until associated); its update is then refused.
  assert.equal((await call('rel', 'POST', 'students', { studentUniqueId: 'new', firstName: 'N', lastSurname: 'W', birthDate: '2010-01-01' })).status, 201);
  assert.equal((await call('rel', 'POST', 'students', { studentUniqueId: 'new', firstName: 'N2', lastSurname: 'W', birthDate: '2010-01-01' })).status, 403);
  // Records about a person need the person within reach too (the association creating it excepted).
  assert.equal((await call('rel', 'POST', 'studentSchoolAssociations', { studentReference: { studentUniqueId: 'new' }, schoolReference: { schoolId: 255901 }, entryDate: '2025-08-21', entryGradeLevelDescriptor: GRADE })).status, 201);
  assert.equal((await call('rel', 'GET', 'students?studentUniqueId=new')).status, 200);
  assert.equal(((await (await call('rel', 'GET', 'students?studentUniqueId=new')).json()) as unknown[]).length, 1, 'reached once associated');
});

test('the claims in the message: none, or the first five then an ellipsis', async () => {
  const many = await problem(await call('many', 'GET', `schools/${ids.outOfReach}`));
  assert.deepEqual(many.errors, ["No relationships have been established between the caller's education organization id claim(s) (1, 2, 3, 4, 5, ...) and the resource item's 'SchoolId' value."]);
  const five = await problem(await call('five', 'GET', `schools/${ids.outOfReach}`));
  assert.deepEqual(five.errors, ["No relationships have been established between the caller's education organization id claim(s) (1, 2, 3, 4, 5) and the resource item's 'SchoolId' value."]);
  const none = await problem(await call('none', 'GET', `schools/${ids.outOfReach}`));
  assert.deepEqual(none.errors, ["No relationships have been established between the caller's education organization id claim(s) (none) and the resource item's 'SchoolId' value."]);
});
