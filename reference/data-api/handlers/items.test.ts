import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startForTest } from '../../tests/helpers.js';

/**
 * Upsert, read, replace and delete of one item, and the shared front half of POST and PUT
 * (seed rules 1 to 4; decisions #11, #14), in process. The Playwright families upsert, put,
 * delete, etag and validation test the same against any target; this file is the fast test
 * command of `npm run mutation` for upsert.ts, item.ts and write-body.ts.
 */
type Ref = Awaited<ReturnType<typeof startForTest>>;
let ref: Ref;
const NS = 'uri://items.example';
const GRADE = `${NS}/GradeLevelDescriptor#Ninth grade`;
const CATEGORY = `${NS}/EducationOrganizationCategoryDescriptor#School`;

const post = (endpoint: string, body: unknown, headers: Record<string, string> = {}) => ref.data(endpoint, { method: 'POST', body: typeof body === 'string' ? body : JSON.stringify(body), headers });
const put = (endpoint: string, body: unknown, headers: Record<string, string> = {}) => ref.data(endpoint, { method: 'PUT', body: typeof body === 'string' ? body : JSON.stringify(body), headers });
const school = (schoolId: number, name = `School ${schoolId}`) => ({ schoolId, nameOfInstitution: name, educationOrganizationCategories: [{ educationOrganizationCategoryDescriptor: CATEGORY }], gradeLevels: [{ gradeLevelDescriptor: GRADE }] });
const student = (id: string, firstName = 'Ada') => ({ studentUniqueId: id, firstName, lastSurname: 'Lovelace', birthDate: '2010-01-02' });
const idOf = (res: Response) => res.headers.get('location')!.split('/').pop()!;
async function created(res: Response): Promise<string> {
  assert.equal(res.status, 201, await res.clone().text());
  return idOf(res);
}

