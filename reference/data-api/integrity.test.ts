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
import { checkReferences } from './integrity.js';
import { DataStore } from '../store/store.js';

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

test('references handed over by the write plan resolve without a walk; one that does not resolve is reported, with every other failure, at its path', () => {
  const store = new DataStore(model);
  const school = store.create(model.byName.get('school')!, { schoolId: 1, nameOfInstitution: 'S' });
  const student = store.create(model.byName.get('student')!, { studentUniqueId: 'S-1', firstName: 'F', lastSurname: 'L', birthDate: '2010-01-01' });
  const write = (body: Record<string, unknown>) => {
    const resolved = new ResolvedTargets(store.newestChangeVersion);
    const { doc, references } = checkWrite(model, store, ssa, body, { min: 1991, max: 2050 }, resolved);
    checkReferences(model, store, ssa, doc, resolved, references);
    return { doc, resolved };
  };
  const sent = { studentReference: { studentUniqueId: 'S-1' }, schoolReference: { schoolId: 1 }, entryDate: '2025-08-20' };
  const { doc, resolved } = write(structuredClone(sent));
  assert.deepEqual(new Set(resolved.records), new Set([school, student]));
  assert.equal((doc.studentReference as Record<string, unknown>).studentUniqueId, 'S-1');
  const refused = (body: Record<string, unknown>) => { try { write(body); } catch (e) { return (e as { body?: unknown; extra?: unknown }); } return undefined; };
  const problem = refused({ ...structuredClone(sent), studentReference: { studentUniqueId: 'S-2' }, calendarReference: { calendarCode: 'c', schoolId: 1, schoolYear: 2025 } });
  assert.ok(problem, 'a reference to no record is refused');
  assert.match(JSON.stringify(problem), /The referenced Student, Calendar items do not exist/);
  assert.match(JSON.stringify(problem), /"\$\.studentReference":\["The referenced Student item does not exist\."\].*"\$\.calendarReference"/);
});
