import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { servedDocumentFile } from '../../spec/model/served.js';
import type { DataStandard } from '../../spec/model/upstream.js';
import { startForTest } from './helpers.js';

/**
 * Issue #22 point 2: one data standard per deployment, chosen by `dataStandard`. Each standard's
 * reference names it in discovery, answers its own resources and not the others', takes the
 * bodies its natural keys and integer widths allow (research upstream-shapes/versions.md,
 * "Natural-key (identity) changes"), and describes exactly its endpoints. Unset, it serves the
 * seed's standard, 4.0 (decision 44).
 */
const STANDARDS: Record<DataStandard, { version: string; endpoints: number; answers: string[]; lacks: string[] }> = {
  // Endpoint counts: versions.md "Counts"; 4.0 also serves the seed's learningObjectives (overlay), which its extract has.
  '4.0': { version: '4.0.0', endpoints: 314, answers: ['parents', 'studentParentAssociations', 'learningObjectives'], lacks: ['contacts', 'studentContactAssociations', 'studentDemographics'] },
  '5.2': { version: '5.2.0', endpoints: 349, answers: ['contacts', 'studentContactAssociations'], lacks: ['parents', 'learningObjectives', 'studentDemographics'] },
  '6.1': { version: '6.1.0', endpoints: 472, answers: ['contacts', 'studentDemographics', 'staffDirectories'], lacks: ['parents', 'learningObjectives'] },
};

const NS = 'uri://core.org';
const SCHOOL = 255901001;
// A grading period as 4.0 keys it (periodSequence) and as 5.2 and 6.1 key it (gradingPeriodName).
const period = { gradingPeriodDescriptor: `${NS}/GradingPeriodDescriptor#First Six Weeks`, schoolReference: { schoolId: SCHOOL }, schoolYearTypeReference: { schoolYear: 2025 }, beginDate: '2025-03-03', endDate: '2025-04-11', totalInstructionalDays: 28 };
const PERIOD_40 = { ...period, periodSequence: 7 };
const PERIOD_52 = { ...period, gradingPeriodName: 'Spring Six Weeks' };
// An education organization id past 2^31: int64 in 5.2 and 6.1, int32 in 4.0.
const WIDE_AGENCY = { stateEducationAgencyId: 3_000_000_001, nameOfInstitution: 'Wide State Agency', categories: [{ educationOrganizationCategoryDescriptor: `${NS}/EducationOrganizationCategoryDescriptor#State Education Agency` }] };

const collectionPaths = (doc: { paths: Record<string, unknown> }) => Object.keys(doc.paths).filter((p) => /^\/core\/\w+$/.test(p));

for (const [standard, expected] of Object.entries(STANDARDS) as [DataStandard, (typeof STANDARDS)[DataStandard]][]) {
  test(`dataStandard ${standard}: discovery names it, its resources answer, others' do not, its bodies are taken, its interface description lists its endpoints`, async () => {
    const ref = await startForTest({ dataStandard: standard, demoData: true });
    try {
      const discovery = (await (await fetch(`${ref.dataApiBaseUrl}/`)).json()) as { dataModels: unknown[] };
      assert.deepEqual(discovery.dataModels, [{ name: 'Core', version: expected.version, informationalVersion: `The Ed-Fi Data Model ${standard}` }]);

      for (const endpoint of expected.answers) assert.equal((await ref.data(endpoint)).status, 200, `${endpoint} answers`);
      for (const endpoint of expected.lacks) assert.equal((await ref.data(endpoint)).status, 404, `${endpoint} is not served`);

      const post = async (endpoint: string, body: unknown) => (await ref.data(endpoint, { method: 'POST', body: JSON.stringify(body) })).status;
      const [own, other] = standard === '4.0' ? [PERIOD_40, PERIOD_52] : [PERIOD_52, PERIOD_40];
      assert.equal(await post('gradingPeriods', own), 201, 'a grading period keyed as this standard keys it');
      // Referred to by its key as this standard writes it (the standards run one after another in
      // this process: nothing of the previous one's shapes may linger).
      const { beginDate, endDate, totalInstructionalDays, schoolReference, schoolYearTypeReference, ...periodKey } = own;
      const gradingPeriodReference = { ...periodKey, schoolId: schoolReference.schoolId, schoolYear: schoolYearTypeReference.schoolYear };
      const session = { sessionName: 'Spring Six Weeks session', schoolReference, schoolYearTypeReference, termDescriptor: `${NS}/TermDescriptor#Spring Semester`, beginDate, endDate, totalInstructionalDays, gradingPeriods: [{ gradingPeriodReference }] };
      assert.equal(await post('sessions', session), 201, 'a session naming the grading period');
      const stored = (await (await ref.data(`sessions?sessionName=${encodeURIComponent(session.sessionName)}`)).json()) as { gradingPeriods: unknown[] }[];
      assert.deepEqual(stored[0].gradingPeriods, session.gradingPeriods);
      assert.equal(await post('gradingPeriods', other), 400, 'a grading period keyed as another standard keys it');
      assert.equal(await post('stateEducationAgencies', WIDE_AGENCY), standard === '4.0' ? 400 : 201, 'an education organization id past 2^31');

      const described = async (section: string) => (await (await fetch(`${ref.dataApiBaseUrl}/metadata/data/v3/${section}/swagger.json`)).json()) as { paths: Record<string, unknown> };
      const paths = [...collectionPaths(await described('resources')), ...collectionPaths(await described('descriptors'))];
      assert.equal(paths.length, expected.endpoints, 'one collection path per endpoint of the standard');
      for (const endpoint of expected.answers) assert.ok(paths.includes(`/core/${endpoint}`), `${endpoint} is described`);
      for (const endpoint of expected.lacks) assert.ok(!paths.includes(`/core/${endpoint}`), `${endpoint} is not described`);
      // Every endpoint the model serves, and no other, is described.
      assert.deepEqual(paths.sort(), ref.served.model.resources.map((r) => `/core/${r.endpoint}`).sort());
    } finally {
      await ref.close();
    }
  });
}

