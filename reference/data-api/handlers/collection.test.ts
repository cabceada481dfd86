import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startForTest } from '../../tests/helpers.js';
import { decodeToken, encodeToken } from './cursor.js';

/**
 * Collection reads (seed: Query and paging; decisions #13, #15, #29): query reading and its
 * refusals, filters, both paging modes and their headers, partitions, change-version windows,
 * the visibility filter, and the deletes and keyChanges feeds, in process. The Playwright
 * families query-paging and change-queries test the same against any target; this file is the
 * fast test command of `npm run mutation` for collection.ts.
 */
type Ref = Awaited<ReturnType<typeof startForTest>>;
let ref: Ref;
const NS = 'uri://collection.example/AcademicSubjectDescriptor';
const OTHER = 'uri://collection.example/Other/AcademicSubjectDescriptor';
const ids: string[] = [];
let limitedToken: string;
let profileToken: string;

const get = (path: string, token?: string) => token
  ? fetch(`${ref.dataApiBaseUrl}/data/v3/core/${path}`, { headers: { Authorization: `Bearer ${token}` } })
  : ref.data(path);
const codes = async (res: Response) => ((await res.json()) as { codeValue: string }[]).map((d) => d.codeValue);
const errorsOf = async (res: Response) => {
  assert.equal(res.status, 400);
  const body = (await res.json()) as { type: string; detail: string; errors: string[] };
  assert.match(body.type, /bad-request:parameter-validation-failed$/);
  assert.equal(body.detail, 'The request construction was invalid.');
  return body.errors;
};
const createdOf = (id: string) => ref.store.collection('academicSubjectDescriptor').byId.get(id)!.created;

