import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Ajv, type ErrorObject } from 'ajv';
import { readFileSync } from 'node:fs';
import { operationIds, validationDocument } from '../../spec/generate/openapi-data.js';
import { compileServed } from '../../spec/model/served.js';
import { startForTest } from '../tests/helpers.js';
import { ResolvedTargets, type RecordLookup } from '../store/references.js';
import type { CompiledResource } from '../../spec/model/compiled.js';
import { checkWrite } from './write-plan.js';
import { normalizeBody as normalized } from './normalize.js';
import { bodyErrors, jsonPath, queryErrors, REPORTED_PATHS, reportedValidationErrors } from './validation-errors.js';
import { REPORT_BUDGET, RequestValidator } from './validator.js';

/**
 * Write-body validation (seed: Errors, Limits; decisions #4, #5, #10, #28) in process: the
 * lenient readings of normalize.ts, the formats of validator.ts at both sides of each bound,
 * the wording and JSON paths of validation-errors.ts, and the content checks. The Playwright
 * family validation tests the same against any target; this file is the fast test command of
 * `npm run mutation` for the validation modules.
 */
type Ref = Awaited<ReturnType<typeof startForTest>>;
let ref: Ref;
// On 5.2, whose organization ids are int64: the widest integers validation reads (4.0 has none).
const model = compileServed('5.2');
const NS = 'uri://validation.example';
const resource = (name: string) => model.byName.get(name)!;

/** The content checks as a write reports them: the write plan's second group of refusals (no descriptor is stored). */
const NO_RECORDS = { collection: () => ({ byKey: new Map() }) } as unknown as RecordLookup;
const contentErrors = (r: CompiledResource, doc: Record<string, unknown>, years: { min: number; max: number }) =>
  checkWrite(model, NO_RECORDS, r, doc, years, new ResolvedTargets(0)).refused?.[1] ?? {};

const post = (endpoint: string, body: unknown) => ref.data(endpoint, { method: 'POST', body: typeof body === 'string' ? body : JSON.stringify(body) });
/** The validationErrors of a refused write (400 data-validation-failed). */
async function refused(res: Response): Promise<Record<string, string[]>> {
  const text = await res.text();
  assert.equal(res.status, 400, text);
  const body = JSON.parse(text) as { type: string; validationErrors: Record<string, string[]> };
  assert.match(body.type, /bad-request:data-validation-failed$/);
  return body.validationErrors;
}
async function accepted(res: Response): Promise<string> {
  const text = await res.text();
  assert.ok(res.status === 201 || res.status === 200, `${res.status} ${text}`);
  return res.headers.get('location')!.split('/').pop()!;
}

const SCHOOL_ID = 255950;
const student = (id: string, more: Record<string, unknown> = {}) => ({ studentUniqueId: id, firstName: 'Ada', lastSurname: 'Lovelace', birthDate: '2010-01-02', ...more });
const bellSchedule = (name: string, more: Record<string, unknown> = {}) => ({ bellScheduleName: name, schoolReference: { schoolId: SCHOOL_ID }, classPeriods: [{ classPeriodReference: { classPeriodName: 'P1', schoolId: SCHOOL_ID } }], ...more });
const course = (code: string, more: Record<string, unknown> = {}) => ({
  courseCode: code, educationOrganizationReference: { educationOrganizationId: SCHOOL_ID }, courseTitle: 'T', numberOfParts: 1,
  identificationCodes: [{ courseIdentificationSystemDescriptor: `${NS}/CourseIdentificationSystemDescriptor#State`, identificationCode: code }], ...more,
});

before(async () => {
  ref = await startForTest({ dataStandard: '5.2' });
  const descriptor = (name: string, code: string) => post(`${name[0].toLowerCase()}${name.slice(1)}s`, { namespace: `${NS}/${name}`, codeValue: code, shortDescription: code });
  for (const [name, code] of [['GradeLevelDescriptor', 'Ninth'], ['EducationOrganizationCategoryDescriptor', 'School'], ['CourseIdentificationSystemDescriptor', 'State']]) await accepted(await descriptor(name, code));
  await accepted(await post('schools', { schoolId: SCHOOL_ID, nameOfInstitution: 'V', educationOrganizationCategories: [{ educationOrganizationCategoryDescriptor: `${NS}/EducationOrganizationCategoryDescriptor#School` }], gradeLevels: [{ gradeLevelDescriptor: `${NS}/GradeLevelDescriptor#Ninth` }] }));
  await accepted(await post('classPeriods', { classPeriodName: 'P1', schoolReference: { schoolId: SCHOOL_ID } }));
});
after(async () => { await ref.close(); });

test('every failure of one body is reported at once, each at its full JSON path with upstream wording', async () => {
  const errors = await refused(await post('bellSchedules', {
    bellScheduleName: ' padded', schoolReference: { schoolId: SCHOOL_ID }, classPeriods: [],
    startTime: '24:00:00', totalInstructionalTime: 2 ** 31,
  }));
  assert.deepEqual(errors, {
    '$.bellScheduleName': ['bellScheduleName cannot contain leading or trailing spaces.'],
    '$.classPeriods': ['classPeriods is required and should not be left empty.'],
    '$.startTime': ["The value '24:00:00' is not valid for startTime."],
    '$.totalInstructionalTime': ['totalInstructionalTime Value is outside the range of int32.'],
  });
  assert.deepEqual(await refused(await post('bellSchedules', bellSchedule('   '))), { '$.bellScheduleName': ['bellScheduleName is required and should not be left empty.'] });
});

test('required members, at the top and inside a collection item', async () => {
  const { firstName: _, ...withoutFirstName } = student('V-1');
  assert.deepEqual(await refused(await post('students', withoutFirstName)), { '$.firstName': ['firstName is required.'] });
  const errors = await refused(await post('bellSchedules', bellSchedule('B', { classPeriods: [{ classPeriodReference: { schoolId: SCHOOL_ID } }] })));
  assert.deepEqual(errors, { '$.classPeriods[0].classPeriodReference.classPeriodName': ['classPeriodName is required.'] });
  // A missing top-level member is the first failure found (at the body itself, `/requestBody`):
  // the failures after it are reported with it.
  assert.deepEqual(await refused(await post('students', { ...withoutFirstName, birthDate: 'soon' })), {
    '$.birthDate': ["The value 'soon' is not valid for birthDate."],
    '$.firstName': ['firstName is required.'],
  });
});

test('lengths: at most and at least, each accepted at its bound and refused one past it', async () => {
  assert.deepEqual(await refused(await post('students', student('V-2', { firstName: 'x'.repeat(76) }))), { '$.firstName': ['firstName Value should be at most 75 characters'] });
  await accepted(await post('students', student('V-2', { firstName: 'x'.repeat(75) })));
  // academicWeek.weekIdentifier: minLength 5.
  const week = (weekIdentifier: string) => ({ weekIdentifier, schoolReference: { schoolId: SCHOOL_ID }, beginDate: '2024-01-01', endDate: '2024-01-05', totalInstructionalDays: 5 });
  assert.deepEqual(await refused(await post('academicWeeks', week('abcd'))), { '$.weekIdentifier': ['weekIdentifier Value should be at least 5 characters'] });
  await accepted(await post('academicWeeks', week('abcde')));
});

