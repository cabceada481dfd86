import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { CompiledResource } from '../../spec/model/compiled.js';
import { model } from '../../spec/model/index.js';
import type { Client } from '../config/load.js';
import { loadDemoData } from '../demo/load.js';
import { Authorizer } from '../security/authorization.js';
import { stringifyExact } from '../http/exact-json.js';
import { Persistence } from './persistence.js';
import { DataStore } from './store.js';
import { tombstoneDoc } from './tombstones.js';

/**
 * Delete events keep keys only (issue 23 point 10): the natural key and the members the deletes
 * feed's authorization reads, never the rest of the document, in memory and in the files; and
 * every reader is shown exactly the deletions it was shown when events kept whole documents.
 */
const client = (key: string, permissionSet: Client['permissionSet'], extra: Partial<Client> = {}): Client =>
  ({ key, secretHash: '', permissionSet, namespacePrefixes: [], educationOrganizationIds: [], profiles: [], rosterScopes: [], odsInstances: [{ id: 1 }], ...extra });
const READERS = [
  client('school', 'relationship-based', { educationOrganizationIds: [255901001] }),
  client('district', 'relationship-based', { educationOrganizationIds: [255902] }),
  client('agency', 'relationship-based', { educationOrganizationIds: [255900] }),
  client('none', 'relationship-based'),
  client('core', 'namespace-based', { namespacePrefixes: ['uri://core.org'] }),
  client('other', 'namespace-based', { namespacePrefixes: ['uri://other.org'] }),
];

test('for every demo record of every resource, each reader may see its delete event exactly when it could see the whole document', () => {
  const store = new DataStore(model);
  loadDemoData(model, store);
  const authorizer = new Authorizer(model);
  let compared = 0;
  const differ: string[] = [];
  for (const resource of model.resources) {
    for (const record of store.collection(resource.name).byId.values()) {
      const kept = tombstoneDoc(resource, record.doc);
      for (const reader of READERS) {
        compared++;
        if (authorizer.visibleDocument(store, reader, resource, kept) !== authorizer.visibleDocument(store, reader, resource, record.doc)) differ.push(`${resource.name} ${record.id} for ${reader.key}`);
      }
    }
  }
  assert.ok(compared > 1000, `compared ${compared}`);
  assert.deepEqual(differ, []);
});

test('a delete event keeps the key and securable members only, in memory and in the journal', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tombstones-'));
  try {
    const store = new DataStore(model);
    Persistence.open(join(dir, 'store.json'), store);
    const resource = model.byName.get('gradeLevelDescriptor')!;
    const record = store.create(resource, { codeValue: 'Big', namespace: 'uri://core.org/GradeLevelDescriptor', shortDescription: 'x'.repeat(75), description: 'y'.repeat(1_000_000) });
    store.remove(resource, record);
    const [event] = store.collection(resource.name).deletes;
    assert.deepEqual(event.doc, { codeValue: 'Big', namespace: 'uri://core.org/GradeLevelDescriptor' });
    assert.deepEqual(event.keyValues, { codeValue: 'Big', namespace: 'uri://core.org/GradeLevelDescriptor' });
    assert.ok(stringifyExact(event).length < 300, `the event: ${stringifyExact(event).length} characters`);
    const [, deleteLine] = readFileSync(join(dir, 'store.json.journal.0'), 'utf8').split('\n');
    assert.ok(deleteLine.length < 500, `the journal line of the delete: ${deleteLine.length} characters`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('array items keep their positions, so a securable member inside a collection is judged at the same place', () => {
  // The model has no such member today; a resource shaped like one (compiled models are plain data).
  const resource = { identity: [{ path: '$.sessionReference.schoolId' }], isDescriptor: false, securable: { educationOrganization: ['$.schools[*].schoolReference.schoolId'], person: { student: ['$.students[*].studentUniqueId'] } } } as unknown as CompiledResource;
  const doc = {
    sessionReference: { schoolId: 1, sessionName: 'Fall' },
    schools: [{ schoolReference: { schoolId: 2, link: 'x' }, note: 'a' }, { other: true }, { schoolReference: { schoolId: 3 } }],
    students: [{ studentUniqueId: 'S1', name: 'n' }],
    notes: 'dropped',
  };
  assert.deepEqual(tombstoneDoc(resource, doc), {
    sessionReference: { schoolId: 1 },
    schools: [{ schoolReference: { schoolId: 2 } }, {}, { schoolReference: { schoolId: 3 } }],
    students: [{ studentUniqueId: 'S1' }],
  });
});

test('delete events an earlier version stored whole are cut down when the store loads them', () => {
  const resource = model.byName.get('gradeLevelDescriptor')!;
  const store = new DataStore(model);
  const doc = { codeValue: 'Old', namespace: 'uri://core.org/GradeLevelDescriptor', shortDescription: 'old', description: 'long '.repeat(100) };
  store.restore({ generation: 1, version: 2, descriptorIds: 1, collections: { [resource.name]: { records: [], deletes: [{ id: 'a', changeVersion: 2, key: '["old"]', keyValues: { codeValue: 'Old', namespace: doc.namespace }, doc }], keyChanges: [] } } });
  assert.deepEqual(store.collection(resource.name).deletes[0].doc, { codeValue: 'Old', namespace: doc.namespace });
  const replayed = new DataStore(model);
  replayed.replay({ t: 'del', r: resource.name, v: 3, d: 1, ev: { id: 'b', changeVersion: 3, key: '["old"]', keyValues: {}, doc } });
  assert.deepEqual(replayed.collection(resource.name).deletes[0].doc, { codeValue: 'Old', namespace: doc.namespace });
});