before(async () => {
  // On 5.2, whose organization ids are int64 (filters past 2^53).
  ref = await startForTest({
    dataStandard: '5.2',
    pageSizeLimit: 6,
    profiles: [{ name: 'Codes', resources: { academicSubjectDescriptors: { read: { exclude: ['shortDescription'] } } } }],
    clients: [
      { key: 'test', secret: 'test-secret' },
      { key: 'limited', secret: 'limited-secret', permissionSet: 'relationship-based', educationOrganizationIds: [255901] },
      { key: 'prof', secret: 'prof-secret', profiles: ['Codes'] },
    ],
  });
  // d0..d7 in NS, o0..o1 in OTHER, in this creation order: d0 d1 o0 d2 ... so filters and paging differ.
  const order = ['d0', 'd1', 'o0', 'd2', 'd3', 'o1', 'd4', 'd5', 'd6', 'd7'];
  for (const code of order) {
    const res = await ref.data('academicSubjectDescriptors', { method: 'POST', body: JSON.stringify({ codeValue: code, namespace: code.startsWith('o') ? OTHER : NS, shortDescription: code === 'd3' ? 'third' : 'x' }) });
    assert.equal(res.status, 201);
    if (code.startsWith('d')) ids.push(res.headers.get('location')!.split('/').pop()!);
  }
  const res = await fetch(`${ref.dataApiBaseUrl}/oauth/token`, { method: 'POST', headers: { Authorization: `Basic ${Buffer.from('limited:limited-secret').toString('base64')}`, 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'grant_type=client_credentials' });
  limitedToken = ((await res.json()) as { access_token: string }).access_token;
  const prof = await fetch(`${ref.dataApiBaseUrl}/oauth/token`, { method: 'POST', headers: { Authorization: `Basic ${Buffer.from('prof:prof-secret').toString('base64')}`, 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'grant_type=client_credentials' });
  profileToken = ((await prof.json()) as { access_token: string }).access_token;
});
after(async () => { await ref.close(); });

test('no filter: creation order, limit and offset, Total-Count, Next-Page-Token of every non-empty page', async () => {
  const all = await get('academicSubjectDescriptors');
  assert.equal(all.status, 200);
  assert.equal(all.headers.get('content-type'), 'application/json; charset=utf-8');
  assert.deepEqual(await codes(all), ['d0', 'd1', 'o0', 'd2', 'd3', 'o1'], 'the page size limit is the default limit');
  assert.equal(all.headers.get('total-count'), null);
  const page = await get('academicSubjectDescriptors?offset=2&limit=3&totalCount=true');
  assert.deepEqual(await codes(page), ['o0', 'd2', 'd3']);
  assert.equal(page.headers.get('total-count'), '10');
  assert.deepEqual(decodeToken(page.headers.get('next-page-token')!), { after: createdOf(ids[3]) });
  const last = await get('academicSubjectDescriptors?offset=8&limit=6&totalCount=true');
  assert.deepEqual(await codes(last), ['d6', 'd7']);
  const past = await get('academicSubjectDescriptors?offset=10&totalCount=true');
  assert.deepEqual(await codes(past), []);
  assert.equal(past.headers.get('total-count'), '10');
  assert.equal(past.headers.get('next-page-token'), null, 'an empty page has no next token');
  assert.deepEqual(await codes(await get('academicSubjectDescriptors?limit=0')), []);
  assert.deepEqual(await codes(await get('academicSubjectDescriptors?limit=6&offset=0')), ['d0', 'd1', 'o0', 'd2', 'd3', 'o1']);
});

test('filters: one (indexed) or several; totals and pages over the matches; id in its usual spellings', async () => {
  const ns = encodeURIComponent(NS);
  const one = await get(`academicSubjectDescriptors?namespace=${ns}&offset=1&limit=2&totalCount=true`);
  assert.deepEqual(await codes(one), ['d1', 'd2']);
  assert.equal(one.headers.get('total-count'), '8');
  const two = await get(`academicSubjectDescriptors?namespace=${ns}&shortDescription=x&offset=1&limit=2&totalCount=true`);
  assert.deepEqual(await codes(two), ['d1', 'd2']);
  assert.equal(two.headers.get('total-count'), '7');
  assert.deepEqual(await codes(await get(`academicSubjectDescriptors?shortDescription=x&namespace=${ns}&offset=2&limit=2`)), ['d2', 'd4'], 'without totalCount, the same page');
  assert.deepEqual(await codes(await get(`academicSubjectDescriptors?shortDescription=x&namespace=${ns}&offset=6&limit=2`)), ['d7']);
  assert.deepEqual(await codes(await get(`academicSubjectDescriptors?shortDescription=third&namespace=${encodeURIComponent(OTHER)}`)), []);
  assert.deepEqual(await codes(await get(`academicSubjectDescriptors?codeValue=d3&namespace=${ns}`)), ['d3']);
  assert.deepEqual(await codes(await get(`academicSubjectDescriptors?namespace=${ns}&codeValue=o0`)), []);
  assert.deepEqual(await codes(await get(`academicSubjectDescriptors?id=${ids[2]}`)), ['d2']);
  assert.deepEqual(await codes(await get(`academicSubjectDescriptors?id=${ids[2].toUpperCase()}`)), ['d2']);
  assert.deepEqual(await codes(await get(`academicSubjectDescriptors?codeValue=d2&id=${ids[2]}`)), ['d2'], 'id as the second filter');
  assert.deepEqual(await codes(await get(`academicSubjectDescriptors?codeValue=d3&id=${ids[2]}`)), []);
  assert.equal((await get('academicSubjectDescriptors?id=not-an-id')).status, 400);
  // Filter names in any case.
  assert.deepEqual(await codes(await get(`academicSubjectDescriptors?CODEVALUE=d3&NameSpace=${ns}`)), ['d3']);
});

test('query refusals: each named once, every one at once, repeated names in any case', async () => {
  assert.deepEqual(await errorsOf(await get('academicSubjectDescriptors?limit=1&limit=2')), ["The query parameter 'limit' must be supplied at most once."]);
  assert.deepEqual(await errorsOf(await get('academicSubjectDescriptors?limit=1&LIMIT=2')), ["The query parameter 'limit' must be supplied at most once."]);
  for (const limit of ['7', '-1', 'x', '1.5']) {
    assert.deepEqual(await errorsOf(await get(`academicSubjectDescriptors?limit=${limit}`)), ['Limit must be omitted or set to a value between 0 and 6.'], limit);
  }
  for (const offset of ['-1', 'x']) {
    assert.deepEqual(await errorsOf(await get(`academicSubjectDescriptors?offset=${offset}`)), ['Offset must be greater than or equal to 0.'], offset);
  }
  assert.deepEqual(await errorsOf(await get('academicSubjectDescriptors?offset=-1&limit=x')), ['Offset must be greater than or equal to 0.', 'Limit must be omitted or set to a value between 0 and 6.']);
  const unknown = await errorsOf(await get('academicSubjectDescriptors?nosuch=1'));
  assert.equal(unknown.length, 1);
  assert.ok(!unknown[0].startsWith('Offset') && !unknown[0].startsWith('Limit'), unknown[0]);
  assert.equal((await get('academicSubjectDescriptors?correlationId=abc&limit=1')).status, 200, 'correlationId is no filter');
  assert.equal((await get('academicSubjectDescriptors?totalCount=TRUE')).headers.get('total-count'), '10', 'booleans in any case');
  assert.equal((await get('academicSubjectDescriptors?totalCount=False')).headers.get('total-count'), null);
  assert.deepEqual(await errorsOf(await get('academicSubjectDescriptors?pageToken=%21%21')), ['The pageToken is not valid.']);
  const token = encodeToken({ after: 0 });
  for (const size of ['0', '7', 'x']) {
    assert.deepEqual(await errorsOf(await get(`academicSubjectDescriptors?pageToken=${token}&pageSize=${size}`)), ['PageSize must be omitted or set to a value between 1 and 6.'], size);
  }
  assert.deepEqual(await errorsOf(await get(`academicSubjectDescriptors?pageToken=${token}&limit=2`)), ['Use pageSize instead of limit when using cursor paging with pageToken.']);
  assert.deepEqual(await errorsOf(await get('academicSubjectDescriptors?pageSize=2')), ['PageToken is required when pageSize is specified.']);
});

test('cursor paging: pageSize from the token\'s position, a partition\'s end kept in the next token', async () => {
  const first = await get(`academicSubjectDescriptors?pageToken=${encodeToken({ after: 0 })}&pageSize=4`);
  assert.deepEqual(await codes(first), ['d0', 'd1', 'o0', 'd2']);
  const next = first.headers.get('next-page-token')!;
  assert.deepEqual(decodeToken(next), { after: createdOf(ids[2]) });
  assert.deepEqual(await codes(await get(`academicSubjectDescriptors?pageToken=${next}&pageSize=4`)), ['d3', 'o1', 'd4', 'd5']);
  assert.deepEqual(await codes(await get(`academicSubjectDescriptors?pageToken=${next}`)), ['d3', 'o1', 'd4', 'd5', 'd6', 'd7'], 'pageSize omitted: the page size limit');
  assert.deepEqual(await codes(await get(`academicSubjectDescriptors?pageToken=${encodeToken({ after: 0 })}`)), ['d0', 'd1', 'o0', 'd2', 'd3', 'o1'], 'pageSize omitted, from the start');
  assert.deepEqual(await codes(await get(`academicSubjectDescriptors?pageToken=${encodeToken({ after: 0 })}&pageSize=1`)), ['d0'], 'the smallest page size');
  assert.deepEqual(await codes(await get(`academicSubjectDescriptors?pageToken=${encodeToken({ after: 0 })}&pageSize=6&namespace=${encodeURIComponent(NS)}&shortDescription=x`)), ['d0', 'd1', 'd2', 'd4', 'd5', 'd6'], 'two filters');
  const ranged = await get(`academicSubjectDescriptors?pageToken=${encodeToken({ after: createdOf(ids[0]), until: createdOf(ids[3]) })}&pageSize=2`);
  assert.deepEqual(await codes(ranged), ['d1', 'o0']);
  assert.deepEqual(decodeToken(ranged.headers.get('next-page-token')!), { after: createdOf(ids[1]) + 1, until: createdOf(ids[3]) });
  const end = await get(`academicSubjectDescriptors?pageToken=${ranged.headers.get('next-page-token')}&pageSize=6`);
  assert.deepEqual(await codes(end), ['d2', 'd3'], 'stops at the range end');
  assert.deepEqual(await codes(await get(`academicSubjectDescriptors?pageToken=${encodeToken({ after: 0 })}&pageSize=3&namespace=${encodeURIComponent(NS)}`)), ['d0', 'd1', 'd2'], 'filtered');
});

test('partitions: N tokens over what the query matches, 1 by default', async () => {
  const tokens = async (query: string) => ((await (await get(`academicSubjectDescriptors/partitions${query}`)).json()) as { pageTokens: string[] }).pageTokens.map((t) => decodeToken(t));
  assert.deepEqual(await tokens(''), [{ after: 0, until: createdOf(ids[7]) }]);
  const ns = await tokens(`?number=2&namespace=${encodeURIComponent(NS)}`);
  assert.deepEqual(ns, [{ after: 0, until: createdOf(ids[3]) }, { after: createdOf(ids[3]), until: createdOf(ids[7]) }]);
  assert.deepEqual(await tokens(`?codeValue=none`), []);
  assert.equal((await tokens(`?number=10&namespace=${encodeURIComponent(NS)}&shortDescription=x`)).length, 7, 'two filters: seven records, seven ranges');
  const res = await get('academicSubjectDescriptors/partitions?number=2');
  assert.equal(res.headers.get('content-type'), 'application/json; charset=utf-8');
});

test('change-version windows and the visibility filter apply to collections', async () => {
  const versions = ids.map((id) => ref.store.collection('academicSubjectDescriptor').byId.get(id)!.changeVersion);
  const window = await get(`academicSubjectDescriptors?namespace=${encodeURIComponent(NS)}&MinChangeVersion=${versions[2]}&MaxChangeVersion=${versions[4]}&totalCount=true`);
  assert.deepEqual(await codes(window), ['d2', 'd3', 'd4']);
  assert.equal(window.headers.get('total-count'), '3');
  assert.deepEqual(await codes(await get(`academicSubjectDescriptors?MinChangeVersion=${versions[6]}`)), ['d6', 'd7']);
  assert.deepEqual(await codes(await get(`academicSubjectDescriptors?MaxChangeVersion=${versions[1]}`)), ['d0', 'd1']);
  // A relationship-based client reads descriptors (unsecured) but no school it has no claim on.
  assert.equal((await codes(await get('academicSubjectDescriptors?limit=2', limitedToken))).length, 2);
  const school = { nameOfInstitution: 'S', educationOrganizationCategories: [], gradeLevels: [] };
  ref.store.create(ref.store.model.byName.get('school')!, { ...school, schoolId: 255901 });
  ref.store.create(ref.store.model.byName.get('school')!, { ...school, schoolId: 255902 });
  const visible = await get('schools?totalCount=true', limitedToken);
  assert.deepEqual(((await visible.json()) as { schoolId: number }[]).map((s) => s.schoolId), [255901]);
  assert.equal(visible.headers.get('total-count'), '1');
  assert.equal((await get('schools?totalCount=true')).headers.get('total-count'), '2');
});

test('deletes and keyChanges feeds: in change-version order, windowed, one key-change entry per item', async () => {
  const school = { nameOfInstitution: 'S', educationOrganizationCategories: [], gradeLevels: [] };
  ref.store.create(ref.store.model.byName.get('school')!, { ...school, schoolId: 255903 });
  const period = async (name: string) => (await ref.data('classPeriods', { method: 'POST', body: JSON.stringify({ schoolReference: { schoolId: 255903 }, classPeriodName: name }) })).headers.get('location')!.split('/').pop()!;
  const a = await period('A');
  const b = await period('B');
  const rename = async (id: string, name: string) => assert.equal((await ref.data(`classPeriods/${id}`, { method: 'PUT', body: JSON.stringify({ schoolReference: { schoolId: 255903 }, classPeriodName: name }) })).status, 204);
  await rename(b, 'B2');
  await rename(a, 'A2');
  await rename(b, 'B3');
  const changes = (await (await get('classPeriods/keyChanges')).json()) as { id: string; changeVersion: number; oldKeyValues: Record<string, unknown>; newKeyValues: Record<string, unknown> }[];
  assert.deepEqual(changes.map((k) => [k.id, k.oldKeyValues.classPeriodName, k.newKeyValues.classPeriodName]), [[a, 'A', 'A2'], [b, 'B', 'B3']]);
  assert.ok(changes[0].changeVersion < changes[1].changeVersion);
  const lastVersion = changes[1].changeVersion;
  const windowed = (await (await get(`classPeriods/keyChanges?MinChangeVersion=${lastVersion}&totalCount=true`)).json()) as { oldKeyValues: Record<string, unknown> }[];
  assert.deepEqual(windowed.map((k) => k.oldKeyValues.classPeriodName), ['B2'], 'only the changes in the window');

  assert.equal((await ref.data(`classPeriods/${a}`, { method: 'DELETE' })).status, 204);
  assert.equal((await ref.data(`classPeriods/${b}`, { method: 'DELETE' })).status, 204);
  const plainFeed = await get('classPeriods/deletes');
  assert.equal(plainFeed.headers.get('total-count'), null);
  assert.equal(plainFeed.headers.get('content-type'), 'application/json; charset=utf-8');
  assert.equal((await get('classPeriods/deletes?totalCount=TRUE')).headers.get('total-count'), '2', 'booleans of feeds in any case');
  const deletes = await get('classPeriods/deletes?totalCount=true&limit=1&offset=1');
  assert.equal(deletes.headers.get('total-count'), '2');
  const page = (await deletes.json()) as { id: string; changeVersion: number; keyValues: Record<string, unknown> }[];
  assert.deepEqual(page.map((d) => [d.id, d.keyValues]), [[b, { classPeriodName: 'B3', schoolId: 255903 }]]);
  assert.deepEqual(Object.keys(page[0]).sort(), ['changeVersion', 'id', 'keyValues']);
  assert.deepEqual((await (await get(`classPeriods/deletes?MaxChangeVersion=${page[0].changeVersion - 1}`)).json() as { id: string }[]).map((d) => d.id), [a]);
  // Deletes of what the caller could not read are not shown to it.
  assert.equal((await ref.data(`schools/${[...ref.store.collection('school').byId.values()].find((s) => s.doc.schoolId === 255902)!.id}`, { method: 'DELETE' })).status, 204);
  assert.equal(((await (await get('schools/deletes', limitedToken)).json()) as unknown[]).length, 0);
  assert.equal(((await (await get('schools/deletes')).json()) as unknown[]).length, 1);
});

test('query values closer in: echoed as sent, lower-cased only when a whole boolean of a boolean parameter, limit over the configured maximum beside other refusals', async () => {
  assert.deepEqual(await errorsOf(await get('academicSubjectDescriptors?limit=7&nosuch=1')), ["The query parameter 'nosuch' is not supported by this resource.", 'Limit must be omitted or set to a value between 0 and 6.']);
  for (const v of ['XTRUE', 'TRUEX', 'False1']) assert.deepEqual(await errorsOf(await get(`academicSubjectDescriptors?totalCount=${v}`)), [`The value '${v}' is not valid for totalCount.`], v);
  assert.deepEqual(await errorsOf(await get(`academicSubjectDescriptors?pageToken=${encodeToken({ after: 0 })}&offset=1`)), ['Both offset and pageToken parameters were provided, but they support alternative paging approaches and cannot be used together.']);
  // A text filter is no boolean: TRUE stays TRUE (text matches exactly).
  const descriptor = { namespace: 'uri://collection.example/GradeLevelDescriptor', codeValue: 'TRUE', shortDescription: 'TRUE' };
  assert.equal((await ref.data('gradeLevelDescriptors', { method: 'POST', body: JSON.stringify(descriptor) })).status, 201);
  assert.deepEqual(await codes(await get('gradeLevelDescriptors?codeValue=TRUE')), ['TRUE']);
  // A boolean filter of the resource reads any case.
  const school = { nameOfInstitution: 'S', educationOrganizationCategories: [], gradeLevels: [] };
  ref.store.create(ref.store.model.byName.get('school')!, { ...school, schoolId: 255904 });
  for (const [name, official] of [['Official', true], ['Unofficial', false]] as const) {
    assert.equal((await ref.data('classPeriods', { method: 'POST', body: JSON.stringify({ schoolReference: { schoolId: 255904 }, classPeriodName: name, officialAttendancePeriod: official }) })).status, 201);
  }
  const periods = async (query: string) => ((await (await get(`classPeriods?schoolId=255904&${query}`)).json()) as { classPeriodName: string }[]).map((p) => p.classPeriodName);
  assert.deepEqual(await periods('officialAttendancePeriod=TRUE'), ['Official']);
  assert.deepEqual(await periods('officialAttendancePeriod=False'), ['Unofficial']);
});

test('a property value that cannot be read as its type: 400 data-validation-failed at $.<parameter>, every one at once, in any case of the name; paging parameters and partitions\' number stay parameter problems (decisions #46)', async () => {
  const valueErrors = async (res: Response) => {
    assert.equal(res.status, 400);
    const body = (await res.json()) as { type: string; validationErrors: Record<string, string[]> };
    assert.match(body.type, /bad-request:data-validation-failed$/);
    // One message per path, naming the value as sent.
    for (const [path, messages] of Object.entries(body.validationErrors)) {
      assert.equal(messages.length, 1, `${path}: ${JSON.stringify(messages)}`);
      assert.match(messages[0], /'(abc|maybe)'/, path);
    }
    return Object.keys(body.validationErrors);
  };
  assert.deepEqual(await valueErrors(await get('classPeriods?schoolId=abc')), ['$.schoolId']);
  assert.deepEqual(await valueErrors(await get('classPeriods?SCHOOLID=abc')), ['$.schoolId'], 'named canonically whatever the case sent');
  assert.deepEqual((await valueErrors(await get('classPeriods?schoolId=abc&officialAttendancePeriod=maybe'))).sort(), ['$.officialAttendancePeriod', '$.schoolId']);
  // A value error wins over a paging one: the request is answered as a data problem.
  assert.deepEqual(await valueErrors(await get('classPeriods?schoolId=abc&limit=x')), ['$.schoolId']);
  assert.deepEqual(await errorsOf(await get('classPeriods/partitions?number=abc')), ["The value 'abc' is not valid for number."]);
});

test('numeric filters compare by value, integers past 2^53 by the digits sent, text as sent', async () => {
  const school = { nameOfInstitution: 'Big', educationOrganizationCategories: [], gradeLevels: [] };
  ref.store.create(ref.store.model.byName.get('school')!, { ...school, schoolId: 9007199254740993n });
  const names = async (query: string) => ((await (await get(`schools?${query}`)).json()) as { nameOfInstitution: string }[]).map((s) => s.nameOfInstitution);
  assert.deepEqual(await names('schoolId=9007199254740993'), ['Big']);
  assert.deepEqual(await names('schoolId=%209007199254740993'), ['Big'], 'surrounding space as the number reads it');
  assert.deepEqual(await names('schoolId=9007199254740992'), [], 'the neighbouring integer, equal as a double');
  assert.deepEqual(await names('schoolId=9007199254740993&nameOfInstitution=Big'), ['Big'], 'as the second filter too');
  // Below 2^53 numbers compare by value, text by the text sent.
  ref.store.create(ref.store.model.byName.get('assessment')!, { assessmentIdentifier: 'A', namespace: 'uri://collection.example', assessmentTitle: 'T', maxRawScore: 1.5 });
  const scores = async (query: string) => ((await (await get(`assessments?${query}`)).json()) as { assessmentIdentifier: string }[]).map((a) => a.assessmentIdentifier);
  assert.deepEqual(await scores('maxRawScore=1.50'), ['A']);
  assert.deepEqual(await scores('maxRawScore=1.5&assessmentIdentifier=%20A'), [], 'text keeps its spaces');
  assert.deepEqual(await codes(await get('academicSubjectDescriptors?codeValue=%20d3')), []);
});

test('partitions and feeds: parameter names in any case, and readable by a client that may only read descriptors', async () => {
  const tokens = async (query: string, token?: string) => {
    const res = await get(`academicSubjectDescriptors/partitions${query}`, token);
    assert.equal(res.status, 200, await res.clone().text());
    return ((await res.json()) as { pageTokens: string[] }).pageTokens.map((t) => decodeToken(t));
  };
  assert.equal((await tokens('?NUMBER=3')).length, 3);
  const versions = ids.map((id) => ref.store.collection('academicSubjectDescriptor').byId.get(id)!.changeVersion);
  assert.deepEqual(await tokens(`?minchangeversion=${versions[6]}&MAXCHANGEVERSION=${versions[7]}`), [{ after: 0, until: createdOf(ids[7]) }]);
  assert.deepEqual(await tokens(`?MinChangeVersion=${versions[7]}`, limitedToken), [{ after: 0, until: createdOf(ids[7]) }]);
  assert.equal((await get('academicSubjectDescriptors/deletes', limitedToken)).status, 200);
  assert.equal((await get('academicSubjectDescriptors/keyChanges', limitedToken)).status, 200);
});

test('collection reads through a read profile: its media type required, its view on every item', async () => {
  const R = 'application/vnd.core.academicsubjectdescriptor.codes.readable+json';
  const plain = await get('academicSubjectDescriptors?limit=2', profileToken);
  assert.equal(plain.status, 403);
  const read = await fetch(`${ref.dataApiBaseUrl}/data/v3/core/academicSubjectDescriptors?limit=2`, { headers: { Authorization: `Bearer ${profileToken}`, Accept: R } });
  assert.equal(read.status, 200);
  assert.equal(read.headers.get('content-type'), `${R}; charset=utf-8`);
  const items = (await read.json()) as Record<string, unknown>[];
  assert.deepEqual(items.map((d) => [d.codeValue, 'shortDescription' in d]), [['d0', false], ['d1', false]]);
});
