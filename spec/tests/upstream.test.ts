import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compileServed } from '../model/served.js';
import { readExtract } from '../model/upstream.js';
import { diffAgainstUpstream } from '../model/upstream-diff.js';

/**
 * A deployment of Data Standard 5.2 serves it exactly as upstream (decision 44: no seed rows on
 * it). That each standard is its extract but for the declared corrections is held by
 * standards.test.ts, the seed's rows (4.0's) by seed-vs-4.0.test.ts; here, the comparison's own
 * sight and the upstream shapes the rest of the model builds on, on 5.2.
 */
const model = compileServed('5.2');
const upstream = readExtract('5.2');

test('the comparison sees a difference nobody declared', () => {
  const school = model.byName.get('school')!;
  const saved = school.fields.nameOfInstitution;
  try {
    school.fields.nameOfInstitution = { ...saved, maxLength: 74 } as typeof saved;
    const rows = diffAgainstUpstream(model, upstream);
    assert.ok(rows.some((r) => r.at === 'school $.nameOfInstitution' && r.what.startsWith('maxLength 74')), 'a changed length');
    delete (school.fields as Record<string, unknown>).nameOfInstitution;
    assert.ok(diffAgainstUpstream(model, upstream).some((r) => r.at === 'school $.nameOfInstitution' && r.what === 'missing'), 'a missing member');
  } finally {
    school.fields.nameOfInstitution = saved;
  }
});

test('every upstream resource and descriptor of 5.2 has its endpoint: 138 + 211, and no other', () => {
  const concrete = Object.entries(upstream.resources).filter(([, r]) => !r.abstract && r.resourceName !== 'GeneralStudentProgramAssociation');
  assert.equal(concrete.length, 138);
  assert.equal(upstream.descriptors.length, 211);
  for (const [, r] of concrete) assert.ok(model.byEndpoint.get(r.endpoint.toLowerCase()), r.endpoint);
  for (const d of upstream.descriptors) assert.ok(model.byEndpoint.get(d.endpoint.toLowerCase())?.isDescriptor, d.endpoint);
  assert.equal(model.resources.length, 138 + 211);
  assert.ok(!model.byEndpoint.get('learningobjectives'), 'the seed\'s 4.0 LearningObjective is not served on 5.2');
  assert.ok(!model.byEndpoint.get('educationorganizations') && !model.byEndpoint.get('generalstudentprogramassociations'), 'abstract resources have no endpoint');
});

test('School is upstream-shaped: educationOrganizationCategories, required', () => {
  const school = model.byName.get('school')!;
  assert.equal(school.fields.educationOrganizationCategories?.required, true);
  assert.equal(school.fields.categories, undefined);
  assert.equal(model.byName.get('localEducationAgency')!.fields.categories?.required, true);
});

test('abstract references resolve against their members: organizations by own id, program associations by shared identity', () => {
  const eo = model.abstracts.find((a) => a.name === 'educationOrganization')!;
  assert.deepEqual(eo.members.map((m) => m.resource).sort(), [
    'communityOrganization', 'communityProvider', 'educationOrganizationNetwork', 'educationServiceCenter', 'localEducationAgency',
    'organizationDepartment', 'postSecondaryInstitution', 'school', 'stateEducationAgency',
  ]);
  assert.equal(eo.members.find((m) => m.resource === 'school')!.fieldFor.educationOrganizationId, 'schoolId');
  const gspa = model.abstracts.find((a) => a.name === 'generalStudentProgramAssociation')!;
  assert.deepEqual(gspa.identity.map((k) => k.name).sort(), ['beginDate', 'educationOrganizationId', 'programEducationOrganizationId', 'programName', 'programTypeDescriptor', 'studentUniqueId']);
  assert.equal(gspa.members.length, 10);
  for (const m of gspa.members) assert.deepEqual(model.byName.get(m.resource)!.identity.map((k) => k.name).sort(), gspa.identity.map((k) => k.name).sort(), m.resource);
});

test('role-named and merged key names follow upstream query parameters', () => {
  const q = (r: string) => Object.keys(model.byName.get(r)!.queryFields);
  assert.ok(q('localEducationAgency').includes('parentLocalEducationAgencyId'));
  assert.ok(q('studentSchoolAssociation').includes('classOfSchoolYear'));
  assert.ok(q('courseTranscript').includes('courseEducationOrganizationId'));
  assert.ok(q('studentProgramAssociation').includes('programEducationOrganizationId'));
  assert.ok(q('chartOfAccount').includes('balanceSheetCode'));
  assert.ok(q('studentCompetencyObjective').includes('objectiveEducationOrganizationId'));
  // merged: the parent objective assessment shares the document's own assessment
  assert.deepEqual(model.byName.get('objectiveAssessment')!.equalities.find((e) => e.name === 'assessmentIdentifier')?.paths.sort(),
    ['$.assessmentReference.assessmentIdentifier', '$.parentObjectiveAssessmentReference.assessmentIdentifier']);
});
