/**
 * Key unification (seed: same-named key values given differently across references are refused):
 * a write reports every path of a value that disagrees, and nothing when the values
 * agree, when one side is absent or null, across references and across collection items.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { model } from '../../spec/model/index.js';
import type { CompiledResource } from '../../spec/model/compiled.js';
import { ResolvedTargets, type RecordLookup } from '../store/references.js';
import { checkWrite } from './write-plan.js';

/** Unification as a write reports it: the write plan's third group of refusals. */
const NO_RECORDS = { collection: () => ({ byKey: new Map() }) } as unknown as RecordLookup;
const checkUnification = (resource: CompiledResource, doc: Record<string, unknown>) =>
  checkWrite(model, NO_RECORDS, resource, doc, { min: 1991, max: 2050 }, new ResolvedTargets(0)).refused?.[2] ?? {};

const ssa = model.byName.get('studentSchoolAssociation')!;
const bellSchedule = model.byName.get('bellSchedule')!;
const period = (schoolId: unknown) => ({ classPeriodReference: { classPeriodName: 'P1', schoolId } });

test('references that agree, or leave the value out or null, unify', () => {
  assert.deepEqual(checkUnification(ssa, { schoolReference: { schoolId: 1 }, calendarReference: { schoolId: 1, calendarCode: 'c', schoolYear: 2025 }, schoolYearTypeReference: { schoolYear: 2025 } }), {});
  assert.deepEqual(checkUnification(ssa, { schoolReference: { schoolId: 1 } }), {});
  assert.deepEqual(checkUnification(ssa, { schoolReference: { schoolId: 1 }, calendarReference: { schoolId: null } }), {});
  assert.deepEqual(checkUnification(bellSchedule, { schoolReference: { schoolId: 7 }, classPeriods: [period(7), period(7), period(null)] }), {});
  assert.deepEqual(checkUnification(bellSchedule, { classPeriods: [period(7), period(7)] }), {});
});

test('a value given differently is reported at every path it is given, in references and in items', () => {
  const two = checkUnification(ssa, { schoolReference: { schoolId: 1 }, calendarReference: { schoolId: 2, calendarCode: 'c', schoolYear: 2025 }, schoolYearTypeReference: { schoolYear: 2026 } });
  assert.deepEqual(Object.keys(two).sort(), ['$.calendarReference.schoolId', '$.calendarReference.schoolYear', '$.schoolReference.schoolId', '$.schoolYearTypeReference.schoolYear']);
  assert.match(two['$.schoolReference.schoolId'][0], /All values supplied for 'schoolId' must match.*'1', '2'/);
  const items = checkUnification(bellSchedule, { schoolReference: { schoolId: 7 }, classPeriods: [period(7), period(8)] });
  assert.deepEqual(Object.keys(items).sort(), ['$.classPeriods[0].classPeriodReference.schoolId', '$.classPeriods[1].classPeriodReference.schoolId', '$.schoolReference.schoolId']);
  const itemsOnly = checkUnification(bellSchedule, { classPeriods: [period(7), period(8)] });
  assert.equal(Object.keys(itemsOnly).length, 2, 'two items disagreeing, with no reference beside them');
});
