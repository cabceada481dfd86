import { test, expect, target } from '../_harness/data.js';
import { newEducationOrganizationId, resourceOf, type Created } from '../_harness/builders.js';
import { unique } from '../_harness/fixtures.js';
import { expectProblem } from '../_harness/problem.js';
import { rule } from '../_harness/rules.js';
import { notInStandard } from '../_harness/standard-applicability.js';

/** Equality search: one query parameter per scalar property (plus id), reference keys by bare name. */
const valueAt = (created: Created, name: string): unknown => {
  if (name === 'id') return created.id;
  const field = resourceOf(created.resource.name).queryFields[name];
  return field.path.slice(2).split('.').reduce<unknown>((v, s) => (v as Record<string, unknown> | undefined)?.[s], created.body);
};
const idsOf = async (res: { json: () => Promise<unknown> }) => ((await res.json()) as { id: string }[]).map((i) => i.id);

/** The seed's examples of per-resource query parameters. */
const seedExamples: Record<string, string[]> = {
  academicWeek: ['weekIdentifier', 'schoolId', 'beginDate', 'endDate', 'id', 'totalInstructionalDays'],
  accountabilityRating: ['ratingTitle', 'educationOrganizationId', 'schoolYear', 'id', 'rating', 'ratingDate', 'ratingOrganization', 'ratingProgram'],
  assessment: ['assessmentIdentifier', 'namespace', 'educationOrganizationId', 'assessmentCategoryDescriptor', 'adaptiveAssessment', 'assessmentFamily', 'assessmentForm', 'assessmentTitle', 'assessmentVersion', 'id', 'maxRawScore', 'nomenclature', 'revisionDate'],
};

test.describe('query parameters of GET collection', () => {
  test('restricts the collection to items whose property equals the given value', rule('data.query-paging.property-equality-filter'), async ({ api, data }) => {
    const a = await data.create('academicWeek', { totalInstructionalDays: 3 });
    const b = await data.create('academicWeek', { schoolReference: a.body.schoolReference, totalInstructionalDays: 4 });
    const schoolId = (a.body.schoolReference as { schoolId: number }).schoolId;
    expect(await idsOf(await api.get(`academicWeeks?schoolId=${schoolId}&totalInstructionalDays=4`))).toEqual([b.id]);
    expect(await idsOf(await api.get(`academicWeeks?weekIdentifier=${encodeURIComponent(a.body.weekIdentifier as string)}`))).toEqual([a.id]);
  });

  test('answers a query by id with exactly the record of that id', rule('data.query-paging.scalar-properties-and-id-queryable', 'data.query-paging.property-equality-filter'), async ({ api, data }) => {
    const a = await data.create('academicWeek');
    await data.create('academicWeek', { schoolReference: a.body.schoolReference });
    expect(await idsOf(await api.get(`academicWeeks?id=${a.id}`))).toEqual([a.id]);
  });

  test('answers a query by id and another member, in either order, with exactly the record of that id', rule('data.query-paging.property-equality-filter'), async ({ api, data }) => {
    const a = await data.create('academicWeek');
    const b = await data.create('academicWeek', { schoolReference: a.body.schoolReference });
    const schoolId = (a.body.schoolReference as { schoolId: number }).schoolId;
    for (const query of [`schoolId=${schoolId}&id=${b.id}`, `id=${b.id}&schoolId=${schoolId}`]) {
      expect(await idsOf(await api.get(`academicWeeks?${query}`)), query).toEqual([b.id]);
    }
  });

  test('finds a record by a string member holding boolean text exactly as written (TRUE, False)', rule('data.query-paging.property-equality-filter'), async ({ api, data }) => {
    const namespace = `${target.testData.namespacePrefix}/${unique('bt')}`;
    const ns = encodeURIComponent(namespace);
    for (const codeValue of ['TRUE', 'False']) {
      const { id } = await data.newDescriptor('academicSubject', { namespace, codeValue });
      for (const query of [`codeValue=${codeValue}&namespace=${ns}`, `namespace=${ns}&codeValue=${codeValue}`]) {
        expect(await idsOf(await api.get(`academicSubjectDescriptors?${query}`)), query).toEqual([id]);
      }
    }
  });

  test('matches an int64 member past 2^53 by its exact value: the next integer finds nothing', rule('data.query-paging.property-equality-filter'), async ({ api, data }) => {
    if (resourceOf('academicWeek').queryFields.schoolId.kind !== 'int64') notInStandard('int64 schoolId');
    // 2^53 + 4k: a double holds it exactly, and the next integer (which a double cannot hold)
    // rounds to it, so a reading that goes through a double matches the neighbour too.
    const schoolId = 2 ** 53 + 4 * newEducationOrganizationId();
    const school = await data.school({ schoolId });
    const week = await data.create('academicWeek', { schoolReference: data.referenceTo(school) });
    expect(await idsOf(await api.get(`academicWeeks?schoolId=${schoolId}`)), 'the value itself').toEqual([week.id]);
    expect(await idsOf(await api.get(`academicWeeks?schoolId=${BigInt(schoolId) + 1n}`)), 'the next integer').toEqual([]);
  });

  test('restricts the collection by date-valued properties', rule('data.query-paging.property-equality-filter', 'data.query-paging.query-parameter-types'), async ({ api, data }) => {
    const a = await data.create('academicWeek', { beginDate: '2024-09-02', endDate: '2024-09-06' });
    const b = await data.create('academicWeek', { schoolReference: a.body.schoolReference, beginDate: '2024-09-09', endDate: '2024-09-13' });
    const schoolId = (a.body.schoolReference as { schoolId: number }).schoolId;
    expect(await idsOf(await api.get(`academicWeeks?schoolId=${schoolId}&beginDate=2024-09-09`))).toEqual([b.id]);
    expect(await idsOf(await api.get(`academicWeeks?schoolId=${schoolId}&endDate=2024-09-06`))).toEqual([a.id]);
  });

  for (const [resource, names] of Object.entries(seedExamples)) {
    test(`accepts every scalar property and id of ${resource} as a query parameter`, rule('data.query-paging.scalar-properties-and-id-queryable'), async ({ api, data }) => {
      const created = await data.create(resource, {}, { full: true });
      for (const name of names) {
        const value = valueAt(created, name);
        expect(value, `${name} has a value in the body`).not.toBeUndefined();
        const res = await api.get(`${created.resource.endpoint}?${name}=${encodeURIComponent(String(value))}`);
        expect(res.status(), `${name}=${String(value)}: ${await res.text()}`).toBe(200);
        expect(await idsOf(res), `${name}=${String(value)}`).toContain(created.id);
      }
    });
  }

  test('queries reference key fields by their bare names', rule('data.query-paging.reference-keys-by-bare-name'), async ({ api, data }) => {
    const rating = await data.create('accountabilityRating');
    const { educationOrganizationId } = rating.body.educationOrganizationReference as { educationOrganizationId: number };
    const { schoolYear } = rating.body.schoolYearTypeReference as { schoolYear: number };
    expect(await idsOf(await api.get(`accountabilityRatings?educationOrganizationId=${educationOrganizationId}&schoolYear=${schoolYear}`))).toEqual([rating.id]);
    const week = await data.create('academicWeek');
    expect(await idsOf(await api.get(`academicWeeks?schoolId=${(week.body.schoolReference as { schoolId: number }).schoolId}`))).toEqual([week.id]);
  });

  // schoolId's type is the judged standard's (seed: int64 "in newer releases"; 4.0's is int32):
  // its largest value is accepted, and for an int64 one a value past the int32 range.
  const schoolIdKind = resourceOf('academicWeek').queryFields.schoolId.kind;
  const largeSchoolId = schoolIdKind === 'int64' ? '3000000000' : '2147483647';
  test(`types schoolId as ${schoolIdKind}, schoolYear as int32 and dates as full dates`, rule('data.query-paging.query-parameter-types'), async ({ api, data }) => {
    expect((await api.get(`academicWeeks?schoolId=${largeSchoolId}`)).status()).toBe(200);
    const rating = await data.create('accountabilityRating', { ratingDate: '2024-09-01' });
    const { schoolYear } = rating.body.schoolYearTypeReference as { schoolYear: number };
    expect(await idsOf(await api.get(`accountabilityRatings?schoolYear=${schoolYear}&ratingDate=2024-09-01&ratingTitle=${encodeURIComponent(rating.body.ratingTitle as string)}`))).toEqual([rating.id]);
  });

  test('refuses a query parameter that is neither paging nor a property with 400', rule('data.query-paging.unknown-parameter-400'), async ({ api }) => {
    const res = await api.get('academicWeeks?notAProperty=1');
    expect(res.status()).toBe(400);
  });

  for (const [name, value] of [['schoolId', 'abc'], ['beginDate', 'notadate'], ['totalInstructionalDays', '5x']]) {
    test(`refuses ${name}=${value} with 400 data-validation-failed at $.${name}`, rule('data.query-paging.wrong-type-parameter-400'), async ({ api }) => {
      const problem = await expectProblem(await api.get(`academicWeeks?${name}=${value}`), 'bad-request:data-validation-failed');
      expect(Object.keys(problem.validationErrors ?? {})).toContain(`$.${name}`);
    });
  }
});

