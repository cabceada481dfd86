import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compileStandard, defineStandard, unresolvedAnnotations } from '../model/standards.js';
import { model, definitions } from '../model/index.js';
import { dataStandards, defaultStandard, isAbstract, readExtract, type DataStandard } from '../model/upstream.js';
import { annotationsFor } from '../model/annotations.js';
import { overlay } from '../model/overlay.js';
import { diffAgainstUpstream } from '../model/upstream-diff.js';
import { dependencyOrder } from '../model/dependencies.js';
import { fingerprint, modelText } from '../model/fingerprint.js';
import type { CompiledModel } from '../model/compiled.js';

/**
 * The registry of data standards (#22): each pinned standard compiles on demand, exactly as its
 * extract says (but for the declared corrections), with the facts versions.md gives for it.
 */
const compiled = new Map<DataStandard, CompiledModel>();
const standard = (s: DataStandard): CompiledModel => {
  let m = compiled.get(s);
  if (!m) compiled.set(s, (m = compileStandard(s)));
  return m;
};
/** A resource's natural key as `name:kind`, sorted (the model keeps the extract's member order). */
const key = (m: CompiledModel, resource: string) => m.byName.get(resource)!.identity.map((k) => `${k.name}:${k.kind}`).sort();

/** research/upstream-shapes/versions.md, "Counts": resources with endpoints, descriptors, endpoints. */
const COUNTS: Record<DataStandard, { resources: number; descriptors: number; endpoints: number }> = {
  '4.0': { resources: 125, descriptors: 189, endpoints: 314 },
  '5.2': { resources: 138, descriptors: 211, endpoints: 349 },
  '6.1': { resources: 192, descriptors: 280, endpoints: 472 },
};

for (const s of dataStandards) {
  test(`DS ${s} compiles with ${COUNTS[s].endpoints} endpoints (${COUNTS[s].resources} resources, ${COUNTS[s].descriptors} descriptors), every one its extract's`, () => {
    const m = standard(s);
    const extract = readExtract(s);
    assert.equal(m.resources.filter((r) => !r.isDescriptor).length, COUNTS[s].resources);
    assert.equal(m.resources.filter((r) => r.isDescriptor).length, COUNTS[s].descriptors);
    assert.equal(m.resources.length, COUNTS[s].endpoints);
    assert.deepEqual(m.abstracts.map((a) => a.name).sort(), ['educationOrganization', 'generalStudentProgramAssociation']);
    // Paths are matched without regard to case (the model writes some descriptor endpoints otherwise: below).
    const expected = [
      ...Object.entries(extract.resources).filter(([n]) => !isAbstract(extract, n)).map(([, r]) => r.endpoint),
      ...extract.descriptors.map((d) => d.endpoint),
    ].map((e) => e.toLowerCase()).sort();
    assert.deepEqual(m.resources.map((r) => r.endpoint.toLowerCase()).sort(), expected);
  });

  test(`DS ${s} is its extract exactly, but for the seed's descriptor members and the declared extract corrections`, () => {
    const rows = diffAgainstUpstream(standard(s), readExtract(s));
    const found = [...new Set(rows.map((r) => r.at))].sort();
    const allowed = [
      // compile.ts's shared descriptor shape carries the seed's two id members on every standard (#22 point 1).
      'descriptors $.<name>DescriptorId', 'descriptors $.priorDescriptorId',
      ...annotationsFor(s).extractCorrections.map((c) => c.at),
    ].sort();
    assert.deepEqual(found, allowed, rows.map((r) => `${r.at}: ${r.what}`).join('\n'));
  });

  test(`every annotation of DS ${s} names something DS ${s} has`, () => {
    assert.deepEqual(unresolvedAnnotations(s), []);
  });
}

test('the 5.2 annotations that name what 4.0 and 6.1 do not have are exactly these (each restated in annotations.ts)', () => {
  assert.deepEqual(unresolvedAnnotations('4.0', annotationsFor('5.2')), [
    'person contact: no such resource',
    'relationship studentContactAssociation: no such resource',
    'queryNamesByReference studentAssessmentRegistration $.scheduledStudentEducationOrganizationAssessmentAccommodationReference: no such resource',
  ]);
  assert.deepEqual(unresolvedAnnotations('6.1', annotationsFor('5.2')), [
    'queryNamesByReference objectiveAssessment $.parentObjectiveAssessmentReference: no member $.parentObjectiveAssessmentReference',
  ]);
});

