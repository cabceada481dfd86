/**
 * The write plan (write-plan.ts) does in one generated pass what four walks did: it is held to
 * them (write-checks.oracle.ts, the code it replaced, kept verbatim) on bodies generated from the
 * model for every resource of every data standard served: the same document kept (members in
 * the same order), the same refusals at the same paths in the same order, the same descriptors
 * resolved, the same reference objects handed to checkReferences. The bodies mix what a client sends (stored and unknown descriptor values in both
 * cases, keys that agree and that do not, repeated items) with what it should not (nulls, values
 * of the wrong shape, markup, blank and unstorable text, school years out of range, unknown
 * members). The seed is fixed unless FC_SEED is given.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import type { Field, Fields } from '../../spec/model/dsl.js';
import type { CompiledModel, CompiledResource } from '../../spec/model/compiled.js';
import { compileServed } from '../../spec/model/served.js';
import { dataStandards } from '../../spec/model/upstream.js';
import { stringifyExact } from '../http/exact-json.js';
import { DataStore, type StoredRecord } from '../store/store.js';
import { ResolvedTargets } from '../store/references.js';
import { expandPaths } from '../store/json-path.js';
import { referenceProperties } from './documents.js';
import { checkUnification, contentErrors, prune, resolveDescriptors } from './write-checks.oracle.js';
import { checkWrite, writePlan } from './write-plan.js';
import type { ValidationErrors } from './validation-errors.js';

const seed = process.env.FC_SEED ? Number(process.env.FC_SEED) : 20261202;
const YEARS = { min: 1991, max: 2050 };
const pascal = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const namespaceOf = (descriptor: string) => `uri://ed-fi.org/${pascal(descriptor)}Descriptor`;

/** A store holding one descriptor, `<namespace>#One`, of each descriptor resource of the model. */
function storeWithDescriptors(model: CompiledModel): DataStore {
  const store = new DataStore(model);
  for (const r of model.resources.filter((x) => x.isDescriptor)) {
    const descriptor = r.name.slice(0, -'Descriptor'.length);
    store.create(r, { [`${r.name}Id`]: store.nextDescriptorId(), namespace: namespaceOf(descriptor), codeValue: 'One', shortDescription: 'One' });
  }
  return store;
}

/** Text every check has something to say about, or nothing. */
const TEXT = ['a', 'Ninth', '', ' ', '\u200B', '\u0301', '<script>', 'AT&T', 'a\0b', '\uD800', 'x\x01y', '\u00E9', 'e\u0301', 'tab\there'];
const NUMBERS = [1, 2, 0, -1, 1.5, 1990, 1991, 2025, 2050, 2051, 10n ** 20n, 2051n];
const junk = fc.constantFrom<unknown>(true, false, {}, [], { inner: '<b>' }, ['<i>', 2051], { schoolYear: 1900 }, null, 'x', 7);
const scalar = fc.oneof(fc.constantFrom<unknown>(...TEXT), fc.constantFrom<unknown>(...NUMBERS), junk);

function descriptorValue(descriptor: string): fc.Arbitrary<unknown> {
  const ns = namespaceOf(descriptor);
  return fc.oneof({ weight: 3, arbitrary: fc.constantFrom(`${ns}#One`, `${ns.toUpperCase()}#one`, `${ns}#Missing`, 'no-hash') }, { weight: 1, arbitrary: scalar });
}

/** Bodies shaped by the model, nested up to a few levels, with unknown members beside the known ones. */
function bodyOf(model: CompiledModel, fields: Fields, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const members: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, f] of Object.entries(fields) as [string, Field][]) members[name] = valueOf(model, f, depth);
  members.unknownMember = scalar;
  return fc.record(members, { requiredKeys: [] });
}

function valueOf(model: CompiledModel, f: Field, depth: number): fc.Arbitrary<unknown> {
  switch (f.kind) {
    case 'collection':
      return depth > 3 ? junk : fc.oneof({ weight: 4, arbitrary: fc.array(fc.oneof({ weight: 5, arbitrary: bodyOf(model, f.item, depth + 1) }, { weight: 1, arbitrary: junk }), { maxLength: 4 }) }, { weight: 1, arbitrary: junk });
    case 'object':
      return depth > 3 ? junk : fc.oneof({ weight: 4, arbitrary: bodyOf(model, f.fields, depth + 1) }, { weight: 1, arbitrary: junk });
    case 'reference': {
      // Few values, so that unified keys agree and disagree, and items repeat.
      const shape = referenceProperties(model, f.target);
      const property = fc.constantFrom<unknown>(1, 2, '1', 'A', 'a', '\u200B', null, 2051, `${namespaceOf('gradeLevel')}#One`);
      return fc.oneof({ weight: 4, arbitrary: fc.record(Object.fromEntries([...shape.map((p) => [p, property]), ['extra', property]]), { requiredKeys: [] }) }, { weight: 1, arbitrary: junk });
    }
    case 'descriptor':
      return descriptorValue(f.descriptor);
    default:
      return scalar;
  }
}

