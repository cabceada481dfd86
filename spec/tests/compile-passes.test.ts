import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  ModelError, checkModel, collectDefinitions, compileAbstracts, compileModel, compileResource, descriptorResource,
  educationOrganizationIdFields, identityResolver, indexModel, keyEqualities, queryFieldsOf, securableElementsOf, walkMembers,
} from '../model/compile.js';
import { K, R, coll, desc, int32, int64, ref, refItem, resource, str, type ResourceDef } from '../model/dsl.js';
import type { CompiledResource } from '../model/compiled.js';

/** Each pass of compileModel (spec/model/compile.ts), on a model small enough to read. */
const school = resource({ name: 'school', plural: 'schools', base: 'educationOrganization', fields: { schoolId: int64(K), name: str(75, R) }, educationOrganization: { idField: 'schoolId' } });
const session = resource({ name: 'session', fields: { sessionName: str(60, K), schoolReference: ref('school', K) } });
const section = resource({
  name: 'section',
  fields: {
    sectionIdentifier: str(255, K),
    sessionReference: ref('session', K),
    locationReference: ref('school', {}, { schoolId: 'locationSchoolId' }),
    classPeriods: coll({ ...refItem('session'), note: str(10) }),
    levelDescriptor: desc('gradeLevel'),
  },
});
const parentAssoc = resource({ name: 'studentParentAssociation', fields: { parentUniqueId: str(32, K), studentUniqueId: str(32, K), schoolReference: ref('school') } });
const defs: ResourceDef[] = [parentAssoc, school, section, session];
const abstracts = [{ name: 'educationOrganization', identity: ['educationOrganizationId'], identityKinds: { educationOrganizationId: 'int32' as const } }];
const table = collectDefinitions(defs, abstracts, ['gradeLevel']);
const keys = identityResolver(table);

test('collectDefinitions: descriptors first, from the shared shape; a name defined twice is a model error', () => {
  assert.deepEqual(table.all.map((d) => d.name), ['gradeLevelDescriptor', 'studentParentAssociation', 'school', 'section', 'session']);
  assert.ok(table.descriptorSet.has('gradeLevel') && table.descriptorDefs.has(table.all[0]));
  assert.throws(() => collectDefinitions([school, school], [], []), /defined twice/);
  assert.throws(() => collectDefinitions([resource({ name: 'xDescriptor', fields: {} })], [], ['x']), /defined twice/);
});

test('descriptorResource: a standard\'s minimum lengths on the shared shape, never on the namespace', () => {
  assert.equal((descriptorResource('x').fields.shortDescription as { minLength?: number }).minLength, undefined);
  assert.equal((descriptorResource('x', { shortDescription: 1 }).fields.shortDescription as { minLength?: number }).minLength, 1);
  assert.throws(() => descriptorResource('x', { namespace: 5 }), ModelError);
  assert.throws(() => descriptorResource('x', { effectiveBeginDate: 1 }), ModelError);
});

test('identityResolver: keys flatten references in field order; shapes are memoised; unknown targets and self-keyed cycles are errors', () => {
  assert.deepEqual(keys.identityOf(section).map((k) => `${k.name}@${k.path}`), ['sectionIdentifier@$.sectionIdentifier', 'sessionName@$.sessionReference.sessionName', 'schoolId@$.sessionReference.schoolId']);
  assert.equal(keys.referenceShape('session'), keys.referenceShape('session'));
  assert.deepEqual(keys.referenceShape('educationOrganization').map((m) => `${m.property}:${m.kind}`), ['educationOrganizationId:int32']);
  assert.deepEqual(keys.identityOf(table.all[0]).map((k) => k.name), ['namespace', 'codeValue']);
  const loop = resource({ name: 'loop', fields: { selfReference: ref('loop', K) } });
  assert.throws(() => identityResolver(collectDefinitions([loop], [], [])).identityOf(loop), /refers to itself/);
  assert.throws(() => keys.referenceShape('nowhere'), /unknown reference target/);
});

