import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { StoredRecord } from '../store/store.js';
import { startForTest } from './helpers.js';
import { referenceProblems } from './reliability/invariants.js';

/**
 * Key changes of updatable resources cascade (issue #3; the seed leaves cascading open, so no
 * conformance rule asks for it): every record that references the changed one is rewritten,
 * recursively and inside arrays, each with a new change version and, where its own key changed,
 * a key-change event. Runs on the demo data, through the HTTP API.
 */
type Ref = Awaited<ReturnType<typeof startForTest>>;
let ref: Ref;
before(async () => { ref = await startForTest({ demoData: true }); });
after(async () => { await ref.close(); });

const referrersOf = (record: StoredRecord, resource: string) => [...ref.store.references.referrers(record)].filter((r) => r.resource === resource);
const keyChangesOf = (resource: string, id: string) => ref.store.collection(resource).keyChanges.filter((k) => k.id === id);

async function rename(endpoint: string, record: StoredRecord, field: string, value: string): Promise<void> {
  const res = await ref.data(`${endpoint}/${record.id}`, { method: 'PUT', body: JSON.stringify({ ...record.doc, [field]: value }) });
  assert.equal(res.status, 204, await res.text());
}

test('a session key change flows into course offerings, their sections and the sections\' enrolments', async () => {
  // A session with the whole chain below it: session ← courseOffering ← section ← studentSectionAssociation.
  const chains = [...ref.store.collection('session').byId.values()].flatMap((session) =>
    referrersOf(session, 'courseOffering').flatMap((offering) =>
      referrersOf(offering, 'section').flatMap((section) => referrersOf(section, 'studentSectionAssociation').map((enrolment) => ({ session, offering, section, enrolment })))));
  assert.ok(chains.length, 'the demo data has a session with offerings, sections and enrolments');
  const { session, offering, section, enrolment } = chains[0];
  const oldName = session.doc.sessionName as string;
  const newName = `${oldName} (renamed)`;
  const before = new Map([offering, section, enrolment].map((r) => [r.id, r.changeVersion]));

  await rename('sessions', session, 'sessionName', newName);

  assert.equal((offering.doc.sessionReference as Record<string, unknown>).sessionName, newName);
  assert.equal((section.doc.courseOfferingReference as Record<string, unknown>).sessionName, newName);
  assert.equal((enrolment.doc.sectionReference as Record<string, unknown>).sessionName, newName);
  for (const [resource, r] of [['courseOffering', offering], ['section', section], ['studentSectionAssociation', enrolment]] as const) {
    assert.ok(r.changeVersion > before.get(r.id)!, `${resource} takes a new change version`);
    assert.ok(r.changeVersion > session.changeVersion, `${resource} changes after the session`);
    // courseOffering is not updatable itself: its key changes only through the cascade.
    const events = keyChangesOf(resource, r.id);
    assert.equal(events.length, 1, `one key-change event for the ${resource}`);
    assert.equal(events[0].oldKeyValues.sessionName, oldName);
    assert.equal(events[0].newKeyValues.sessionName, newName);
  }
  // What a client reads, and what the reverse index knows afterwards.
  const read = await (await ref.data(`courseOfferings/${offering.id}`)).json() as { sessionReference: { sessionName: string } };
  assert.equal(read.sessionReference.sessionName, newName);
  assert.deepEqual(referenceProblems(ref.store), []);
  const del = await ref.data(`sessions/${session.id}`, { method: 'DELETE' });
  assert.equal(del.status, 409, 'the renamed session is still referenced');
});

test('a class period key change flows into the array items that reference it', async () => {
  const periods = [...ref.store.collection('classPeriod').byId.values()].filter((p) => referrersOf(p, 'bellSchedule').length);
  assert.ok(periods.length, 'the demo data has a class period used by a bell schedule');
  const period = periods[0];
  const schedules = referrersOf(period, 'bellSchedule');
  const oldName = period.doc.classPeriodName as string;
  const newName = `${oldName} (renamed)`;

  await rename('classPeriods', period, 'classPeriodName', newName);

  for (const schedule of schedules) {
    const names = (schedule.doc.classPeriods as { classPeriodReference: { classPeriodName: string } }[]).map((i) => i.classPeriodReference.classPeriodName);
    assert.ok(names.includes(newName), `bell schedule ${schedule.id} names the new key`);
    assert.ok(!names.includes(oldName), `bell schedule ${schedule.id} no longer names the old key`);
    assert.ok(schedule.changeVersion > period.changeVersion);
    assert.equal(keyChangesOf('bellSchedule', schedule.id).length, 0, 'a bell schedule keeps its own key');
  }
  assert.deepEqual(referenceProblems(ref.store), []);
});