test('int32 at both bounds, one past each, and a fraction', async () => {
  for (const ok of [2 ** 31 - 1, -(2 ** 31)]) await accepted(await post('bellSchedules', bellSchedule(`int ${ok}`, { totalInstructionalTime: ok })));
  for (const bad of [2 ** 31, -(2 ** 31) - 1]) {
    assert.deepEqual(await refused(await post('bellSchedules', bellSchedule('B', { totalInstructionalTime: bad }))), { '$.totalInstructionalTime': ['totalInstructionalTime Value is outside the range of int32.'] }, String(bad));
  }
  const fraction = await refused(await post('bellSchedules', bellSchedule('B', { totalInstructionalTime: 1.5 })));
  assert.deepEqual(fraction['$.totalInstructionalTime'], ['The value 1.5 is not valid for totalInstructionalTime; expected integer.', 'totalInstructionalTime Value is outside the range of int32.']);
});

test('time of day without a zone: every hour, minute and second bound', async () => {
  for (const ok of ['00:00:00', '09:59:59', '19:00:00', '23:59:59']) await accepted(await post('bellSchedules', bellSchedule(`t ${ok}`, { startTime: ok })));
  for (const bad of ['24:00:00', '30:00:00', '08:60:00', '08:00:60', '8:00:00', '08:00', '08:00:00Z', '08:00:00.5', 'x08:00:00', '08:00:00x']) {
    assert.deepEqual(await refused(await post('bellSchedules', bellSchedule('B', { startTime: bad }))), { '$.startTime': [`The value '${bad}' is not valid for startTime.`] }, bad);
  }
});

test('dates, date-times and types are checked with the value named', async () => {
  assert.deepEqual(await refused(await post('students', student('V-3', { birthDate: '2010-01-02T00:00:00Z' }))), { '$.birthDate': ["The value '2010-01-02T00:00:00Z' is not valid for birthDate."] });
  assert.deepEqual(await refused(await post('students', student('V-3', { personReference: 5 }))), { '$.personReference': ['The value 5 is not valid for personReference; expected object.'] });
  assert.deepEqual(await refused(await post('courses', course('C-1', { maximumAvailableCredits: 'x' }))), { '$.maximumAvailableCredits': ['The value "x" is not valid for maximumAvailableCredits; expected number.'] });
  // Numeric text past the double range reads as Infinity, which no double is.
  assert.deepEqual(await refused(await post('courses', course('C-1', { maximumAvailableCredits: '1e999' }))), { '$.maximumAvailableCredits': ['maximumAvailableCredits Value is outside the range of double.'] });
  assert.deepEqual(await refused(await post('courses', course('C-1', { numberOfParts: 0 }))), { '$.numberOfParts': ['numberOfParts must be >= 1.'] });
});

/** The JSON text of `body` with `literal` written as is at the member whose value is `'@'`. */
const withLiteral = (body: Record<string, unknown>, literal: string) => JSON.stringify(body).replace('"@"', literal);
const storedDoc = (collection: string, id: string) => ref.store.collection(collection).byId.get(id)!.doc as Record<string, unknown>;
const school = (schoolId: unknown) => ({ schoolId, nameOfInstitution: 'N', educationOrganizationCategories: [{ educationOrganizationCategoryDescriptor: `${NS}/EducationOrganizationCategoryDescriptor#School` }], gradeLevels: [{ gradeLevelDescriptor: `${NS}/GradeLevelDescriptor#Ninth` }] });

test('numbers are judged by their exact value against the member’s type, whatever their spelling (issue 23 finding 8)', async () => {
  // int64: past the maximum in exponent form as in digits; the maximum itself is stored exactly.
  for (const id of ['1e21', '1e19', '9.3e18', '9223372036854775808', '9.223372036854775808e18', '-9.3e18']) {
    assert.deepEqual(await refused(await post('schools', withLiteral(school('@'), id))), { '$.schoolId': ['schoolId Value is outside the range of int64.'] }, id);
  }
  const max = await accepted(await post('schools', withLiteral(school('@'), '9.223372036854775807e18')));
  assert.equal(storedDoc('school', max).schoolId, 9223372036854775807n);
  // int32: a fraction a double would round to an integer (or to 0) is no integer.
  for (const literal of ['1.0000000000000001', '1e-400', '2147483647.0000000001']) {
    assert.deepEqual(await refused(await post('bellSchedules', withLiteral(bellSchedule('B', { totalInstructionalTime: '@' }), literal))), { '$.totalInstructionalTime': [`The value ${literal} is not valid for totalInstructionalTime; expected integer.`] }, literal);
  }
  const twelve = await accepted(await post('bellSchedules', withLiteral(bellSchedule('exact 12', { totalInstructionalTime: '@' }), '1.20e1')));
  assert.equal(storedDoc('bellSchedule', twelve).totalInstructionalTime, 12);
  // double: 1e-400 is not 0, and a decimal's bound holds for the exact value, not its nearest double.
  assert.deepEqual(await refused(await post('courses', withLiteral(course('C-X', { maximumAvailableCredits: '@' }), '1e-400'))), { '$.maximumAvailableCredits': ['maximumAvailableCredits Value is outside the range of double.'] });
  assert.deepEqual(await refused(await post('courses', withLiteral(course('C-X', { maximumAvailableCredits: '@' }), '999999.9990000000000001'))), { '$.maximumAvailableCredits': ['maximumAvailableCredits must be <= 999999.999.'] });
  assert.deepEqual(await refused(await post('courses', withLiteral(course('C-X', { minimumAvailableCredits: '@' }), '-0.0000000000000000001'))), { '$.minimumAvailableCredits': ['minimumAvailableCredits must be >= 0.'] });
  const close = await accepted(await post('courses', withLiteral(course('C-X', { maximumAvailableCredits: '@' }), '999999.99899999999999999')));
  assert.equal(storedDoc('course', close).maximumAvailableCredits, 999999.999);
});

