import assert from 'node:assert/strict';
import { test } from 'node:test';
import { model } from '../../spec/model/index.js';
import { DataStore } from '../store/store.js';
import { keyMutableResources } from '../store/references.js';

/**
 * The reverse reference index keeps referrer records only for targets whose key can change and
 * a count per referring resource for the others; both must answer the dependent-item check
 * exactly as links come and go.
 */
const res = (name: string) => model.byName.get(name)!;
const GRADE = 'uri://test/GradeLevelDescriptor';

function seeded() {
  const store = new DataStore(model);
  const ninth = store.create(res('gradeLevelDescriptor'), { gradeLevelDescriptorId: 1, namespace: GRADE, codeValue: 'Ninth', shortDescription: 'Ninth' });
  const school = (id: number, grades: string[]) => store.create(res('school'), {
    schoolId: id, nameOfInstitution: `School ${id}`, gradeLevels: grades.map((g) => ({ gradeLevelDescriptor: `${GRADE}#${g}` })),
    educationOrganizationCategories: [],
  });
  return { store, ninth, school };
}

test('a counted target knows its referring resources while any link remains, and forgets them after the last', () => {
  const { store, ninth, school } = seeded();
  assert.deepEqual(store.references.referringResources(ninth), []);
  // The same descriptor named twice by one record counts as one link of that record.
  const a = school(900001, ['Ninth', 'ninth']);
  const b = school(900002, ['Ninth']);
  assert.deepEqual(store.references.referringResources(ninth), ['school']);
  assert.ok(store.references.knows(a, ninth) && store.references.knows(b, ninth));
  store.remove(res('school'), a);
  assert.deepEqual(store.references.referringResources(ninth), ['school'], 'b still references it');
  // Replacing b's document without the descriptor drops its link.
  store.replace(res('school'), b, { ...b.doc, gradeLevels: [] });
  assert.deepEqual(store.references.referringResources(ninth), []);
  assert.ok(!store.references.knows(b, ninth));
});

test('referrer records are kept exactly for the resources whose key can change', () => {
  const mutable = keyMutableResources(model);
  for (const r of model.resources.filter((x) => x.updatable)) assert.ok(mutable.has(r.name), `${r.name} is updatable`);
  // Not updatable itself, but keyed by a reference to an updatable session: a cascade changes its key.
  assert.ok(mutable.has('courseOffering'));
  for (const name of ['school', 'student', 'gradeLevelDescriptor', 'bellSchedule']) assert.ok(!mutable.has(name), `${name} keeps its key`);
  const { store, ninth } = seeded();
  assert.throws(() => store.references.referrers(ninth), /counted/);
});
