import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { DataStandard } from '../../spec/model/upstream.js';
import { startReference, type RunningReference } from '../server.js';

/**
 * Issue #22 point 2: persons follow the standard served. DS 4.0's contacts are parents
 * (`parents`, `parentUniqueId`, reached through a StudentParentAssociation's `parentReference`);
 * 6.1 keeps a student's demographics, e-mails and identification codes in StudentDemographic,
 * StudentDirectory and StudentIdentificationCode (versions.md). The rostering users and
 * demographics, and relationship-based authorization, find them there.
 */
const NS = 'uri://core.org';
const desc = (name: string, code: string) => `${NS}/${name}Descriptor#${code}`;
const CLIENTS = [
  { key: 'all', secret: 'all-secret', educationOrganizationIds: [255900], rosterScopes: ['roster-core.readonly', 'roster-demographics.readonly'] },
  { key: 'school', secret: 'school-secret', permissionSet: 'relationship-based' as const, educationOrganizationIds: [255901001] },
];

/** The contact person as each standard names it. */
const CONTACT: Record<DataStandard, { endpoint: string; key: string; association: string; via: string; resource: string }> = {
  '4.0': { endpoint: 'parents', key: 'parentUniqueId', association: 'studentParentAssociations', via: 'parentReference', resource: 'StudentParentAssociation' },
  '5.2': { endpoint: 'contacts', key: 'contactUniqueId', association: 'studentContactAssociations', via: 'contactReference', resource: 'StudentContactAssociation' },
  '6.1': { endpoint: 'contacts', key: 'contactUniqueId', association: 'studentContactAssociations', via: 'contactReference', resource: 'StudentContactAssociation' },
};