/** What the four walks made of a body. */
function byOracle(model: CompiledModel, store: DataStore, resource: CompiledResource, body: Record<string, unknown>) {
  const resolved = new ResolvedTargets(0);
  const doc = prune(model, resource.fields, body);
  const groups: ValidationErrors[] = [resolveDescriptors(model, store, resource, doc, resolved), contentErrors(resource, doc, YEARS), checkUnification(resource, doc)];
  return { doc, groups, resolved: resolved.records };
}

/** Order-sensitive texts: the document with its members in order, each group's paths and messages in order. */
const ids = (records: StoredRecord[]) => records.map((r) => r.id).sort();
function assertSame(model: CompiledModel, store: DataStore, resource: CompiledResource, body: Record<string, unknown>): void {
  const expected = byOracle(model, store, resource, body);
  const resolved = new ResolvedTargets(0);
  const { doc, refused, references } = checkWrite(model, store, resource, body, YEARS, resolved);
  assert.equal(stringifyExact(doc), stringifyExact(expected.doc), 'the document kept');
  const groups = refused ?? [{}, {}, {}];
  for (const [i, name] of ['descriptors', 'content', 'unification'].entries()) {
    assert.equal(stringifyExact(Object.entries(groups[i])), stringifyExact(Object.entries(expected.groups[i])), `the ${name} refusals`);
  }
  assert.deepEqual(ids(resolved.records), ids(expected.resolved), 'the descriptors resolved');
  // The reference objects kept are the ones checkReferences would find by path, in the same order once grouped by reference.
  const byPath = resource.references.flatMap((ref, i) => expandPaths(doc, ref.path).filter((at) => at.value && typeof at.value === 'object').map((at) => [i, at.value]));
  const sites: [number, unknown][] = [];
  for (let i = 0; i < references.length; i += 2) sites.push([references[i] as number, references[i + 1]]);
  sites.sort((x, y) => x[0] - y[0]);
  assert.equal(sites.length, byPath.length, 'as many references kept as found by path');
  sites.forEach(([i, value], n) => assert.ok(i === byPath[n][0] && value === byPath[n][1], `reference ${n}: the same object`));
}

for (const standard of dataStandards) {
  test(`DS ${standard}: every resource's plan keeps, resolves and refuses as the four walks did`, () => {
    const model = compileServed(standard);
    const store = storeWithDescriptors(model);
    // How many bodies met each check's refusal, and resolved a descriptor: the bodies must reach
    // every check, not only the happy path, or the comparison proves little.
    const reached = { descriptors: 0, markup: 0, blank: 0, schoolYear: 0, repeat: 0, unification: 0, resolved: 0, references: 0, bodies: 0 };
    for (const resource of model.resources) {
      fc.assert(fc.property(bodyOf(model, resource.fields, 0), (body) => {
        assertSame(model, store, resource, body);
        const resolved = new ResolvedTargets(0);
        const checked = checkWrite(model, store, resource, body, YEARS, resolved);
        const messages = (checked.refused ?? []).map((g) => Object.values(g).flat().join('\n'));
        if (checked.references.length) reached.references++;
        reached.bodies++;
        if (messages[0]) reached.descriptors++;
        if (messages[1]?.includes('dangerous')) reached.markup++;
        if (messages[1]?.includes('should not be left empty')) reached.blank++;
        if (messages[1]?.includes('must be between')) reached.schoolYear++;
        if (messages[1]?.includes('same identifying values')) reached.repeat++;
        if (messages[2]) reached.unification++;
        if (resolved.records.length) reached.resolved++;
      }), { seed, numRuns: 12, verbose: 1 });
    }
    for (const [check, bodies] of Object.entries(reached)) assert.ok(bodies >= 50, `${check}: ${bodies} bodies (${JSON.stringify(reached)})`);
    if (process.env.WRITE_PLAN_REACH) console.log(standard, reached);
  });
}