test('an annotation naming what the standard lacks is reported, not ignored', () => {
  const a = annotationsFor('6.1');
  const broken = {
    ...a,
    updatable: [...a.updatable, 'parent'],
    relationships: { ...a.relationships, studentSchoolAssociation: { person: 'student' as const, via: 'studentRef' } },
    educationOrganizationParents: { ...a.educationOrganizationParents, school: ['nameOfInstitution'] },
    queryNamesByTarget: { ...a.queryNamesByTarget, learningObjective: { namespace: 'x' } },
  };
  assert.deepEqual(unresolvedAnnotations('6.1', broken), [
    'updatable parent: no such resource',
    'relationship studentSchoolAssociation: no member $.studentRef',
    'educationOrganizationParents school: $.nameOfInstitution is no reference',
    'queryNamesByTarget learningObjective: no such resource',
  ]);
});

test('descriptor endpoints whose name starts with an acronym differ from upstream\'s in case only (served today; a finding for #22 point 1)', () => {
  const caseOnly = (s: DataStandard) => readExtract(s).descriptors
    .map((d) => [d.endpoint, standard(s).byEndpoint.get(d.endpoint.toLowerCase())!.endpoint])
    .filter(([theirs, ours]) => theirs !== ours).map(([theirs, ours]) => `${ours} (upstream ${theirs})`);
  assert.deepEqual(caseOnly('4.0'), ['cTEProgramServiceDescriptors (upstream cteProgramServiceDescriptors)']);
  assert.deepEqual(caseOnly('5.2'), ['cTEProgramServiceDescriptors (upstream cteProgramServiceDescriptors)', 'iDEAPartDescriptors (upstream ideaPartDescriptors)']);
  assert.equal(caseOnly('6.1').length, 7);
  for (const s of dataStandards) {
    for (const [, r] of Object.entries(readExtract(s).resources)) {
      if (standard(s).byName.get(r.resourceName.charAt(0).toLowerCase() + r.resourceName.slice(1))) assert.equal(standard(s).byEndpoint.get(r.endpoint.toLowerCase())?.endpoint, r.endpoint, `${s} ${r.endpoint}`);
    }
  }
});

test('GradingPeriod is keyed by periodSequence in 4.0 and by gradingPeriodName in 5.2 and 6.1, and so are the grades', () => {
  assert.deepEqual(key(standard('4.0'), 'gradingPeriod'), ['gradingPeriodDescriptor:descriptor', 'periodSequence:int32', 'schoolId:int32', 'schoolYear:int32']);
  assert.equal(standard('4.0').byName.get('gradingPeriod')!.fields.gradingPeriodName, undefined);
  for (const s of ['5.2', '6.1'] as const) {
    assert.deepEqual(key(standard(s), 'gradingPeriod'), ['gradingPeriodDescriptor:descriptor', 'gradingPeriodName:string', 'schoolId:int64', 'schoolYear:int32'], s);
  }
  // The grading period's role names carry into every reference to a grade (4.0 extract: gradingPeriodSequence).
  const gradeRef = (m: CompiledModel) => m.byName.get('reportCard')!.references.find((r) => r.path === '$.grades[*].gradeReference')!.fields.map((f) => f.property);
  assert.ok(gradeRef(standard('4.0')).includes('gradingPeriodSequence') && !gradeRef(standard('4.0')).includes('gradingPeriodName'));
  assert.ok(gradeRef(standard('6.1')).includes('gradingPeriodName') && gradeRef(standard('6.1')).includes('gradingPeriodSchoolYear'));
});

test('education organization ids are int32 in 4.0 and int64 in 5.2 and 6.1, the abstract one included', () => {
  const widths = (m: CompiledModel) => [
    m.byName.get('school')!.fields.schoolId.kind,
    m.byName.get('localEducationAgency')!.fields.localEducationAgencyId.kind,
    m.byName.get('academicWeek')!.queryFields.schoolId.kind,
    m.abstracts.find((a) => a.name === 'educationOrganization')!.identity[0].kind,
    m.byName.get('accountabilityRating')!.references.find((r) => r.target === 'educationOrganization')!.fields[0].kind,
  ];
  assert.deepEqual(widths(standard('4.0')), ['int32', 'int32', 'int32', 'int32', 'int32']);
  for (const s of ['5.2', '6.1'] as const) assert.deepEqual(widths(standard(s)), ['int64', 'int64', 'int64', 'int64', 'int64'], s);
});

test('parents in 4.0 are contacts in 5.2 and 6.1: the same person, reached through the student association', () => {
  const m40 = standard('4.0');
  assert.equal(m40.byEndpoint.get('parents')?.person, 'contact');
  assert.deepEqual(m40.byName.get('studentParentAssociation')!.relationship, { person: 'contact', via: 'parentReference' });
  assert.deepEqual(m40.byName.get('studentParentAssociation')!.securable.person.contact, ['$.parentReference.parentUniqueId']);
  assert.equal(m40.byEndpoint.get('contacts'), undefined);
  for (const s of ['5.2', '6.1'] as const) {
    const m = standard(s);
    assert.equal(m.byEndpoint.get('contacts')?.person, 'contact', s);
    assert.deepEqual(m.byName.get('studentContactAssociation')!.relationship, { person: 'contact', via: 'contactReference' }, s);
    assert.equal(m.byEndpoint.get('parents'), undefined, s);
  }
});