test('numeric text is read in the forms of a number literal, by the same exact rules (decisions #28)', async () => {
  for (const [text, stored] of [['12.0', 12], ['1.2e1', 12], ['1e3', 1000], ['-0', 0]] as const) {
    const id = await accepted(await post('bellSchedules', bellSchedule(`text ${text}`, { totalInstructionalTime: text })));
    assert.equal(storedDoc('bellSchedule', id).totalInstructionalTime, stored, text);
  }
  // Spellings no number literal has are text, which validation refuses, in integer and number members alike.
  for (const text of ['.5', '5.', '+5', '007', ' 5', '5 ', '0x10', '1_000', 'Infinity', '']) {
    assert.deepEqual(await refused(await post('bellSchedules', bellSchedule('B', { totalInstructionalTime: text }))), { '$.totalInstructionalTime': [`The value ${JSON.stringify(text)} is not valid for totalInstructionalTime; expected integer.`] }, text);
    assert.deepEqual(await refused(await post('courses', course('C-X', { maximumAvailableCredits: text }))), { '$.maximumAvailableCredits': [`The value ${JSON.stringify(text)} is not valid for maximumAvailableCredits; expected number.`] }, text);
  }
  assert.deepEqual(await refused(await post('bellSchedules', bellSchedule('B', { totalInstructionalTime: '12.5' }))), { '$.totalInstructionalTime': ['The value "12.5" is not valid for totalInstructionalTime; expected integer.'] });
  for (const text of ['1e21', '9223372036854775808', '1e999999999999']) {
    assert.deepEqual(await refused(await post('schools', school(text))), { '$.schoolId': ['schoolId Value is outside the range of int64.'] }, text);
  }
  assert.deepEqual(await refused(await post('courses', course('C-X', { maximumAvailableCredits: '1e999' }))), { '$.maximumAvailableCredits': ['maximumAvailableCredits Value is outside the range of double.'] });
});

test('a 4 MB digit string in a number member is read once, in linear time (issue 23 finding 1)', async () => {
  // Before: a backtracking pattern took 3.4 s for 40,000 digits and a letter, hours for 4 MB,
  // with every service stalled. A test timeout is the only clock here: linear reading is checked
  // by counting (json-number.test.ts).
  const digits = '1'.repeat(4_000_000);
  const first = (errors: Record<string, string[]>) => Object.entries(errors).map(([path, [message]]) => [path, message.slice(0, 30)]);
  assert.deepEqual(first(await refused(await post('courses', course('C-X', { maximumAvailableCredits: `${digits}x` })))), [['$.maximumAvailableCredits', `The value "${'1'.repeat(19)}`]]);
  assert.deepEqual(await refused(await post('courses', course('C-X', { numberOfParts: digits }))), { '$.numberOfParts': ['numberOfParts Value is outside the range of int32.'] });
  assert.deepEqual(await refused(await post('courses', withLiteral(course('C-X', { maximumAvailableCredits: '@' }), digits))), { '$.maximumAvailableCredits': ['maximumAvailableCredits Value is outside the range of double.'] });
});

test('lenient readings: numeric text, boolean spellings, optional nulls, in references and nested items too', async () => {
  const id = await accepted(await post('courses', course('C-2', {
    educationOrganizationReference: { educationOrganizationId: String(SCHOOL_ID) },
    numberOfParts: '2', minimumAvailableCredits: '1.5e1', maximumAvailableCredits: '0.5', courseDescription: null,
    identificationCodes: [{ courseIdentificationSystemDescriptor: `${NS}/CourseIdentificationSystemDescriptor#State`, identificationCode: 'C-2', assigningOrganizationIdentificationCode: null }],
  })));
  const doc = ref.store.collection('course').byId.get(id)!.doc as Record<string, unknown>;
  assert.deepEqual([doc.numberOfParts, doc.minimumAvailableCredits, doc.maximumAvailableCredits, 'courseDescription' in doc], [2, 15, 0.5, false]);
  assert.deepEqual(doc.educationOrganizationReference, { educationOrganizationId: SCHOOL_ID });
  assert.deepEqual(doc.identificationCodes, [{ courseIdentificationSystemDescriptor: `${NS}/CourseIdentificationSystemDescriptor#State`, identificationCode: 'C-2' }]);
  // "1", "0" and spaces around the text too, as both upstream servers read them (decisions #46).
  for (const [sent, stored] of [['TRUE', true], ['false', false], ['False', false], [1, true], [0, false], [true, true], ['1', true], ['0', false], [' true ', true]] as const) {
    const sid = await accepted(await post('bellSchedules', bellSchedule('Bool', { classPeriods: [{ classPeriodReference: { classPeriodName: 'P1', schoolId: String(SCHOOL_ID) } }] })));
    await accepted(await post('classPeriods', { classPeriodName: 'P1', schoolReference: { schoolId: SCHOOL_ID }, officialAttendancePeriod: sent }));
    const period = [...ref.store.collection('classPeriod').byId.values()].find((r) => (r.doc as { classPeriodName: string }).classPeriodName === 'P1')!.doc as Record<string, unknown>;
    assert.equal(period.officialAttendancePeriod, stored, JSON.stringify(sent));
    assert.deepEqual((ref.store.collection('bellSchedule').byId.get(sid)!.doc as { classPeriods: unknown[] }).classPeriods, [{ classPeriodReference: { classPeriodName: 'P1', schoolId: SCHOOL_ID } }]);
  }
  for (const bad of ['yes', 'truex', 'xtrue', 2, '2', '1 0', 't rue']) {
    assert.deepEqual(Object.keys(await refused(await post('classPeriods', { classPeriodName: 'P1', schoolReference: { schoolId: SCHOOL_ID }, officialAttendancePeriod: bad }))), ['$.officialAttendancePeriod'], JSON.stringify(bad));
  }
  // A required member sent as null is missing, not absent-and-fine.
  assert.deepEqual(Object.keys(await refused(await post('students', student('V-4', { firstName: null })))), ['$.firstName']);
});

