import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compileModel, ModelError } from '../model/compile.js';
import { seedDescriptors } from '../model/descriptors.js';
import { K, R, int32, ref, resource, str } from '../model/dsl.js';
import { model } from '../model/index.js';
import { compileServed } from '../model/served.js';

/** The compiled model reproduces what the data-API seed states. */
const byEndpoint = (e: string) => {
  const r = model.byEndpoint.get(e.toLowerCase());
  assert.ok(r, `no resource ${e}`);
  return r;
};

test('every reference shape of the seed table comes out of the model', () => {
  // Seed: "Reference shapes (key fields)".
  const table: Record<string, string[]> = {
    schoolReference: ['schoolId'],
    educationOrganizationReference: ['educationOrganizationId'],
    schoolYearTypeReference: ['schoolYear'],
    academicWeekReference: ['schoolId', 'weekIdentifier'],
    balanceSheetDimensionReference: ['code', 'fiscalYear'],
    calendarReference: ['calendarCode', 'schoolId', 'schoolYear'],
    calendarDateReference: ['calendarCode', 'date', 'schoolId', 'schoolYear'],
    chartOfAccountReference: ['accountIdentifier', 'educationOrganizationId', 'fiscalYear'],
    classPeriodReference: ['classPeriodName', 'schoolId'],
    cohortReference: ['cohortIdentifier', 'educationOrganizationId'],
    communityOrganizationReference: ['communityOrganizationId'],
    courseReference: ['courseCode', 'educationOrganizationId'],
    courseOfferingReference: ['localCourseCode', 'schoolId', 'schoolYear', 'sessionName'],
    credentialReference: ['credentialIdentifier', 'stateOfIssueStateAbbreviationDescriptor'],
    assessmentItemReference: ['assessmentIdentifier', 'identificationCode', 'namespace'],
  };
  for (const [name, fields] of Object.entries(table)) {
    const target = name.replace(/Reference$/, '');
    const refs = model.resources.flatMap((r) => r.references).filter((r) => r.target === target);
    if (!refs.length) {
      // Not referenced by any modelled resource: derive the shape from the target's identity.
      const t = model.byName.get(target);
      assert.ok(t, `no resource ${target}`);
      assert.deepEqual(t.identity.map((k) => k.path.split('.').pop()).sort(), fields, name);
      continue;
    }
    assert.deepEqual(refs[0].fields.map((f) => f.property).sort(), fields, name);
  }
});

test('the seed query-parameter examples are exactly the query fields', () => {
  const expected: Record<string, string[]> = {
    academicWeeks: ['weekIdentifier', 'schoolId', 'beginDate', 'endDate', 'id', 'totalInstructionalDays'],
    accountabilityRatings: ['ratingTitle', 'educationOrganizationId', 'schoolYear', 'id', 'rating', 'ratingDate', 'ratingOrganization', 'ratingProgram'],
    assessments: ['assessmentIdentifier', 'namespace', 'educationOrganizationId', 'assessmentCategoryDescriptor', 'adaptiveAssessment', 'assessmentFamily', 'assessmentForm', 'assessmentTitle', 'assessmentVersion', 'id', 'maxRawScore', 'nomenclature', 'revisionDate'],
  };
  for (const [endpoint, names] of Object.entries(expected)) assert.deepEqual(Object.keys(byEndpoint(endpoint).queryFields).sort(), [...names].sort(), endpoint);
  // The examples write schoolId "(int64)", the width of newer releases (the seed's Integers row:
  // "int64 in newer releases"); the seed's standard, 4.0, has int32 (decision 44). Both hold.
  assert.equal(byEndpoint('academicWeeks').queryFields.schoolId.kind, 'int32');
  assert.equal(compileServed('5.2').byEndpoint.get('academicweeks')!.queryFields.schoolId.kind, 'int64');
  assert.equal(byEndpoint('accountabilityRatings').queryFields.schoolYear.kind, 'int32');
});

test('all 38 descriptor resources of the seed are served at their plural paths', () => {
  assert.equal(seedDescriptors.length, 38);
  for (const d of seedDescriptors) {
    const r = byEndpoint(`${d}Descriptors`);
    assert.equal(r.isDescriptor, true);
    assert.deepEqual(Object.keys(r.fields), [`${d}DescriptorId`, 'codeValue', 'namespace', 'shortDescription', 'description', 'effectiveBeginDate', 'effectiveEndDate', 'priorDescriptorId']);
  }
});

test('every resource the seed shows is modelled', () => {
  for (const e of ['academicWeeks', 'accountabilityRatings', 'assessments', 'assessmentItems', 'balanceSheetDimensions', 'bellSchedules', 'calendars', 'calendarDates', 'chartOfAccounts', 'classPeriods', 'cohorts', 'communityOrganizations', 'communityProviders', 'communityProviderLicenses', 'courses', 'courseOfferings', 'courseTranscripts', 'credentials']) byEndpoint(e);
});

test('updatable resources, deprecations and key unification are derived', () => {
  for (const e of ['classPeriods', 'sessions', 'sections', 'studentSchoolAssociations', 'studentSectionAssociations']) assert.equal(byEndpoint(e).updatable, true, e);
  assert.equal(byEndpoint('academicWeeks').updatable, false);
  assert.deepEqual(byEndpoint('courseTranscripts').deprecated.map((d) => d.path), ['$.alternativeCourseCode']);
  const eq = byEndpoint('courseOfferings').equalities.find((e) => e.name === 'schoolId');
  assert.deepEqual(eq?.paths, ['$.schoolReference.schoolId', '$.sessionReference.schoolId']);
  const bell = byEndpoint('bellSchedules').equalities.find((e) => e.name === 'schoolId');
  assert.deepEqual(bell?.paths, ['$.schoolReference.schoolId', '$.classPeriods[*].classPeriodReference.schoolId']);
});

test('abstract education organizations resolve against every member type', () => {
  const eo = model.abstracts.find((a) => a.name === 'educationOrganization');
  assert.ok(eo);
  const members = eo.members.map((m) => m.resource).sort();
  for (const m of ['school', 'localEducationAgency', 'stateEducationAgency', 'communityOrganization', 'communityProvider']) assert.ok(members.includes(m), m);
});

test('a new descriptor or resource needs only a model entry; model errors are reported', () => {
  const extra = resource({ name: 'widget', fields: { widgetCode: str(20, K), schoolReference: ref('school', R), size: int32() } });
  const school = resource({ name: 'school', fields: { schoolId: int32(K) } });
  const m = compileModel([extra, school], [], ['widgetKind']);
  assert.ok(m.byEndpoint.get('widgetkinddescriptors'));
  assert.deepEqual(m.byName.get('widget')!.identity.map((k) => k.name), ['widgetCode']);
  assert.throws(() => compileModel([resource({ name: 'broken', fields: { x: str(5, K), y: ref('nothing') } })], [], []), ModelError);
  assert.throws(() => compileModel([resource({ name: 'noKey', fields: { x: str(5) } })], [], []), ModelError);
});
