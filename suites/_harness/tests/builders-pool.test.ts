import assert from 'node:assert/strict';
import { test } from 'node:test';
import { model } from '../../../spec/model/index.js';
import { Builder, WORKER_SCHOOL_YEAR } from '../builders.js';
import { recordingClient } from './recording-client.js';
import { RUN_DESCRIPTORS_ENV, runDescriptors } from '../run-pool.js';
import { unique } from '../fixtures.js';

/**
 * Where a body's dependencies are made (BuildOptions): by the test, or by the worker's pool. A
 * record the test stores keeps a key of its own, so the references in its natural key are the
 * test's; a body sent only to be refused (refusedOnly) is never stored, so even those come from
 * the pool, and a second such body costs the test no request at all.
 */
type Posted = { endpoint: string; body: Record<string, unknown> }[];

function builders(): { test: Builder; pool: Builder; byTest: Posted; byPool: Posted } {
  const byTest: Posted = [];
  const byPool: Posted = [];
  const pool = new Builder(recordingClient(byPool));
  return { test: new Builder(recordingClient(byTest), pool), pool, byTest, byPool };
}

/** A resource whose natural key holds a reference (studentSchoolAssociation: its student and school). */
const keyed = model.resources.find((r) => r.name === 'studentSchoolAssociation')!;
const keyReferences = keyed.references.filter((ref) => keyed.identity.some((p) => p.path.startsWith(`${ref.path}.`)));
const endpointOf = (name: string) => model.byName.get(name)?.endpoint;

test('a stored body takes its other dependencies from the pool, and makes the records its natural key references itself', async () => {
  assert.ok(keyReferences.length >= 2, 'studentSchoolAssociation keys on its student and school');
  const b = builders();
  const body = await b.test.body(keyed.name, {}, { full: true, shared: true });
  const madeByTest = new Set(b.byTest.map((p) => p.endpoint));
  for (const ref of keyReferences) assert.ok(madeByTest.has(endpointOf(ref.target)!), `${ref.target}, in the key, made by the test`);
  // Its calendar shares the key's schoolId (key unification): pinned by the test's own school, it is the test's too.
  assert.ok(madeByTest.has('calendars'), 'the calendar pinned by the test\'s school, made by the test');
  assert.ok(!b.byPool.some((p) => p.endpoint === 'calendars'));
  assert.ok(b.byPool.length > 0, 'the other dependencies are the pool\'s');
  assert.ok(body.studentReference && body.schoolReference);
});

test('a body sent only to be refused takes every dependency from the pool, its key\'s references too, and a second one makes nothing', async () => {
  const b = builders();
  const first = await b.test.body(keyed.name, {}, { full: true, shared: true, refusedOnly: true });
  assert.deepEqual(b.byTest, [], 'the test makes nothing');
  const madeByPool = new Set(b.byPool.map((p) => p.endpoint));
  for (const ref of keyReferences) assert.ok(madeByPool.has(endpointOf(ref.target)!), `${ref.target}, in the key, made by the pool`);
  // Pinned by the pool's school and school year alone, the calendar is the pool's as well.
  assert.ok(madeByPool.has('calendars'), 'the calendar pinned by pool keys, made by the pool');
  const poolCount = b.byPool.length;
  const second = await b.test.body(keyed.name, {}, { full: true, shared: true, refusedOnly: true });
  assert.equal(b.byPool.length, poolCount, 'the pool reuses what it made');
  assert.deepEqual(b.byTest, []);
  assert.deepEqual(second.studentReference, first.studentReference);
});

test('a record the test makes for a stored body\'s key takes its own other dependencies from the pool: the test\'s school references the pool\'s descriptors', async () => {
  const b = builders();
  await b.test.body(keyed.name, {}, { full: true, shared: true });
  assert.ok(b.byTest.some((p) => p.endpoint === 'schools'), 'the school in the key is the test\'s');
  const descriptorsByTest = b.byTest.filter((p) => /Descriptors$/.test(p.endpoint)).map((p) => p.endpoint);
  assert.deepEqual(descriptorsByTest, [], 'no descriptor of its own: the school\'s and the student\'s are the pool\'s');
  // Without `shared`, the same school makes its descriptors itself.
  const alone = builders();
  await alone.test.body(keyed.name, {}, { full: true });
  assert.ok(alone.byTest.some((p) => p.endpoint === 'gradeLevelDescriptors'));
});