test('normalizeBody reads what it should and leaves the rest for validation', () => {
  const c = resource('course');
  const normalizeBody = (r: typeof c, v: unknown) => normalized(r, v).body;
  assert.equal(normalizeBody(c, null), null);
  assert.deepEqual(normalizeBody(c, [1]), [1]);
  assert.equal(normalizeBody(c, 'text'), 'text');
  const out = normalizeBody(c, {
    numberOfParts: '12', minimumAvailableCredits: '3.', maximumAvailableCredits: '1.5x', courseTitle: '12', unknownMember: '3', maximumAvailableCreditConversion: 'x1.5',
    educationOrganizationReference: { educationOrganizationId: '-7', extra: '1' },
  }) as Record<string, unknown>;
  // '3.' is no number literal (decisions #28: numeric text in the forms of a number): text, for validation.
  assert.deepEqual(out, { numberOfParts: 12, minimumAvailableCredits: '3.', maximumAvailableCredits: '1.5x', courseTitle: '12', unknownMember: '3', maximumAvailableCreditConversion: 'x1.5', educationOrganizationReference: { educationOrganizationId: -7, extra: '1' } });
  // Every decimal spelling: several integer digits, several fraction digits, a signed exponent.
  for (const [text, n] of [['12.5', 12.5], ['0.55', 0.55], ['1e-2', 0.01], ['-2E+2', -200], ['7', 7]] as const) {
    assert.deepEqual(normalizeBody(resource('assessment'), { maxRawScore: text }), { maxRawScore: n }, text);
  }
  // Only text is read: a list holding numeric text is left for validation, and so is a reference member left out.
  assert.deepEqual(normalizeBody(c, { numberOfParts: ['5'], minimumAvailableCredits: ['1.5'], educationOrganizationReference: {} }), { numberOfParts: ['5'], minimumAvailableCredits: ['1.5'], educationOrganizationReference: {} });
  // Integer text past 2^53 is kept exact as a BigInt; a fraction in an integer member is left alone.
  // A required member sent as null stays, for validation to refuse; an optional one is dropped.
  const big = normalizeBody(resource('school'), { schoolId: '9007199254740993', nameOfInstitution: null, webSite: null }) as Record<string, unknown>;
  assert.deepEqual(big, { schoolId: 9007199254740993n, nameOfInstitution: null });
  assert.deepEqual(normalizeBody(resource('school'), { schoolId: '9007199254740991' }), { schoolId: 9007199254740991 });
  assert.deepEqual(normalizeBody(resource('school'), { schoolId: '-9007199254740992' }), { schoolId: -9007199254740992n });
  assert.deepEqual(normalizeBody(resource('school'), { schoolId: '-9007199254740991' }), { schoolId: -9007199254740991 });
  assert.deepEqual(normalized(c, { numberOfParts: '1.5', educationOrganizationReference: 'x', identificationCodes: 'x' }), {
    body: { numberOfParts: '1.5', educationOrganizationReference: 'x', identificationCodes: 'x' },
    errors: { '$.numberOfParts': ['The value "1.5" is not valid for numberOfParts; expected integer.'] },
  });
  assert.deepEqual(normalizeBody(c, { educationOrganizationReference: ['1'] }), { educationOrganizationReference: ['1'] });
  // Nested objects are read too.
  const assessment = normalizeBody(resource('assessment'), { adaptiveAssessment: 'True', contentStandard: { title: 't', beginDate: null, publicationYear: '2020', mandatingEducationOrganizationReference: { educationOrganizationId: '255901' } } });
  assert.deepEqual(assessment, { adaptiveAssessment: true, contentStandard: { title: 't', publicationYear: 2020, mandatingEducationOrganizationReference: { educationOrganizationId: 255901 } } });
  // A reference inside collection items is looked up by its item path; its text members stay text, digits or not.
  const sections = normalizeBody(resource('assessment'), { sections: [{ sectionReference: { localCourseCode: '123', schoolId: '5', schoolYear: '2024', sessionName: '2024', sectionIdentifier: 'x' } }] });
  assert.deepEqual(sections, { sections: [{ sectionReference: { localCourseCode: '123', schoolId: 5, schoolYear: 2024, sessionName: '2024', sectionIdentifier: 'x' } }] });
  // A number refused is reported at its concrete path, items and reference members included.
  const refusedAt = normalized(resource('assessment'), {
    maxRawScore: '1e-400', contentStandard: { publicationYear: '2020.5' },
    sections: [{ sectionReference: { schoolId: '5' } }, { sectionReference: { schoolId: '1e20', schoolYear: '99999999999' } }],
  }).errors;
  assert.deepEqual(refusedAt, {
    '$.maxRawScore': ['maxRawScore Value is outside the range of double.'],
    '$.contentStandard.publicationYear': ['The value "2020.5" is not valid for publicationYear; expected integer.'],
    '$.sections[1].sectionReference.schoolId': ['schoolId Value is outside the range of int64.'],
    '$.sections[1].sectionReference.schoolYear': ['schoolYear Value is outside the range of int32.'],
  });
  // Each path is built where it is first needed: a nested object, or a list, first in its body; the first item is [0].
  assert.deepEqual(normalized(resource('assessment'), { contentStandard: { publicationYear: '2020.5' } }).errors, {
    '$.contentStandard.publicationYear': ['The value "2020.5" is not valid for publicationYear; expected integer.'],
  });
  assert.deepEqual(normalized(resource('assessment'), { sections: [{ sectionReference: { schoolId: '1e20' } }] }).errors, {
    '$.sections[0].sectionReference.schoolId': ['schoolId Value is outside the range of int64.'],
  });
});

test('content checks: markup, unstorable text, school years at both bounds, duplicate items', () => {
  const calendar = resource('calendar');
  const years = { min: 1991, max: 2050 };
  const base = { calendarCode: 'c', schoolReference: { schoolId: 1 }, calendarTypeDescriptor: 'd' };
  assert.deepEqual(contentErrors(calendar, { ...base, schoolYearTypeReference: { schoolYear: 1991 } }, years), {});
  assert.deepEqual(contentErrors(calendar, { ...base, schoolYearTypeReference: { schoolYear: 2050 } }, years), {});
  for (const year of [1990, 2051, 1990n]) {
    assert.deepEqual(contentErrors(calendar, { ...base, schoolYearTypeReference: { schoolYear: year } }, years), { '$.schoolYearTypeReference.schoolYear': ['schoolYear must be between 1991 and 2050.'] }, String(year));
  }
  // Any member named schoolYear or ending in SchoolYear; not one merely containing it: in what
  // the model shapes (a reference's graduationSchoolYear) and in what it does not (an object
  // sent where text belongs, which the schema refuses, and the checks still read).
  assert.deepEqual(Object.keys(contentErrors(resource('studentSchoolAssociation'), { graduationPlanReference: { graduationSchoolYear: 1900, educationOrganizationId: 1, graduationPlanTypeDescriptor: 'x' } }, years)), ['$.graduationPlanReference.graduationSchoolYear']);
  assert.deepEqual(Object.keys(contentErrors(resource('student'), { birthDate: 'x', birthCity: { entrySchoolYear: 1900, schoolYearCount: 1900, mySchoolYearX: 1900, fooschoolYear: 1900, SchoolYear: 1900 } }, years)), ['$.birthCity.entrySchoolYear']);
  // There too a big integer is a number, and only a number is a school year to range-check.
  assert.deepEqual(Object.keys(contentErrors(resource('student'), { birthDate: 'x', birthCity: { entrySchoolYear: 10n ** 20n } }, years)), ['$.birthCity.entrySchoolYear']);
  assert.deepEqual(contentErrors(resource('student'), { birthDate: 'x', birthCity: { entrySchoolYear: 2000, schoolYear: true, exitSchoolYear: null, graduationSchoolYear: '1900' } }, years), {});
  assert.deepEqual(contentErrors(calendar, { ...base, schoolYearTypeReference: { schoolYear: '1900' } }, years), {}, 'text is the schema’s to refuse');

  for (const dangerous of ['<script>', 'a <b', '</x', '<!--', '<?xml', '&#60;']) {
    assert.deepEqual(contentErrors(calendar, { ...base, calendarCode: dangerous }, years), { '$.calendarCode': ['calendarCode contains a potentially dangerous value.'] }, dangerous);
  }
  for (const harmless of ['a < b', '1<2', '<', '&amp;', '& #', 'AT&T']) assert.deepEqual(contentErrors(calendar, { ...base, calendarCode: harmless }, years), {}, harmless);
  // A lone surrogate alone is also blank (visible-text.ts).
  assert.deepEqual(contentErrors(calendar, { ...base, calendarCode: '\uD800' }, years), { '$.calendarCode': ['calendarCode contains a character that cannot be stored (a lone surrogate or NUL).', 'calendarCode is required and should not be left empty.'] });
  for (const unstorable of ['x\uD800', 'a\uDC00', 'a\0b']) {
    assert.deepEqual(contentErrors(calendar, { ...base, calendarCode: unstorable }, years), { '$.calendarCode': ['calendarCode contains a character that cannot be stored (a lone surrogate or NUL).'] }, JSON.stringify(unstorable));
  }
  assert.deepEqual(contentErrors(calendar, { ...base, calendarCode: '\uD83D\uDE00' }, years), {}, 'a surrogate pair is fine');

  const grades = (...g: string[]) => ({ ...base, gradeLevels: g.map((gradeLevelDescriptor) => ({ gradeLevelDescriptor })) });
  assert.deepEqual(contentErrors(calendar, grades('a', 'b', 'c'), years), {});
  // One error at the collection's path, naming the first repeat only (decisions #46).
  assert.deepEqual(contentErrors(calendar, grades('a', 'b', 'a', 'b'), years), {
    '$.gradeLevels': ['The 3rd item of the gradeLevels has the same identifying values as another item earlier in the list.'],
  });
  // The n-th item is the first repeat: n - 1 distinct items, then the first again.
  const ordinalOf = (n: number) => Object.values(contentErrors(calendar, grades(...Array.from({ length: n - 1 }, (_, i) => `g${i}`), 'g0'), years))[0][0].split(' ')[1];
  assert.deepEqual([2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111, 112, 113].map(ordinalOf), ['2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd', '23rd', '101st', '111th', '112th', '113th']);
  // Items are compared as natural keys are: one text in two Unicode spellings (é composed, and e with its accent) is one key.
  assert.deepEqual(contentErrors(calendar, grades('\u00E9', 'e\u0301'), years), {
    '$.gradeLevels': ['The 2nd item of the gradeLevels has the same identifying values as another item earlier in the list.'],
  });
  assert.deepEqual(contentErrors(calendar, { ...base, gradeLevels: 'x' }, years), {}, 'a collection that is not a list is the schema’s to refuse');
  assert.deepEqual(contentErrors(calendar, { ...base, gradeLevels: [null] }, years), {}, 'so is an item that is no object');
  assert.deepEqual(contentErrors(calendar, { ...base, calendarCode: 7 as unknown as string }, years), {}, 'and a number where text belongs');
});