test('6.1 has the demographic resources, and keys a student assessment registration through one', () => {
  for (const r of ['studentDemographic', 'staffDemographic', 'studentDirectory', 'staffDirectory', 'studentIdentificationCode', 'educationOrganizationIdentificationCode']) {
    assert.ok(standard('6.1').byName.get(r), r);
    assert.equal(standard('5.2').byName.get(r), undefined, r);
    assert.equal(standard('4.0').byName.get(r), undefined, r);
  }
  assert.deepEqual(key(standard('6.1'), 'studentDemographic'), ['educationOrganizationId:int64', 'studentUniqueId:string']);
  const registrationKeyRefs = (m: CompiledModel) => m.byName.get('studentAssessmentRegistration')!.references.filter((r) => r.identity).map((r) => r.path);
  assert.ok(registrationKeyRefs(standard('6.1')).includes('$.studentDemographicReference'));
  assert.ok(registrationKeyRefs(standard('5.2')).includes('$.studentEducationOrganizationAssociationReference'));
  assert.equal(standard('4.0').byName.get('studentAssessmentRegistration'), undefined);
  // Staff's own demographics moved out in 6.1.
  assert.ok(standard('5.2').byName.get('staff')!.fields.races && !standard('6.1').byName.get('staff')!.fields.races);
});

test('StaffSectionAssociation has beginDate in its key from 5.2 on', () => {
  assert.ok(!key(standard('4.0'), 'staffSectionAssociation').includes('beginDate:date'));
  for (const s of ['5.2', '6.1'] as const) assert.ok(key(standard(s), 'staffSectionAssociation').includes('beginDate:date'), s);
});

test('4.0\'s descriptors keep its minimum lengths (shortDescription, description); the namespace needs one character on every standard', () => {
  const shape = (s: DataStandard) => standard(s).byName.get('gradeLevelDescriptor')!.fields;
  assert.equal((shape('4.0').shortDescription as { minLength?: number }).minLength, 1);
  assert.equal((shape('4.0').description as { minLength?: number }).minLength, 1);
  assert.equal((shape('6.1').shortDescription as { minLength?: number }).minLength, undefined);
  for (const s of dataStandards) assert.equal((shape(s).namespace as { minLength?: number }).minLength, 1, s);
});

test('the module-level model is the default standard with the seed overlay, compiled through the registry', () => {
  assert.equal(defaultStandard, '4.0', 'the seed\'s standard (decision 44)');
  const again = defineStandard(defaultStandard, { overlay });
  assert.equal(
    fingerprint(modelText(compileStandard(defaultStandard, { overlay }), { defs: again.defs, abstracts: again.abstracts, descriptorNames: again.descriptorNames })),
    fingerprint(modelText(model, definitions)),
  );
});

test('a standard is compiled afresh on each call: changing one model leaves the next untouched', () => {
  const a = compileStandard('4.0');
  (a.byName.get('school')!.fields.schoolId as { maxLength?: number }).maxLength = 3;
  assert.equal((compileStandard('4.0').byName.get('school')!.fields.schoolId as { maxLength?: number }).maxLength, undefined);
});

test('an unknown standard is refused by name', () => {
  assert.throws(() => compileStandard('5.0' as DataStandard), /unknown data standard '5\.0'/);
});

test('a loader order exists for every standard; 6.1\'s reference cycle is broken at its optional edges, never at a required one', () => {
  for (const s of ['4.0', '5.2', '6.1'] as const) assert.equal(dependencyOrder(standard(s)).length, COUNTS[s].endpoints, s);
  const model = standard('6.1');
  const order = new Map(dependencyOrder(model).map((d) => [d.resource.name, d.order]));
  // Staff's credentials are an optional collection: a staff member is written before the
  // credentials that lead, through the cycle, back to staff.
  assert.ok(order.get('staff')! < order.get('studentSpecialEducationProgramAssociation')!);
  // An optional reference outside the cycle still orders (staff's open staff position).
  assert.ok(order.get('openStaffPosition')! < order.get('staff')!);
  // Every reference a document must hold still waits for its target.
  const membersOf = new Map(model.abstracts.map((a) => [a.name, a.members.map((m) => m.resource)]));
  const late: string[] = [];
  for (const r of model.resources) {
    for (const ref of r.references.filter((x) => !x.path.includes('[*]') && (x.required || x.identity))) {
      for (const t of membersOf.get(ref.target) ?? [ref.target]) if (t !== r.name && order.get(t)! >= order.get(r.name)!) late.push(`${r.name} ${ref.path} → ${t}`);
    }
  }
  assert.deepEqual(late, []);
});