test.describe('scalar values round-trip through query parameters', () => {
  test('finds a record by a descriptor-valued property', rule('data.query-paging.property-equality-filter'), async ({ api, data }) => {
    const calendar = await data.create('calendar');
    const res = await api.get(`calendars?calendarTypeDescriptor=${encodeURIComponent(calendar.body.calendarTypeDescriptor as string)}`);
    expect(await idsOf(res)).toEqual([calendar.id]);
  });

  // An int64 value past 2^53 has no exact JavaScript number, and a deployment that reads query
  // values as doubles compares a neighbour instead: the body is written as JSON text, the value
  // odd, so no double holds it. The query must find the record (this rule); that it finds only
  // it is the equality filter's rule, checked elsewhere.
  test('finds a school by a schoolId past 2^53, compared by its exact value', rule('data.query-paging.scalar-properties-and-id-queryable'), async ({ api, data }) => {
    if (resourceOf('school').fields.schoolId?.kind !== 'int64') notInStandard("int64 schoolId (school's schoolId is int32)");
    const marker = 3_000_000_000 + newEducationOrganizationId();
    const exact = (2n ** 53n + 2n * BigInt(marker) + 1n).toString();
    const body = await data.body('school', { schoolId: marker }, { shared: true });
    const text = JSON.stringify(body).replace(`"schoolId":${marker}`, `"schoolId":${exact}`);
    expect(text, 'the body names the exact schoolId').toContain(`"schoolId":${exact}`);
    const posted = await api.post('schools', text);
    expect(posted.status(), `POST schools with schoolId ${exact}: ${await posted.text()}`).toBe(201);
    const id = api.url(posted.headers().location).split('/').pop();
    const res = await api.get(`schools?schoolId=${exact}`);
    expect(res.status(), `schools?schoolId=${exact}: ${await res.text()}`).toBe(200);
    expect(await idsOf(res), `schools?schoolId=${exact}`).toContain(id);
  });
});