test('content checks: required text must show something; control characters other than tab, LF and CR are refused (issue 23 finding 8)', () => {
  const calendar = resource('calendar');
  const years = { min: 1991, max: 2050 };
  const base = { calendarCode: 'c', schoolReference: { schoolId: 1 }, calendarTypeDescriptor: 'd' };
  const blank = (name: string) => [`${name} is required and should not be left empty.`];
  // A zero-width space, a word joiner, a byte-order mark, a lone combining mark, spaces of every kind.
  for (const text of ['\u200B', '\u2060', '\uFEFF', '\u0301', '\u200B\u0301 ', '\u00A0\u3000', '']) {
    assert.deepEqual(contentErrors(calendar, { ...base, calendarCode: text }, years), { '$.calendarCode': blank('calendarCode') }, JSON.stringify(text));
  }
  // Anything visible will do: a letter with its mark, a digit, punctuation, a symbol, private use.
  for (const text of ['e\u0301', '0', '-', '\u20AC', '\uE000', '\u200Bx']) assert.deepEqual(contentErrors(calendar, { ...base, calendarCode: text }, years), {}, JSON.stringify(text));
  // In references (the target's key), collection items and nested objects; optional text may be blank.
  const bell = resource('bellSchedule');
  assert.deepEqual(contentErrors(bell, { bellScheduleName: 'b', schoolReference: { schoolId: 1 }, alternateDayName: '\u200B', classPeriods: [{ classPeriodReference: { classPeriodName: 'p', schoolId: 1 } }, { classPeriodReference: { classPeriodName: '\u200B', schoolId: 1 } }] }, years), {
    '$.classPeriods[1].classPeriodReference.classPeriodName': blank('classPeriodName'),
  });
  const assessment = resource('assessment');
  assert.deepEqual(Object.keys(contentErrors(assessment, { contentStandard: { title: '\u200B' }, identificationCodes: [{ identificationCode: '\u0301', assessmentIdentificationSystemDescriptor: 'd' }] }, years)).sort(), ['$.contentStandard.title', '$.identificationCodes[0].identificationCode']);
  // Inside a required collection and a required object too.
  assert.deepEqual(Object.keys(contentErrors(resource('course'), { courseCode: 'c', identificationCodes: [{ identificationCode: '\u200B', courseIdentificationSystemDescriptor: 'd' }] }, years)), ['$.identificationCodes[0].identificationCode']);
  assert.deepEqual(Object.keys(contentErrors(resource('learningStandard'), { learningStandardId: 'l', contentStandard: { title: '\u00A0' } }, years)), ['$.contentStandard.title']);
  // A reference's descriptor member is text too, but one that names no descriptor is descriptor resolution's to refuse (integrity.ts), once.
  assert.deepEqual(contentErrors(resource('reportCard'), { gradingPeriodReference: { gradingPeriodDescriptor: '\u200B', gradingPeriodName: 'g', schoolId: 1, schoolYear: 2020 } }, years), {});

  for (const c of ['\u0001', '\u0008', '\u000B', '\u000C', '\u001F', '\u007F', '\u0085', '\u009F']) {
    assert.deepEqual(contentErrors(calendar, { ...base, calendarCode: `a${c}b` }, years), { '$.calendarCode': ['calendarCode contains a control character; only tab, line feed and carriage return are allowed.'] }, JSON.stringify(c));
  }
  assert.deepEqual(contentErrors(calendar, { ...base, calendarCode: 'a\tb\nc\r\nd\u00A0e' }, years), {}, 'tab, line feed, carriage return and other spaces are text');
});

test('blank and control-character text is refused through the API at its path (issue 23 finding 8)', async () => {
  assert.deepEqual(await refused(await post('students', student('V-5', { firstName: '\u200B' }))), { '$.firstName': ['firstName is required and should not be left empty.'] });
  assert.deepEqual(await refused(await post('students', student('\u0301'))), { '$.studentUniqueId': ['studentUniqueId is required and should not be left empty.'] });
  assert.deepEqual(await refused(await post('students', student('V-5', { middleName: 'a\u0001' }))), { '$.middleName': ['middleName contains a control character; only tab, line feed and carriage return are allowed.'] });
  // Spaces around a zero-width space: blank, not merely padded.
  assert.deepEqual(await refused(await post('students', student(' \u200B '))), { '$.studentUniqueId': ['studentUniqueId is required and should not be left empty.'] });
  await accepted(await post('students', student('V-5', { middleName: 'line\none\ttab' })));
});