test('unset: the seed\'s standard, 4.0, and its generated documents, byte for byte; discovery names 4.0', async () => {
  const ref = await startForTest();
  try {
    const files = [servedDocumentFile('4.0', 'resources'), servedDocumentFile('4.0', 'descriptors'), 'spec/openapi/other.json'].map((f) => readFileSync(new URL(`../../${f}`, import.meta.url), 'utf8'));
    const discovery = (await (await fetch(`${ref.dataApiBaseUrl}/`)).json()) as { build: string; dataModels: unknown[] };
    assert.deepEqual(discovery.dataModels, [{ name: 'Core', version: '4.0.0', informationalVersion: 'The Ed-Fi Data Model 4.0' }]);
    // The build names the hash of the documents read: that of the 4.0 files.
    const hash = createHash('sha256');
    for (const text of files) hash.update(text);
    assert.equal(discovery.build.split('+')[1], hash.digest('hex').slice(0, 12));
    // Served as read (the servers member names the request's origin).
    for (const [i, path] of ['/metadata/data/v3/resources/swagger.json', '/metadata/data/v3/descriptors/swagger.json', '/metadata/other/swagger.json'].entries()) {
      const served = (await (await fetch(`${ref.dataApiBaseUrl}${path}`)).json()) as Record<string, unknown>;
      assert.deepEqual({ ...served, servers: undefined }, { ...(JSON.parse(files[i]) as Record<string, unknown>), servers: undefined }, path);
    }
    assert.equal(ref.served.standard, '4.0');
    assert.equal(ref.served.model.resources.length, STANDARDS['4.0'].endpoints);
  } finally {
    await ref.close();
  }
});

test('extensionResources: the named resources accept and return _ext on a standard that ships none; a name the standard lacks is refused by name', async () => {
  const ref = await startForTest({ dataStandard: '5.2', extensionResources: ['credential', 'student'] });
  try {
    const ext = { conformance: { note: 'written through _ext', attempts: 3 } };
    const student = { studentUniqueId: 'ext-1', firstName: 'E', lastSurname: 'X', birthDate: '2010-01-02', _ext: ext };
    const res = await ref.data('students', { method: 'POST', body: JSON.stringify(student) });
    assert.equal(res.status, 201, await res.clone().text());
    const read = (await (await fetch(res.headers.get('location')!, { headers: { Authorization: `Bearer ${ref.token}` } })).json()) as { _ext?: unknown };
    assert.deepEqual(read._ext, ext);
    assert.equal(ref.served.model.byName.get('credential')!.fields._ext?.kind, 'extension');
    assert.equal(ref.served.model.byName.get('school')!.fields._ext, undefined, 'only the named resources');
  } finally {
    await ref.close();
  }
  await assert.rejects(startForTest({ dataStandard: '5.2', extensionResources: ['parent'] }), (e: Error) => e.message === 'extensionResources: Data Standard 5.2 has no resource parent (singular names, e.g. "credential")');
});