const tokens: Record<string, string> = {};
const as = (client: string, method: string, endpoint: string, body?: unknown) => fetch(`${ref.dataApiBaseUrl}/data/v3/core/${endpoint}`, {
  method, headers: { Authorization: `Bearer ${tokens[client]}`, 'Content-Type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }),
});

before(async () => {
  // On 5.2, whose organization ids are int64: the widest integers the handlers read.
  ref = await startForTest({
    dataStandard: '5.2',
    profiles: [{ name: 'Limited', resources: { students: { read: { exclude: ['birthDate'] }, write: { exclude: ['lastSurname'] } }, schools: { write: { exclude: ['webSite'] } } } }],
    clients: [
      { key: 'prof', secret: 's', profiles: ['Limited'] },
      { key: 'test', secret: 'test-secret' },
      { key: 'ns', secret: 's', permissionSet: 'namespace-based', namespacePrefixes: [NS] },
      { key: 'rel', secret: 's', permissionSet: 'relationship-based', educationOrganizationIds: [1] },
    ],
  });
  for (const key of ['ns', 'rel', 'prof']) {
    const res = await fetch(`${ref.dataApiBaseUrl}/oauth/token`, { method: 'POST', headers: { Authorization: `Basic ${Buffer.from(`${key}:s`).toString('base64')}`, 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'grant_type=client_credentials' });
    tokens[key] = ((await res.json()) as { access_token: string }).access_token;
  }
  await created(await post('gradeLevelDescriptors', { namespace: `${NS}/GradeLevelDescriptor`, codeValue: 'Ninth grade', shortDescription: 'Ninth grade' }));
  await created(await post('educationOrganizationCategoryDescriptors', { namespace: `${NS}/EducationOrganizationCategoryDescriptor`, codeValue: 'School', shortDescription: 'School' }));
});
after(async () => { await ref.close(); });

test('POST creates (201) then updates by natural key (200): absolute Location without a trailing slash, ETag, empty body', async () => {
  assert.match((await post('students//', student('S-0'))).headers.get('location')!, new RegExp(`^${ref.dataApiBaseUrl}/data/v3/core/students/[0-9a-f]{32}$`), 'trailing slashes dropped');
  const first = await post('students/', student('S-1'));
  assert.equal(first.status, 201);
  const id = idOf(first);
  assert.match(id, /^[0-9a-f]{32}$/);
  assert.equal(first.headers.get('location'), `${ref.dataApiBaseUrl}/data/v3/core/students/${id}`);
  assert.equal(first.headers.get('content-type'), null);
  assert.equal(first.headers.get('content-length'), '0');
  assert.equal(await first.text(), '');
  const etag = first.headers.get('etag')!;
  assert.equal(etag, `"${ref.store.collection('student').byId.get(id)!.etag}"`);

  const same = await post('students', student('S-1'));
  assert.deepEqual([same.status, same.headers.get('location'), same.headers.get('etag'), await same.text()], [200, first.headers.get('location'), etag, ''], 'identical content changes nothing');
  const changed = await post('students', student('S-1', 'Ada Augusta'));
  assert.equal(changed.status, 200);
  assert.equal(idOf(changed), id);
  assert.notEqual(changed.headers.get('etag'), etag);
  assert.equal(changed.headers.get('etag'), `"${ref.store.collection('student').byId.get(id)!.etag}"`);
  assert.equal(ref.store.collection('student').byId.get(id)!.doc.firstName, 'Ada Augusta');

  // If-Match applies to the update of an existing key.
  const stale = await post('students', student('S-1', 'Other'), { 'If-Match': etag });
  assert.equal(stale.status, 412);
  assert.equal(ref.store.collection('student').byId.get(id)!.doc.firstName, 'Ada Augusta');
  assert.equal((await post('students', student('S-1', 'Other'), { 'If-Match': changed.headers.get('etag')! })).status, 200);
});

test('POST refuses a client-assigned id, a body that is not an object, and a foreign media type', async () => {
  const withId = await post('students', { ...student('S-2'), id: 'abc' });
  assert.equal(withId.status, 400);
  const body = (await withId.json()) as { type: string; detail: string; errors: string[] };
  assert.match(body.type, /bad-request:data-validation-failed$/);
  assert.equal(body.detail, 'The request data was constructed incorrectly.');
  assert.deepEqual(body.errors, ["Resource identifiers cannot be assigned by the client. The 'id' property should not be included in the request body."]);
  assert.equal(ref.store.collection('student').byKey.size, 2, 'nothing created');
  for (const bad of ['[]', '"x"', '7', 'null']) {
    const res = await post('students', bad);
    assert.equal(res.status, 400, bad);
    const problem = (await res.json()) as { type: string; validationErrors: Record<string, string[]> };
    assert.match(problem.type, /data-validation-failed$/, bad);
    assert.deepEqual(problem.validationErrors.$, ['The request body must be a JSON object.'], bad);
  }
  assert.equal((await post('students', '[{"id":"x"}]')).status, 400, 'an array with an id is not an object with one');
  assert.equal((await post('students', student('S-2'), { 'Content-Type': 'text/plain' })).status, 415);
});

test('integers beyond int64 are refused in int64 members by name and ignored in unknown members, every failure reported at once', async () => {
  const raw = (schoolId: string, name = '"x"', category = CATEGORY) => `{"schoolId":${schoolId},"nameOfInstitution":${name},"educationOrganizationCategories":[{"educationOrganizationCategoryDescriptor":"${category}"}],"gradeLevels":[{"gradeLevelDescriptor":"${GRADE}"}]}`;
  const res = await post('schools', raw('9223372036854775808'));
  assert.equal(res.status, 400);
  const problem = (await res.json()) as { validationErrors: Record<string, string[]> };
  assert.deepEqual(problem.validationErrors['$.schoolId'], ['schoolId Value is outside the range of int64.']);
  const low = await post('schools', raw('-9223372036854775809'));
  assert.deepEqual(((await low.json()) as { validationErrors: Record<string, string[]> }).validationErrors['$.schoolId'], ['schoolId Value is outside the range of int64.']);
  const min = await post('schools', raw('-9223372036854775808'));
  const minText = await min.text();
  assert.ok(!minText.includes('outside the range of int64'), `the smallest int64 is in range: ${minText}`);
  // A big integer in an unknown member is ignored with the member (decisions #16), nested or
  // not; where a string belongs it is refused as the wrong type.
  const nested = await post('schools', `{"x":[[1,9223372036854775808]],${raw('1').slice(1, -1)}}`.replace('"nameOfInstitution":"x"', '"nameOfInstitution":9223372036854775808'));
  const nestedErrors = ((await nested.json()) as { validationErrors: Record<string, string[]> }).validationErrors;
  assert.deepEqual(Object.keys(nestedErrors), ['$.nameOfInstitution'], JSON.stringify(nestedErrors));
  assert.match(nestedErrors['$.nameOfInstitution'][0], /^The value 9223372036854775808 is not valid for nameOfInstitution; expected string\.$/);
  const wide = await post('schools', `{"y":[0,1,2,3,4,5,6,7,8,9,10,9223372036854775808,-1e30],${raw('255977').slice(1)}`);
  assert.equal(wide.status, 201, await wide.text());
  // The largest int64 is a value like any other (then refused only if the schema refuses it).
  const max = await post('schools', raw('9223372036854775807'));
  const maxText = await max.text();
  assert.ok(!maxText.includes('outside the range of int64'), maxText);
  // Schema errors, an unknown descriptor and a big integer together.
  const many = await post('schools', raw('9223372036854775808', '5', `${NS}/EducationOrganizationCategoryDescriptor#Nope`));
  assert.equal(many.status, 400);
  const errors = ((await many.json()) as { validationErrors: Record<string, string[]> }).validationErrors;
  assert.deepEqual(Object.keys(errors).sort(), ['$.educationOrganizationCategories[0].educationOrganizationCategoryDescriptor', '$.nameOfInstitution', '$.schoolId'], JSON.stringify(errors));
  assert.deepEqual(errors['$.educationOrganizationCategories[0].educationOrganizationCategoryDescriptor'].length, 1, JSON.stringify(errors));
  assert.match(errors['$.educationOrganizationCategories[0].educationOrganizationCategoryDescriptor'][0], /EducationOrganizationCategoryDescriptor#Nope/);
});

test('GET by id: the document with its ETag and its length in bytes; If-None-Match 304; 404 with its detail', async () => {
  const id = await created(await post('schools', school(255901, 'École 255901')));
  const res = await ref.data(`schools/${id}`);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'application/json; charset=utf-8');
  const etag = res.headers.get('etag')!;
  assert.equal(etag, `"${ref.store.collection('school').byId.get(id)!.etag}"`);
  const text = await res.text();
  // Framed by its length (bytes, not characters), not chunked.
  assert.equal(res.headers.get('content-length'), String(Buffer.byteLength(text)));
  assert.equal(res.headers.get('transfer-encoding'), null);
  const doc = JSON.parse(text) as Record<string, unknown>;
  assert.equal(doc.id, id);
  assert.equal(doc.nameOfInstitution, 'École 255901');
  const cached = await ref.data(`schools/${id}`, { headers: { 'If-None-Match': etag } });
  assert.equal(cached.status, 304);
  assert.equal(cached.headers.get('etag'), etag);
  assert.equal((await ref.data(`schools/${id}`, { headers: { 'If-None-Match': '"other"' } })).status, 200);
  const missing = await ref.data(`schools/${'0'.repeat(32)}`);
  assert.equal(missing.status, 404);
  assert.equal(((await missing.json()) as { detail: string }).detail, 'The specified item could not be found.');
});

test('PUT replaces: 204 with ETag and Location; key changes only where updatable; If-Match; 404 with its detail', async () => {
  const sid = await created(await post('students', student('S-3')));
  const etag0 = `"${ref.store.collection('student').byId.get(sid)!.etag}"`;
  const same = await put(`students/${sid}`, { ...student('S-3'), id: 'ignored' });
  assert.equal(same.status, 204);
  assert.equal(same.headers.get('etag'), etag0, 'identical content: same ETag');
  assert.equal(same.headers.get('location'), `${ref.dataApiBaseUrl}/data/v3/core/students/${sid}`);
  const stale = await put(`students/${sid}`, student('S-3', 'Grace'), { 'If-Match': '"stale"' });
  assert.equal(stale.status, 412);
  const ok = await put(`students/${sid}`, student('S-3', 'Grace'), { 'If-Match': etag0 });
  assert.equal(ok.status, 204);
  assert.notEqual(ok.headers.get('etag'), etag0);
  assert.equal(ok.headers.get('etag'), `"${ref.store.collection('student').byId.get(sid)!.etag}"`);
  assert.equal(ref.store.collection('student').byId.get(sid)!.doc.firstName, 'Grace');

  const keyChange = await put(`students/${sid}`, student('S-4'));
  assert.equal(keyChange.status, 400);
  const kc = (await keyChange.json()) as { type: string; detail: string };
  assert.match(kc.type, /key-change-not-supported$/);
  assert.equal(kc.detail, 'Identifying values for the Student data cannot be changed. Delete and recreate the item instead.');

  // classPeriod is updatable: its key may change, but not onto another item's key.
  await created(await post('schools', school(255902)));
  const p1 = await created(await post('classPeriods', { schoolReference: { schoolId: 255902 }, classPeriodName: 'P1' }));
  await created(await post('classPeriods', { schoolReference: { schoolId: 255902 }, classPeriodName: 'P2' }));
  const conflict = await put(`classPeriods/${p1}`, { schoolReference: { schoolId: 255902 }, classPeriodName: 'P2' });
  assert.equal(conflict.status, 409);
  const c = (await conflict.json()) as { type: string; errors: string[] };
  assert.match(c.type, /data-conflict:non-unique-identity$/);
  assert.deepEqual(c.errors, ['A natural key conflict occurred when attempting to update the resource ClassPeriod: another item already has the identifying values schoolId = 255902, classPeriodName = "P2".']);
  const renamed = await put(`classPeriods/${p1}`, { schoolReference: { schoolId: 255902 }, classPeriodName: 'P3' });
  assert.equal(renamed.status, 204);
  assert.equal(ref.store.collection('classPeriod').byId.get(p1)!.doc.classPeriodName, 'P3');

  const missing = await put(`students/${'0'.repeat(32)}`, student('S-9'));
  assert.equal(missing.status, 404);
  assert.equal(((await missing.json()) as { detail: string }).detail, 'Resource to update was not found.');
  assert.equal((await put(`students/${sid}`, '[]')).status, 400, 'the body is checked before the item is looked up');
  assert.equal((await put(`students/${'0'.repeat(32)}`, '[]')).status, 400);
});

test('descriptors keep their descriptor id through POST updates and PUT; new ones take the next', async () => {
  const body = { namespace: `${NS}/GradeLevelDescriptor`, codeValue: 'Tenth grade', shortDescription: 'Tenth' };
  const id = await created(await post('gradeLevelDescriptors', body));
  const descriptorId = ref.store.collection('gradeLevelDescriptor').byId.get(id)!.doc.gradeLevelDescriptorId;
  assert.equal(typeof descriptorId, 'number');
  assert.equal((await post('gradeLevelDescriptors', { ...body, shortDescription: 'Tenth!' })).status, 200);
  assert.equal(ref.store.collection('gradeLevelDescriptor').byId.get(id)!.doc.gradeLevelDescriptorId, descriptorId);
  assert.equal((await put(`gradeLevelDescriptors/${id}`, { ...body, shortDescription: 'Tenth?' })).status, 204);
  assert.equal(ref.store.collection('gradeLevelDescriptor').byId.get(id)!.doc.gradeLevelDescriptorId, descriptorId);
  assert.equal(ref.store.collection('gradeLevelDescriptor').byId.get(id)!.doc.shortDescription, 'Tenth?');
  const next = await created(await post('gradeLevelDescriptors', { ...body, codeValue: 'Eleventh grade' }));
  const nextId = ref.store.collection('gradeLevelDescriptor').byId.get(next)!.doc.gradeLevelDescriptorId as number;
  assert.ok(nextId > (descriptorId as number), `${nextId} after ${descriptorId}`);
});

test('the action each method asks authorization for', async () => {
  const denied = async (res: Response, action: string, resource: string) => {
    assert.equal(res.status, 403, action);
    assert.deepEqual(((await res.json()) as { errors: string[] }).errors, [`The API client's permission set does not allow the '${action}' action on the '${resource}' resource.`]);
  };
  const descriptor = { namespace: `${NS}/GradeLevelDescriptor`, codeValue: 'Auth', shortDescription: 'Auth' };
  await denied(await as('rel', 'POST', 'gradeLevelDescriptors', descriptor), 'Create', 'GradeLevelDescriptor');
  const id = await created(await post('gradeLevelDescriptors', descriptor));
  await denied(await as('rel', 'POST', 'gradeLevelDescriptors', descriptor), 'Update', 'GradeLevelDescriptor');
  await denied(await as('rel', 'PUT', `gradeLevelDescriptors/${id}`, descriptor), 'Update', 'GradeLevelDescriptor');
  await denied(await as('rel', 'DELETE', `gradeLevelDescriptors/${id}`), 'Delete', 'GradeLevelDescriptor');
  assert.equal((await as('rel', 'GET', `gradeLevelDescriptors/${id}`)).status, 200, 'read');
  // A namespace-based client reads (only reads) resources without a namespace.
  const schoolId = await created(await post('schools', school(255920)));
  assert.equal((await as('ns', 'GET', `schools/${schoolId}`)).status, 200);
  // A new person is a Create (allowed), the same key again an Update (refused, out of reach).
  assert.equal((await as('rel', 'POST', 'students', student('S-rel'))).status, 201);
  assert.equal((await as('rel', 'POST', 'students', student('S-rel', 'Again'))).status, 403);
});

test('profiles: the covering media type is required in each direction, and each view applies', async () => {
  const W = 'application/vnd.core.student.limited.writable+json';
  const R = 'application/vnd.core.student.limited.readable+json';
  const id = await created(await post('students', student('S-prof')));
  const send = (body: unknown, type?: string) => fetch(`${ref.dataApiBaseUrl}/data/v3/core/students`, { method: 'POST', headers: { Authorization: `Bearer ${tokens.prof}`, 'Content-Type': type ?? 'application/json' }, body: JSON.stringify(body) });
  const write = await send(student('S-prof', 'Changed'));
  assert.equal(write.status, 403);
  assert.deepEqual(((await write.json()) as { errors: string[] }).errors, [`The caller's profile 'Limited' covers the 'Student' resource: use ${W}.`]);
  assert.equal((await send({ ...student('S-prof', 'Changed'), lastSurname: 'Excluded' }, W)).status, 200);
  const stored = ref.store.collection('student').byId.get(id)!.doc;
  assert.deepEqual([stored.firstName, stored.lastSurname], ['Changed', 'Lovelace'], 'the excluded member kept from the stored document');
  // A new record through a view without a required member would be stored without it: refused.
  const created2 = await send(student('S-prof-new'), W);
  assert.equal(created2.status, 400, 'a new record through a writable view that leaves out a required member');
  assert.deepEqual(((await created2.json()) as { validationErrors: unknown }).validationErrors, { '$.lastSurname': ['lastSurname is required.'] });
  // A view that keeps every required member creates.
  const newSchool = await fetch(`${ref.dataApiBaseUrl}/data/v3/core/schools`, { method: 'POST', headers: { Authorization: `Bearer ${tokens.prof}`, 'Content-Type': 'application/vnd.core.school.limited.writable+json' }, body: JSON.stringify({ ...school(255960), webSite: 'https://excluded.example' }) });
  assert.equal(newSchool.status, 201, await newSchool.clone().text());
  assert.equal('webSite' in ref.store.collection('school').byId.get(idOf(newSchool))!.doc, false);
  const read = (accept?: string) => fetch(`${ref.dataApiBaseUrl}/data/v3/core/students/${id}`, { headers: { Authorization: `Bearer ${tokens.prof}`, ...(accept ? { Accept: accept } : {}) } });
  const plain = await read();
  assert.equal(plain.status, 403);
  assert.deepEqual(((await plain.json()) as { errors: string[] }).errors, [`The caller's profile 'Limited' covers the 'Student' resource: use ${R}.`]);
  const viewed = await read(R);
  assert.equal(viewed.status, 200);
  assert.equal(viewed.headers.get('content-type'), `${R}; charset=utf-8`);
  const doc = (await viewed.json()) as Record<string, unknown>;
  assert.equal('birthDate' in doc, false);
  assert.equal(doc.firstName, 'Changed');
});

test('education organization ids are unique across member types (409 on create only)', async () => {
  // A record of another kind whose identity is the same number is no education organization.
  assert.equal((await post('schoolYearTypes', { schoolYear: 2031, currentSchoolYear: false, schoolYearDescription: '2030-2031' })).status, 201);
  assert.equal((await post('schools', school(2031))).status, 201);
  await created(await post('schools', school(255903)));
  const res = await post('stateEducationAgencies', { stateEducationAgencyId: 255903, nameOfInstitution: 'SEA', categories: [{ educationOrganizationCategoryDescriptor: CATEGORY }] });
  assert.equal(res.status, 409);
  const body = (await res.json()) as { type: string; detail: string; errors: string[] };
  assert.match(body.type, /data-conflict:non-unique-identity$/);
  assert.equal(body.detail, 'The identifying value(s) of the item are the same as another item that already exists.');
  assert.deepEqual(body.errors, ['A natural key conflict occurred when attempting to create a new resource StateEducationAgency with a duplicate key. The duplicated educationOrganizationId is 255903, already used by a School.']);
  assert.equal((await post('schools', school(255903, 'Renamed'))).status, 200, 'the same member type updates');
  assert.equal((await post('stateEducationAgencies', { stateEducationAgencyId: 255904, nameOfInstitution: 'SEA', categories: [{ educationOrganizationCategoryDescriptor: CATEGORY }] })).status, 201);
});

test('DELETE: 404 with its detail, 409 while referenced, If-Match, then 204 and gone', async () => {
  const sid = await created(await post('schools', school(255905)));
  const pid = await created(await post('classPeriods', { schoolReference: { schoolId: 255905 }, classPeriodName: 'P1' }));
  const referenced = await ref.data(`schools/${sid}`, { method: 'DELETE' });
  assert.equal(referenced.status, 409);
  const body = (await referenced.json()) as { type: string; detail: string };
  assert.match(body.type, /data-conflict:dependent-item-exists$/);
  assert.equal(body.detail, 'The requested action cannot be performed because this item is referenced by existing ClassPeriod item(s).');
  const lid = await created(await post('locations', { schoolReference: { schoolId: 255905 }, classroomIdentificationCode: 'R1' }));
  const both = (await (await ref.data(`schools/${sid}`, { method: 'DELETE' })).json()) as { detail: string };
  assert.equal(both.detail, 'The requested action cannot be performed because this item is referenced by existing ClassPeriod, Location item(s).');
  assert.equal((await ref.data(`locations/${lid}`, { method: 'DELETE' })).status, 204);
  assert.equal((await ref.data(`classPeriods/${pid}`, { method: 'DELETE', headers: { 'If-Match': '"stale"' } })).status, 412);
  assert.ok(ref.store.collection('classPeriod').byId.get(pid), 'kept after 412');
  const etag = `"${ref.store.collection('classPeriod').byId.get(pid)!.etag}"`;
  assert.equal((await ref.data(`classPeriods/${pid}`, { method: 'DELETE', headers: { 'If-Match': etag } })).status, 204);
  assert.equal((await ref.data(`schools/${sid}`, { method: 'DELETE' })).status, 204);
  assert.equal((await ref.data(`schools/${sid}`)).status, 404);
  const missing = await ref.data(`schools/${sid}`, { method: 'DELETE' });
  assert.equal(missing.status, 404);
  assert.equal(((await missing.json()) as { detail: string }).detail, 'Resource to delete was not found.');
});