test('a refusal lists at most 100 failing paths and says how many were found (issue 23 finding 2)', async () => {
  // 150 items each missing their one required member: 150 paths found by the schema, the first
  // 100 listed; the checks after the schema's are not run (the list is full), so 150 is a floor.
  const many = await post('bellSchedules', bellSchedule('B', { classPeriods: Array.from({ length: 150 }, () => ({})) }));
  assert.equal(many.status, 400);
  const problem = await many.json() as { detail: string; validationErrors: Record<string, string[]> };
  assert.equal(problem.detail, "Data validation failed. See 'validationErrors' for details: it lists 100 of 150 failing paths found; a refused body is searched only as far as the list needs, so more may fail.");
  assert.deepEqual(Object.keys(problem.validationErrors), Array.from({ length: 100 }, (_, i) => `$.classPeriods[${i}].classPeriodReference`));
  // Before: 70,000 empty items with five required members each gave 500 (a stack overflow in the
  // validator); 40,000 a 13 MB answer. Now a 4 MB body of them is read for its errors in a bounded
  // copy, and the count is a floor.
  const community = (n: number) => JSON.stringify({
    communityOrganizationId: 7, nameOfInstitution: 'C', categories: [{ educationOrganizationCategoryDescriptor: `${NS}/EducationOrganizationCategoryDescriptor#School` }],
    addresses: Array.from({ length: n }, () => ({})),
  });
  // Both bodies are built first: building the larger blocks this process (server included) for
  // seconds on a loaded machine, and between two requests that outlived the keep-alive timeout,
  // so the next request met a socket the server closed as it was reused (ECONNRESET, seen once).
  const sent = [70_000, 1_390_000].map(community);
  for (const request of sent) {
    const res = await post('communityOrganizations', request);
    const text = await res.text();
    assert.equal(res.status, 400, text.slice(0, 300));
    const body = JSON.parse(text) as { detail: string; validationErrors: Record<string, string[]> };
    assert.equal(Object.keys(body.validationErrors).length, 100);
    assert.deepEqual(body.validationErrors['$.addresses[0].city'], ['city is required.']);
    assert.match(body.detail, /^Data validation failed\. See 'validationErrors' for details: it lists 100 of \d+ failing paths found; a refused body is searched only as far as the list needs, so more may fail\.$/);
    assert.ok(text.length < 16_000, `${text.length} bytes`);
  }
});

test('a body the schema refuses at 100 paths or more is answered before the checks after it, so its count is a floor', async () => {
  // Each item lacks its reference's schoolId: one schema path per item, and nothing for the
  // checks after the schema to find (distinct names, so no repeated item; no schoolId kept, so
  // no unification). Had those checks run, the count would be exact ("… of 100 failing paths.",
  // or no count at all for exactly 100).
  const periods = (n: number) => Array.from({ length: n }, (_, i) => ({ classPeriodReference: { classPeriodName: `P${i}` } }));
  for (const n of [100, 150]) {
    const res = await post('bellSchedules', bellSchedule(`B${n}`, { classPeriods: periods(n) }));
    assert.equal(res.status, 400);
    const problem = await res.json() as { detail: string; validationErrors: Record<string, string[]> };
    assert.deepEqual(Object.keys(problem.validationErrors), Array.from({ length: 100 }, (_, i) => `$.classPeriods[${i}].classPeriodReference.schoolId`), String(n));
    assert.equal(problem.detail, `Data validation failed. See 'validationErrors' for details: it lists 100 of ${n} failing paths found; a refused body is searched only as far as the list needs, so more may fail.`, String(n));
  }
});

test('the checks after the schema stop once the list is full, and the count is then a floor; a short refusal carries no count', async () => {
  // Unknown descriptors, one per item: no schema error, every path found by the descriptor check.
  const codes = (n: number) => course(`C-${n}`, { identificationCodes: Array.from({ length: n }, (_, i) => ({ courseIdentificationSystemDescriptor: `${NS}/CourseIdentificationSystemDescriptor#None${i}`, identificationCode: `c${i}` })) });
  for (const n of [100, 150]) {
    const res = await post('courses', codes(n));
    assert.equal(res.status, 400);
    const problem = await res.json() as { detail: string; validationErrors: Record<string, string[]> };
    assert.equal(Object.keys(problem.validationErrors).length, 100, String(n));
    assert.equal(problem.detail, `Data validation failed. See 'validationErrors' for details: it lists 100 of ${n} failing paths found; a refused body is searched only as far as the list needs, so more may fail.`, String(n));
  }
  const short = await post('courses', codes(2));
  assert.equal(short.status, 400);
  const problem = await short.json() as { detail: string; validationErrors: Record<string, string[]> };
  assert.equal(Object.keys(problem.validationErrors).length, 2);
  assert.doesNotMatch(problem.detail, /failing paths/);
  const notObject = await (await post('courses', '[1]')).json() as { detail: string };
  assert.doesNotMatch(notObject.detail, /failing paths/);
});

test('reportedValidationErrors: all paths up to 100, else the first 100 with the count; values echoed in part', () => {
  const errors = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`$.a[${i}]`, ['m']]));
  assert.deepEqual(reportedValidationErrors(errors(100)), { validationErrors: errors(100) });
  assert.deepEqual(reportedValidationErrors(errors(101)), { validationErrors: errors(100), detail: "Data validation failed. See 'validationErrors' for details: it lists 100 of 101 failing paths." });
  assert.deepEqual(reportedValidationErrors(errors(3), false), { validationErrors: errors(3), detail: "Data validation failed. See 'validationErrors' for details: it lists 3 of 3 failing paths found; a refused body is searched only as far as the list needs, so more may fail." });
  assert.equal(REPORTED_PATHS, 100);
  const e = (keyword: string, params: Record<string, unknown> = {}) => ({ instancePath: '/requestBody/s', keyword, params, schemaPath: '' }) as ErrorObject;
  const long = 'x'.repeat(5000);
  assert.deepEqual(bodyErrors([e('type', { type: 'integer' }), e('format', { format: 'date' }), e('enum')], { s: long })['$.s'], [
    `The value "${'x'.repeat(99)}… is not valid for s; expected integer.`,
    `The value '${'x'.repeat(100)}…' is not valid for s.`,
    `The value "${'x'.repeat(99)}… is not valid for s.`,
  ]);
  assert.deepEqual(queryErrors([{ instancePath: '/query/limit', keyword: 'type', params: {}, schemaPath: '' } as ErrorObject], { limit: long }).map((q) => q.message), [`The value '${'x'.repeat(100)}…' is not valid for limit.`]);
  // Cut past 100 characters: a value of exactly 100 is shown whole, one of 101 is cut.
  for (const [length, shownAs] of [[100, 'x'.repeat(100)], [101, `${'x'.repeat(100)}…`]] as const) {
    assert.deepEqual(bodyErrors([e('format', { format: 'date' })], { s: 'x'.repeat(length) })['$.s'], [`The value '${shownAs}' is not valid for s.`], String(length));
  }
});

