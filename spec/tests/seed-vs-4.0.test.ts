import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compileStandard } from '../model/standards.js';
import { importFields, importUpstream, readExtract, type DataStandard } from '../model/upstream.js';
import { overlay, overlayHold, type OverlayEntry } from '../model/overlay.js';
import { annotationsFor } from '../model/annotations.js';
import { diffAgainstUpstream } from '../model/upstream-diff.js';

/**
 * Decision 44: the seed's resource tables describe Data Standard 4.0. So every row of the seed
 * overlay (its `differs`: the seed's differences from 5.2) should be a 4.0 fact, and the seed's
 * differences from 4.0 are what is left: held here, row by row, so that a new difference fails.
 * A 4.0 deployment serves 4.0 with the overlay (served.ts); 5.2 and 6.1 are served without it.
 */
const holds = (standard: DataStandard) => {
  const extract = readExtract(standard);
  const { defs } = importUpstream(extract);
  const shape = importFields(extract.descriptorShape);
  return overlay.map((e) => ({ e, hold: overlayHold(defs, shape, e) }));
};
const row = (e: OverlayEntry) => `${e.resource}${e.member ? ` ${e.member}` : ''}`;

/** The seed's differences from 4.0: each quoted from its seed line (the overlay entry's `seed`). */
const REMAINING: Record<string, { seed: string; why: string }> = {
  'credential _ext': {
    seed: '`_ext`: object keyed by extension name, holding extension fields. Present on some resources (for example credential).',
    why: 'no extract carries `_ext` (the XSD has no extension point; ODS/API accepts `_ext` on every resource)',
  },
  'descriptors <name>DescriptorId': {
    seed: 'Descriptor resources (shared shape): <name>DescriptorId int32 K, server assigned.',
    why: 'the XSD\'s descriptor shape has no id member (ODS/API serves it from its table key)',
  },
  'descriptors priorDescriptorId': {
    seed: 'Descriptor resources (shared shape): priorDescriptorId int32 N.',
    why: 'the XSD\'s descriptor shape has no such member (ODS/API serves it from its Descriptor table)',
  },
};

test('every seed overlay row but three is a 4.0 fact; the three left are the seed\'s differences from 4.0, each quoted', () => {
  const rows = holds('4.0');
  assert.equal(rows.length, overlay.length);
  const remaining = rows.filter((r) => r.hold !== 'held');
  assert.deepEqual(
    remaining.map((r) => row(r.e)).sort(),
    Object.keys(REMAINING).sort(),
    remaining.map((r) => `${row(r.e)} (${r.hold}): "${r.e.seed}"`).join('\n'),
  );
  for (const r of remaining) {
    assert.equal(r.e.seed, REMAINING[row(r.e)].seed, `${row(r.e)}: quoted from its seed line`);
    assert.equal(r.hold, 'absent', `${row(r.e)}: 4.0 lacks it (nothing of 4.0 is changed by it)`);
  }
  // The rows 4.0 holds, by name: every row decision 44 lists.
  assert.deepEqual(rows.filter((r) => r.hold === 'held').map((r) => row(r.e)).sort(), [
    'cohort cohortIdentifier', 'communityOrganization communityOrganizationId', 'communityProvider communityProviderId',
    'communityProviderLicense licenseIdentifier', 'course academicSubjectDescriptor', 'course learningObjectives',
    'courseTranscript alternativeCourseCode', 'courseTranscript earnedCredits', 'learningObjective',
  ]);
});

test('4.0 with the seed overlay differs from the 4.0 extract exactly at those rows (and the declared extract correction)', () => {
  const model = compileStandard('4.0', { overlay });
  const rows = diffAgainstUpstream(model, readExtract('4.0'));
  const found = [...new Set(rows.map((r) => r.at))].sort();
  const remaining = holds('4.0').filter((r) => r.hold !== 'held').flatMap((r) => r.e.differs);
  const allowed = [...remaining, ...annotationsFor('4.0').extractCorrections.map((c) => c.at)].sort();
  assert.deepEqual(found, allowed, rows.map((r) => `${r.at}: ${r.what}`).join('\n'));
  // The seed's rows 4.0 holds still say what the seed says on it (deprecation included).
  assert.equal(model.byName.get('courseTranscript')!.fields.earnedCredits.required, true);
  assert.deepEqual(model.byName.get('courseTranscript')!.deprecated.map((d) => d.path), ['$.alternativeCourseCode']);
  assert.equal(model.byName.get('communityOrganization')!.fields.communityOrganizationId.kind, 'int32');
  // 4.0's own LearningObjective stands: the overlay's is the part of it the course needs.
  assert.ok(model.byName.get('learningObjective')!.fields.contentStandard && model.byName.get('learningObjective')!.fields.parentLearningObjectiveReference);
});

test('the comparison can tell: on 5.2 and 6.1 no overlay row is held, so each is a difference there', () => {
  for (const s of ['5.2', '6.1'] as const) {
    const held = holds(s).filter((r) => r.hold === 'held').map((r) => row(r.e));
    assert.deepEqual(held, [], s);
  }
  // A row 4.0 does not hold as written is a difference, not a fact.
  const extract = readExtract('4.0');
  const { defs } = importUpstream(extract);
  const cohort = overlay.find((e) => e.resource === 'cohort')!;
  assert.equal(overlayHold(defs, importFields(extract.descriptorShape), { ...cohort, set: { maxLength: 36 } }), 'differs');
  const course = overlay.find((e) => e.member === 'academicSubjectDescriptor')!;
  assert.equal(overlayHold(defs, importFields(extract.descriptorShape), { ...course, add: { ...course.add!, required: true } as typeof course.add }), 'differs');
});

test('laid over 5.2, the rows make the model differ from the 5.2 extract exactly where each row\'s differs says', () => {
  const rows = diffAgainstUpstream(compileStandard('5.2', { overlay }), readExtract('5.2'));
  const found = [...new Set(rows.map((r) => r.at))].sort();
  const allowed = [...overlay.flatMap((e) => e.differs), ...annotationsFor('5.2').extractCorrections.map((c) => c.at)].sort();
  assert.deepEqual(found, allowed, rows.map((r) => `${r.at}: ${r.what}`).join('\n'));
});