test('walkMembers: references and descriptors at any depth, collections with item keys, root names by query name', () => {
  const m = walkMembers(section, table, keys);
  assert.deepEqual(m.references.map((r) => r.path), ['$.sessionReference', '$.locationReference', '$.classPeriods[*].sessionReference']);
  assert.deepEqual(m.references[1].fields.map((f) => `${f.property} as ${f.queryName}`), ['schoolId as locationSchoolId']);
  assert.deepEqual(m.descriptors, [{ path: '$.levelDescriptor', descriptor: 'gradeLevel' }]);
  assert.deepEqual(m.collections, [{ path: '$.classPeriods', itemKeys: ['sessionReference'] }]);
  assert.deepEqual(m.rootNames.get('schoolId'), ['$.sessionReference.schoolId']);
  assert.deepEqual(m.rootNames.get('locationSchoolId'), ['$.locationReference.schoolId']);
  assert.throws(() => walkMembers(resource({ name: 'bad', fields: { a: str(1, K), b: desc('color') } }), table, keys), /unknown descriptor 'color'/);
  assert.throws(() => walkMembers(resource({ name: 'bad', fields: { a: str(1, K), b: ref('school', {}, { nope: 'x' }) } }), table, keys), /renames 'nope'/);
});

test('keyEqualities: a root name carried twice through a reference, and collection items sharing the parent\'s key', () => {
  const bell = resource({ name: 'bell', fields: { bellName: str(10, K), schoolReference: ref('school', K), sessionReference: ref('session'), sessions: coll(refItem('session')) } });
  const t = collectDefinitions([school, session, bell], [], []);
  const k = identityResolver(t);
  const m = walkMembers(bell, t, k);
  const eq = keyEqualities(bell.fields, k.identityOf(bell), m.references, m.rootNames);
  assert.deepEqual(eq, [
    { name: 'schoolId', paths: ['$.schoolReference.schoolId', '$.sessionReference.schoolId'] },
    { name: 'schoolId', paths: ['$.schoolReference.schoolId', '$.sessions[*].sessionReference.schoolId'] },
  ]);
});

test('queryFieldsOf and securableElementsOf: root members and reference fields by query name, then id; organization and person keys', () => {
  const m = walkMembers(parentAssoc, table, keys);
  const q = queryFieldsOf(parentAssoc.fields, m.references);
  assert.deepEqual(Object.keys(q), ['parentUniqueId', 'studentUniqueId', 'schoolId', 'id']);
  const s = securableElementsOf(parentAssoc, false, q, educationOrganizationIdFields(table.all));
  assert.deepEqual(s, { educationOrganization: ['$.schoolReference.schoolId'], person: { contact: ['$.parentUniqueId'], student: ['$.studentUniqueId'] } });
});

test('compileAbstracts: a named identity is played by each member\'s own id', () => {
  const [eo] = compileAbstracts(abstracts, table.all, keys);
  assert.deepEqual(eo.members, [{ resource: 'school', fieldFor: { educationOrganizationId: 'schoolId' } }]);
});

test('checkModel: no key, a parent or a relationship that is no reference, are model errors', () => {
  const compiled = (def: ResourceDef): CompiledResource => compileResource(def, collectDefinitions([school, def], abstracts, []), identityResolver(collectDefinitions([school, def], abstracts, [])), new Set());
  assert.throws(() => checkModel([compiled(resource({ name: 'noKey', fields: { a: str(1) } }))]), /has no identity/);
  assert.throws(() => checkModel([compiled(resource({ name: 'lea', fields: { leaId: int32(K), name: str(5) }, educationOrganization: { idField: 'leaId', parents: ['name'] } }))]), /parent '\$\.name' is not a reference/);
  assert.throws(() => checkModel([compiled(resource({ name: 'rel', fields: { a: str(1, K) }, relationship: { person: 'student', via: 'studentReference' } }))]), /relationship via/);
  assert.doesNotThrow(() => checkModel(table.all.map((d) => compileResource(d, table, keys, new Set()))));
});

test('indexModel: endpoints are unique without regard to case', () => {
  const model = compileModel(defs, abstracts, ['gradeLevel']);
  assert.equal(indexModel(model.resources).byEndpoint.get('gradeleveldescriptors')?.name, 'gradeLevelDescriptor');
  const twin = { ...model.resources[1], name: 'twin', endpoint: model.resources[1].endpoint.toUpperCase() };
  assert.throws(() => indexModel([...model.resources, twin]), /used twice/);
});