test('jsonPath and the wording of every kind of body error', () => {
  assert.equal(jsonPath([]), '$');
  assert.equal(jsonPath(['a', '0', 'b', '12']), '$.a[0].b[12]');
  assert.equal(jsonPath(['a1', '1a']), '$.a1.1a');
  const e = (instancePath: string, keyword: string, params: Record<string, unknown> = {}, message?: string) => ({ instancePath, keyword, params, schemaPath: '', ...(message ? { message } : {}) }) as ErrorObject;
  const body = { a: [{ 'x/y': ' v', 'm~n': '   ' }], n: 7, s: 'text' };
  assert.deepEqual(bodyErrors([
    e('/query/limit', 'type', { type: 'integer' }),
    e('/requestBody/a/0/x~1y', 'pattern'),
    e('/requestBody/a/0/m~0n', 'pattern'),
    e('/requestBody/a/0', 'required', { missingProperty: 'k' }),
    e('/requestBody/a', 'minItems'),
    e('/requestBody/a/0/x~1y', 'pattern'),
    e('/requestBody/n', 'enum'),
    e('/requestBody/n', 'minimum', {}, 'must be >= 9'),
    e('/requestBody/n', 'maximum'),
    e('/requestBody/s', 'format', { format: 'date' }),
    e('/requestBody/s', 'format', { format: 'int64' }),
    e('/requestBody/s', 'allOf'),
    e('/requestBody/s', 'anyOf'),
    e('/requestBody/s', 'const', {}, 'must be equal to constant'),
    e('/requestBody/s', 'oneOf'),
    e('/requestBody/a/0', 'type', { type: 'object' }),
    e('/requestBody', 'required', { missingProperty: 'top' }),
    e('/requestBody/0', 'minLength', { limit: 2 }),
    e('/requestBody/line1', 'maxLength', { limit: 3 }),
    e('/requestBody/a/12', 'maxLength', { limit: 4 }),
    e('/requestBody/1a', 'maxLength', { limit: 5 }),
    e('/requestBody/n', 'minimum'),
  ], body), {
    '$.a[0].x/y': ['x/y cannot contain leading or trailing spaces.'],
    '$.a[0].m~n': ['m~n is required and should not be left empty.'],
    '$.a[0].k': ['k is required.'],
    '$.a': ['a is required and should not be left empty.'],
    '$.n': ['The value 7 is not valid for n.', 'n must be >= 9.', 'n is out of range.'],
    '$.line1': ['line1 Value should be at most 3 characters'],
    '$.a[12]': ['a Value should be at most 4 characters'],
    '$.1a': ['1a Value should be at most 5 characters'],
    '$.s': ["The value 'text' is not valid for s.", 's Value is outside the range of int64.', 's must be equal to constant.', 's is invalid.'],
    '$.a[0]': ['The value {"x/y":" v","m~n":"   "} is not valid for a; expected object.'],
    '$.top': ['top is required.'],
    '$[0]': ['value Value should be at least 2 characters'],
  });
  // A value under a non-object is undefined, not a crash.
  assert.deepEqual(bodyErrors([e('/requestBody/s/x', 'type', { type: 'integer' })], body), { '$.s.x': ['The value undefined is not valid for x; expected integer.'] });
  assert.deepEqual(bodyErrors([e('/requestBody/s/x', 'type', { type: 'integer' })], null), { '$.s.x': ['The value undefined is not valid for x; expected integer.'] });
  assert.deepEqual(bodyErrors([e('/requestBody/s/0', 'type', { type: 'integer' })], body), { '$.s[0]': ['The value undefined is not valid for s; expected integer.'] }, 'text is not indexed');
});

test('queryErrors names each offending parameter, unknown ones included, and ignores body errors', () => {
  const e = (instancePath: string, keyword: string, params: Record<string, unknown> = {}) => ({ instancePath, keyword, params, schemaPath: '' }) as ErrorObject;
  assert.deepEqual(queryErrors([
    e('/requestBody/x', 'type'),
    e('/query', 'additionalProperties', { additionalProperty: 'foo' }),
    e('/query/limit', 'type'),
    e('/query', 'required'),
  ], { limit: 'abc' }), [
    { name: 'foo', keyword: 'additionalProperties', message: "The query parameter 'foo' is not supported by this resource." },
    { name: 'limit', keyword: 'type', message: "The value 'abc' is not valid for limit." },
    { name: '', keyword: 'required', message: "The value 'undefined' is not valid for ." },
  ]);
});

test('query values are coerced to their types once valid, and left as sent when not', async () => {
  const ok = await ref.data('students?limit=1&offset=0&totalCount=true');
  assert.equal(ok.status, 200);
  assert.equal(ok.headers.get('total-count'), String(ref.store.collection('student').byId.size));
  const bad = await ref.data('students?limit=abc&offset=-1&foo=1&totalCount=maybe');
  assert.equal(bad.status, 400);
  assert.deepEqual(((await bad.json()) as { errors: string[] }).errors, [
    "The query parameter 'foo' is not supported by this resource.",
    'Offset must be greater than or equal to 0.',
    'Limit must be omitted or set to a value between 0 and 500.',
    "The value 'maybe' is not valid for totalCount.",
  ]);
});

/** A validator of its own (nothing compiled yet) over the generated 5.2 documents, as the reference builds it. */
function validator52(): RequestValidator {
  const section = (name: string) => JSON.parse(readFileSync(new URL(`../../spec/openapi-standards/ds-5.2/${name}.json`, import.meta.url), 'utf8')) as Record<string, unknown>;
  return new RequestValidator(validationDocument({ resources: section('resources'), descriptors: section('descriptors') }) as never);
}