test('the plan of a body that breaks nothing refuses nothing, resolves its descriptors and keeps them in their stored spelling', () => {
  const model = compileServed('5.2');
  const store = storeWithDescriptors(model);
  const ssa = model.byName.get('studentSchoolAssociation')!;
  const resolved = new ResolvedTargets(0);
  const body = { studentReference: { studentUniqueId: 's1', link: {} }, schoolReference: { schoolId: 1 }, entryDate: '2025-08-20', entryGradeLevelDescriptor: `${namespaceOf('gradeLevel').toUpperCase()}#ONE`, unknown: 1, exitWithdrawDate: null };
  const { doc, refused } = checkWrite(model, store, ssa, body, YEARS, resolved);
  assert.equal(refused, undefined);
  assert.deepEqual(doc, { studentReference: { studentUniqueId: 's1' }, schoolReference: { schoolId: 1 }, entryDate: '2025-08-20', entryGradeLevelDescriptor: `${namespaceOf('gradeLevel')}#One` });
  assert.deepEqual(resolved.records.map((r) => r.doc.codeValue), ['One']);
});

test('a check the model places where no member reaches stops the plan from being made, rather than being dropped', () => {
  const model = compileServed('5.2');
  const ssa = model.byName.get('studentSchoolAssociation')!;
  const broken = { ...ssa, descriptors: [...ssa.descriptors, { path: '$.nowhere', descriptor: 'gradeLevel' }], equalities: [...ssa.equalities, { name: 'x', paths: ['$.elsewhere'] }] };
  assert.throws(() => writePlan(model, broken), /studentSchoolAssociation: no member reaches \$\.nowhere, \$\.elsewhere$/);
});

test('a collection without item keys is not checked for repeated items', () => {
  const model = compileServed('5.2');
  const calendar = model.byName.get('calendar')!;
  const keyless = { ...calendar, collections: calendar.collections.map((c) => ({ ...c, itemKeys: [] })) };
  const grades = [{ gradeLevelDescriptor: 'x' }, { gradeLevelDescriptor: 'x' }];
  assert.ok(checkWrite(model, storeWithDescriptors(model), calendar, { calendarCode: 'c', gradeLevels: grades }, YEARS, new ResolvedTargets(0)).refused?.[1]['$.gradeLevels'], 'the control: keyed, the repeat is refused');
  assert.equal(checkWrite(model, storeWithDescriptors(model), keyless, { calendarCode: 'c', gradeLevels: grades }, YEARS, new ResolvedTargets(0)).refused?.[1]['$.gradeLevels'], undefined);
});

test('a generated plan is named in stack traces (and so in the bench profiler\'s stages) by its resource', () => {
  const model = compileServed('5.2');
  const body = Object.defineProperty({}, 'calendarCode', { enumerable: true, get() { throw new Error('read'); } }) as Record<string, unknown>;
  assert.throws(() => checkWrite(model, storeWithDescriptors(model), model.byName.get('calendar')!, body, YEARS, new ResolvedTargets(0)), (e: Error) => /write-plan\/calendar\.js/.test(e.stack ?? ''));
});

test('a resource name enters the generated code only as word characters, in its closing comment', () => {
  const model = compileServed('5.2');
  const calendar = model.byName.get('calendar')!;
  // A line break would end the comment: what follows would be code, here a syntax error.
  const odd = { ...calendar, name: 'x\n} {' } as CompiledResource;
  const { doc } = checkWrite(model, storeWithDescriptors(model), odd, { calendarCode: 'c' }, YEARS, new ResolvedTargets(0));
  assert.equal(doc.calendarCode, 'c');
});

test('member names enter the generated code only as literals', () => {
  const model = compileServed('5.2');
  const calendar = model.byName.get('calendar')!;
  const odd = `x"]; throw new Error("injected"); //\\`;
  const resource = { ...calendar, fields: { ...calendar.fields, [odd]: { kind: 'string' } } as Fields, descriptors: [], equalities: [], collections: [] } as CompiledResource;
  const { doc } = checkWrite(model, storeWithDescriptors(model), resource, { calendarCode: 'c', [odd]: 'kept' }, YEARS, new ResolvedTargets(0));
  assert.equal(doc[odd], 'kept');
});