test('a stored body whose key holds a string of its own (a session\'s sessionName) takes the rest of its key from the pool', async () => {
  const b = builders();
  const body = await b.test.body('session', {}, { full: true, shared: true });
  assert.equal(typeof body.sessionName, 'string');
  assert.ok(!b.byTest.some((p) => p.endpoint === 'schools'), 'the school in its key is the pool\'s');
  assert.ok(b.byPool.some((p) => p.endpoint === 'schools'));
  const again = await b.test.body('session', {}, { full: true, shared: true });
  assert.notEqual(again.sessionName, body.sessionName, 'each body\'s key is its own');
  assert.deepEqual(again.schoolReference, body.schoolReference);
});

test('a record pinned by a key member of the body (chartOfAccount\'s fiscalYear, in each dimension\'s key) is the test\'s, not the pool\'s', async () => {
  const b = builders();
  const body = await b.test.body('chartOfAccount', {}, { full: true, shared: true });
  const dimensions = Object.keys(body).filter((k) => /DimensionReference$/.test(k));
  assert.ok(dimensions.length > 0, 'a full chartOfAccount references its dimensions');
  const madeByTest = new Set(b.byTest.map((p) => p.endpoint));
  for (const d of dimensions) assert.ok(madeByTest.has(endpointOf(d.replace(/Reference$/, ''))!), `${d}, pinned by the body's fiscalYear, made by the test`);
});

test('without a pool (shared not asked for), refusedOnly changes nothing: the test makes every dependency but the worker\'s school year', async () => {
  const b = builders();
  await b.test.body(keyed.name, {}, { full: true, refusedOnly: true });
  assert.deepEqual(b.byPool.map((p) => p.endpoint), ['schoolYearTypes']);
  assert.ok(b.byTest.length > 0);
});

test('the worker\'s school year is the pool\'s, which outlives the test, shared or not; another year is the test\'s', async () => {
  // A year the test made could not be deleted at its end once a pool record referenced it (409).
  const b = builders();
  await b.test.body('session', {}, { full: true });
  await b.test.body('session', {}, { full: true, shared: true });
  assert.ok(!b.byTest.some((p) => p.endpoint === 'schoolYearTypes'), 'the test makes no school year');
  assert.equal(b.byPool.filter((p) => p.endpoint === 'schoolYearTypes').length, 1, 'the pool makes it once');
  // Any year but the worker's: the worker's is drawn from the run id (1992..2049), so a fixed one would be it in one run in 58.
  const another = WORKER_SCHOOL_YEAR === 2049 ? 2048 : 2049;
  await b.test.schoolYear(another);
  assert.ok(b.byTest.some((p) => p.endpoint === 'schoolYearTypes' && p.body.schoolYear === another), 'a year the test asks for is its own');
});

test('a pool given the run\'s descriptors (run-pool.ts) hands them out and makes none of its own; a test\'s own body still makes its own', async () => {
  const byPool: Posted = [];
  const byTest: Posted = [];
  const run = new Map(model.resources.filter((r) => r.isDescriptor).map((r) => [r.name.replace(/Descriptor$/, ''), `uri://run/${r.name}#x`]));
  const pool = new Builder(recordingClient(byPool), undefined, run);
  const b = new Builder(recordingClient(byTest), pool);
  const shared = await b.body('school', {}, { full: true, shared: true });
  assert.ok(!byPool.some((p) => /Descriptors$/.test(p.endpoint)), 'the pool makes no descriptor');
  assert.ok(JSON.stringify(shared).includes('uri://run/'), 'the body names the run\'s descriptors');
  await b.body('school', {}, { full: true });
  assert.ok(byTest.some((p) => /Descriptors$/.test(p.endpoint)), 'a body without `shared` makes its own');
});

test('runDescriptors reads what the set-up published, and nothing when it published nothing', () => {
  assert.equal(runDescriptors({}), undefined);
  assert.equal(runDescriptors({ [RUN_DESCRIPTORS_ENV]: JSON.stringify({ gradeLevel: 'uri://x/GradeLevelDescriptor#a' }) })?.get('gradeLevel'), 'uri://x/GradeLevelDescriptor#a');
});

test('a value the set-up makes (no worker index) is never one a worker makes: its worker part is s, not 0', () => {
  assert.equal(process.env.TEST_WORKER_INDEX, undefined);
  assert.match(unique('d'), /-s-\d+$/);
});