test('the validator compiles named operations ahead of use and refuses an operation it does not have', async () => {
  const validator = validator52();
  assert.throws(() => validator.warm(['nosuchOperation']), (e: Error) => e.message === 'unknown operation nosuchOperation');
  assert.throws(() => validator.validate('nosuchOperation', { query: {} }), (e: Error) => e.message === 'unknown operation nosuchOperation');
  const { getAll, post } = operationIds(resource('student'));
  validator.warm([getAll, post]);
  assert.deepEqual(validator.validate(getAll, { query: { limit: '5', totalCount: 'true' } }), { errors: [], query: { limit: 5, totalCount: true }, complete: true });
  const { errors, query } = validator.validate(getAll, { query: { limit: 'x', offset: '2' } });
  assert.deepEqual([errors.map((e) => e.instancePath), query], [['/query/limit'], { limit: 'x', offset: 2 }]);
  assert.deepEqual(validator.validate(post, { query: {}, body: student('V-9') }).errors, []);
  assert.deepEqual(validator.validate(post, { query: {}, body: { ...student('V-9'), birthDate: 5 } }).errors.map((e) => [e.instancePath, e.keyword]), [['/requestBody/birthDate', 'type']]);

  // A refused body is read for all its errors only in a copy of REPORT_BUDGET values: the errors
  // of 1.4 million empty items (five required members each) are bounded by the budget, not the body.
  const community = operationIds(resource('communityOrganization')).post;
  const base = { communityOrganizationId: 7, nameOfInstitution: 'C', categories: [{ educationOrganizationCategoryDescriptor: 'd' }] };
  const huge = validator.validate(community, { query: {}, body: { ...base, addresses: Array.from({ length: 1_400_000 }, () => ({})) } });
  assert.equal(huge.complete, false);
  assert.ok(huge.errors.length <= 5 * REPORT_BUDGET, String(huge.errors.length));
  assert.ok(huge.errors.length >= 5 * (REPORT_BUDGET - 10), String(huge.errors.length));
  // Every error of a small body, each once; the copy is not cut.
  const small = validator.validate(community, { query: {}, body: { ...base, addresses: [{}, {}] } });
  assert.deepEqual([small.complete, small.errors.length], [true, 10]);
  // A failure past the copy is still found: acceptance reads the whole body.
  const address = { addressTypeDescriptor: 'd', streetNumberName: 's', city: 'cc', stateAbbreviationDescriptor: 'd', postalCode: 'p' };
  const late = validator.validate(community, { query: {}, body: { ...base, addresses: [...Array.from({ length: REPORT_BUDGET }, () => address), {}] } });
  assert.deepEqual([late.complete, late.errors.map((e) => e.instancePath)], [false, [`/requestBody/addresses/${REPORT_BUDGET}`]]);
  assert.deepEqual(validator.validate(community, { query: {}, body: { ...base, addresses: Array.from({ length: 3 * REPORT_BUDGET }, () => address) } }), { errors: [], query: {}, complete: true });
});

test('a resource\'s POST and PUT share one compiled body validator, each with its own parameters', () => {
  const validator = validator52();
  const { post, put } = operationIds(resource('student'));
  const compile = Ajv.prototype.compile;
  let compiled = 0;
  Ajv.prototype.compile = function counted(this: Ajv, ...args: Parameters<Ajv['compile']>) { compiled++; return compile.apply(this, args); } as Ajv['compile'];
  const compiles = (work: () => unknown) => { compiled = 0; work(); return compiled; };
  try {
    assert.equal(compiles(() => validator.warm([post])), 3); // the parameters; the body, with the parameters that come with it
    assert.equal(compiles(() => validator.warm([put])), 1); // its parameters only
    const bad = { ...student('V-10'), birthDate: 5 };
    // (Path parameters are not given to validate(), so a PUT's errors under /path say nothing.)
    const paths = (op: string) => validator.validate(op, { query: {}, body: bad }).errors.filter((e) => !e.instancePath.startsWith('/path')).map((e) => [e.instancePath, e.keyword]);
    // The reporter's: the body, with the parameters that come with it; no parameters of its own (a report reads the body's errors alone).
    assert.equal(compiles(() => assert.deepEqual(paths(post), [['/requestBody/birthDate', 'type']])), 2);
    assert.equal(compiles(() => assert.deepEqual(paths(put), [['/requestBody/birthDate', 'type']])), 0);
  } finally {
    Ajv.prototype.compile = compile;
  }
  // The body's validator brings no parameters of its own: neither operation refuses the other's.
  assert.deepEqual(validator.validate(post, { query: {}, body: student('V-10') }).errors, []);
  assert.deepEqual(validator.validate(put, { query: {}, body: student('V-10') }).errors.map((e) => e.instancePath), ['/path']);
  assert.deepEqual(validator.validate(post, { query: { foo: '1' }, body: student('V-10') }).errors.map((e) => e.instancePath), ['/query']);
});

test('operations with the same parameters share one compiled parameter validator, and each still judges its own query', () => {
  const validator = validator52();
  const student = operationIds(resource('student'));
  const school = operationIds(resource('school'));
  const compile = Ajv.prototype.compile;
  let compiled = 0;
  Ajv.prototype.compile = function counted(this: Ajv, ...args: Parameters<Ajv['compile']>) { compiled++; return compile.apply(this, args); } as Ajv['compile'];
  const compiles = (work: () => unknown) => { compiled = 0; work(); return compiled; };
  try {
    // Four operations, three sets of parameters (/deletes and /keyChanges take the same ones).
    assert.equal(compiles(() => validator.warm([student.deletes, student.keyChanges, student.getById, student.delete])), 3);
    // Every resource's feeds and item routes take the same parameters as the student's.
    assert.equal(compiles(() => validator.warm([school.deletes, school.keyChanges, school.getById, school.delete])), 0);
    // A collection's query members are its own.
    assert.equal(compiles(() => validator.warm([student.getAll])), 1);
    assert.equal(compiles(() => validator.warm([school.getAll])), 1);
  } finally {
    Ajv.prototype.compile = compile;
  }
  // Shared, each operation's query is still judged by its own parameters.
  const queryErrors = (op: string, query: Record<string, string>) => validator.validate(op, { query }).errors.filter((e) => e.instancePath.startsWith('/query')).map((e) => e.instancePath);
  assert.deepEqual(queryErrors(school.deletes, { limit: 'x' }), ['/query/limit']);
  assert.deepEqual(validator.validate(school.deletes, { query: { limit: '5' } }).query, { limit: 5 });
  assert.deepEqual(queryErrors(school.getAll, { schoolId: 'x' }), ['/query/schoolId']);
  assert.deepEqual(queryErrors(student.getAll, { studentUniqueId: 'S-1' }), []);
  assert.deepEqual(queryErrors(student.getAll, { schoolId: '1' }), ['/query']);
});

test('operations sharing a body schema but not its requiredness keep their own body validators', () => {
  const body = (required: boolean) => ({ required, content: { 'application/json': { schema: { $ref: '#/components/schemas/thing' } } } });
  const operation = (operationId: string, required: boolean) => ({ post: { operationId, requestBody: body(required), responses: { 200: { description: 'ok' } } } });
  const validator = new RequestValidator({
    openapi: '3.0.0', info: { title: 'shared bodies', version: '1' },
    paths: { '/a': operation('postA', true), '/b': operation('postB', false), '/c': operation('postC', true) },
    components: { schemas: { thing: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } } },
  } as never);
  const missing = (op: string) => validator.validate(op, { query: {} }).errors.map((e) => e.params);
  const refused = (op: string) => validator.validate(op, { query: {}, body: {} }).errors.map((e) => [e.instancePath, e.keyword]);
  for (const op of ['postA', 'postB', 'postC', 'postA']) assert.deepEqual(refused(op), [['/requestBody', 'required']], op);
  assert.deepEqual(missing('postA'), [{ missingProperty: 'requestBody' }]);
  assert.deepEqual(missing('postB'), []);
  assert.deepEqual(missing('postC'), [{ missingProperty: 'requestBody' }]);
});