async function start(dataStandard: DataStandard) {
  const ref = await startReference({ overrides: { port: 0, rosteringPort: 0, warmValidators: false, demoData: true, clients: CLIENTS, dataStandard } });
  const token = async (key: string) => {
    const res = await fetch(`${ref.dataApiBaseUrl}/oauth/token`, {
      method: 'POST',
      headers: { Authorization: `Basic ${Buffer.from(`${key}:${key}-secret`).toString('base64')}`, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials',
    });
    return ((await res.json()) as { access_token: string }).access_token;
  };
  const tokens = { all: await token('all'), school: await token('school') };
  const data = (client: keyof typeof tokens, path: string, body?: unknown) => fetch(`${ref.dataApiBaseUrl}/data/v3/core/${path}`, {
    method: body ? 'POST' : 'GET', headers: { Authorization: `Bearer ${tokens[client]}`, 'Content-Type': 'application/json' }, ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const roster = async (path: string) => (await (await fetch(`${ref.rosteringBaseUrl}/std/roster/rostering/v1p2/${path}`, { headers: { Authorization: `Bearer ${tokens.all}` } })).json()) as Record<string, Record<string, unknown>[]>;
  return { ref, data, roster };
}

/** A demo student enrolled at the school the relationship-based client claims. */
function enrolledStudent(ref: RunningReference): string {
  const ssa = [...ref.store.collection('studentSchoolAssociation').byId.values()].find((r) => (r.doc.schoolReference as { schoolId: number }).schoolId === 255901001)!;
  return (ssa.doc.studentReference as { studentUniqueId: string }).studentUniqueId;
}

for (const standard of ['4.0', '5.2', '6.1'] as const) {
  test(`dataStandard ${standard}: a guardian is a rostering user through the standard's contact association, and relationship-based access reaches the contact through it`, async () => {
    const c = CONTACT[standard];
    const { ref, data, roster } = await start(standard);
    try {
      const student = enrolledStudent(ref);
      // The demo data set has its three contacts whatever the standard calls them.
      const demoContacts = [...ref.store.collection(ref.served.model.byEndpoint.get(c.endpoint.toLowerCase())!.name).byId.values()];
      assert.deepEqual(demoContacts.map((r) => r.doc[c.key]).sort(), ['C1001', 'C1002', 'C1003'].map((id) => (standard === '4.0' ? id.replace('C', 'P') : id)));
      assert.equal((await data('all', c.endpoint, { [c.key]: 'G9001', firstName: 'Gina', lastSurname: 'Guardiola' })).status, 201);
      const contactId = (await (await data('all', `${c.endpoint}?${c.key}=G9001`)).json() as { id: string }[])[0].id;
      // Out of the school's reach until the association exists: the refusal names the standard's key and association.
      const refused = await data('school', `${c.endpoint}/${contactId}`);
      assert.equal(refused.status, 403);
      const problem = (await refused.json()) as { detail: string; errors: string[] };
      assert.match(problem.detail, new RegExp(`'${c.resource}'`));
      assert.match(problem.errors[0], new RegExp(`'${c.key.charAt(0).toUpperCase()}${c.key.slice(1)}' value`));

      assert.equal((await data('all', c.association, { [c.via]: { [c.key]: 'G9001' }, studentReference: { studentUniqueId: student }, relationDescriptor: desc('Relation', 'Guardian') })).status, 201);
      assert.equal((await data('school', `${c.endpoint}/${contactId}`)).status, 200, 'reached through the association');

      const users = (await roster('users?limit=1000')).users;
      const guardian = users.find((u) => u.identifier === 'G9001');
      assert.ok(guardian, 'the guardian is a user');
      assert.deepEqual(guardian.userIds, [{ type: c.key, identifier: 'G9001' }]);
      assert.equal((guardian.roles as { role: string }[])[0].role, 'guardian');
    } finally {
      await ref.close();
    }
  });
}

for (const standard of ['4.0', '5.2', '6.1'] as const) {
  test(`dataStandard ${standard}: every grading period is a rostering academic session with a title, whatever keys the standard gives it`, async () => {
    // 4.0 keys a grading period by its descriptor and periodSequence (no gradingPeriodName); the
    // OneRoster academicSession requires a title (research rostering.md, academicSession).
    const { ref, roster } = await start(standard);
    try {
      const periods = (await roster('gradingPeriods?limit=1000')).academicSessions;
      assert.ok(periods.length > 0, 'the demo data set has grading periods');
      assert.deepEqual(periods.filter((p) => typeof p.title !== 'string' || !p.title).map((p) => p.sourcedId), []);
    } finally {
      await ref.close();
    }
  });
}

test('dataStandard 6.1: a student\'s demographics, e-mail and identification codes come from StudentDemographic, StudentDirectory and StudentIdentificationCode; a staff member\'s from StaffDirectory and StaffIdentificationCode', async () => {
  const { ref, data, roster } = await start('6.1');
  try {
    const student = enrolledStudent(ref);
    const keys = { studentReference: { studentUniqueId: student }, educationOrganizationReference: { educationOrganizationId: 255901001 } };
    const posted = await Promise.all([
      data('all', 'studentDemographics', { ...keys, sexDescriptor: desc('Sex', 'Female'), races: [{ raceDescriptor: desc('Race', 'Asian') }, { raceDescriptor: desc('Race', 'White') }], hispanicLatinoEthnicity: true }),
      data('all', 'studentDirectories', { ...keys, electronicMails: [{ electronicMailAddress: 'gina@example.org', electronicMailTypeDescriptor: desc('ElectronicMailType', 'ElectronicMailType A') }] }),
      data('all', 'studentIdentificationCodes', { ...keys, studentIdentificationSystemDescriptor: desc('StudentIdentificationSystem', 'StudentIdentificationSystem C'), identificationCode: 'SIC-77' }),
    ]);
    assert.deepEqual(posted.map((r) => r.status), [201, 201, 201]);

    // By its key's type: the demo's staff ids look like its students' (S1001 …).
    const user = (await roster('users?limit=1000')).users.find((u) => JSON.stringify((u.userIds as unknown[])[0]) === JSON.stringify({ type: 'studentUniqueId', identifier: student }))!;
    assert.equal(user.email, 'gina@example.org');
    assert.ok((user.userIds as unknown[]).some((id) => JSON.stringify(id) === JSON.stringify({ type: 'StudentIdentificationSystem C', identifier: 'SIC-77' })), JSON.stringify(user.userIds));
    const row = (await roster('demographics?limit=1000')).demographics.find((d) => d.sourcedId === user.sourcedId)!;
    assert.deepEqual(
      { sex: row.sex, asian: row.asian, white: row.white, two: row.demographicRaceTwoOrMoreRaces, hispanic: row.hispanicOrLatinoEthnicity },
      { sex: 'female', asian: 'true', white: 'true', two: 'true', hispanic: 'true' },
    );
    // A teacher: the demo's staff member of a section at the school.
    const staff = (await roster('users?limit=1000')).users.find((u) => (u.userIds as { type: string }[])[0].type === 'staffUniqueId')!;
    const staffKeys = { staffReference: { staffUniqueId: staff.identifier }, educationOrganizationReference: { educationOrganizationId: 255901001 } };
    const staffPosted = await Promise.all([
      data('all', 'staffDirectories', { ...staffKeys, electronicMails: [{ electronicMailAddress: 'teacher@example.org', electronicMailTypeDescriptor: desc('ElectronicMailType', 'ElectronicMailType B') }] }),
      data('all', 'staffIdentificationCodes', { ...staffKeys, staffIdentificationSystemDescriptor: desc('StaffIdentificationSystem', 'StaffIdentificationSystem C'), identificationCode: 'TIC-5' }),
    ]);
    assert.deepEqual(staffPosted.map((r) => r.status), [201, 201]);
    const teacher = (await roster('users?limit=1000')).users.find((u) => u.sourcedId === staff.sourcedId)!;
    assert.equal(teacher.email, 'teacher@example.org');
    assert.ok((teacher.userIds as unknown[]).some((id) => JSON.stringify(id) === JSON.stringify({ type: 'StaffIdentificationSystem C', identifier: 'TIC-5' })), JSON.stringify(teacher.userIds));
  } finally {
    await ref.close();
  }
});
