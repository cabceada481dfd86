/**
 * Issue #24 point 1, without a ledger: the rostering data a run left holding the target's
 * reserved organization ids (its ledger lost with the machine: an ephemeral CI runner, a killed
 * shard 1) is computed again from the seed in its names and removed, record by record, and
 * nothing else is: not a record the deployment had before, not one found under the same key
 * that the run did not write, not the data of a run still in progress. Against the reference
 * started in this process.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { httpClient, type HttpClient } from '../../_harness/http.js';
import { startInProcess, type ReferenceConfig } from '../../../tools/embedded/in-process.js';

const conformance = JSON.parse(readFileSync(new URL('../../../reference/config/conformance.json', import.meta.url), 'utf8')) as ReferenceConfig;
const ref = await startInProcess({ clients: conformance.clients! });
// The target: the reference target, on this reference, without the routing flows (their own
// data APIs are other processes) and without keys to read.
const dir = mkdtempSync(join(tmpdir(), 'earlier-worlds-'));
const reference = JSON.parse(readFileSync(new URL('../../targets/reference.json', import.meta.url), 'utf8')) as Record<string, any>;
delete reference.rostering.flows;
delete reference.capabilities;
delete reference.$schema;
const targetFile = join(dir, 'target.json');
writeFileSync(targetFile, JSON.stringify({ ...reference, dataApi: { ...reference.dataApi, baseUrl: ref.dataApiBaseUrl } }));
process.env.TARGET = targetFile;
const { Writer, buildWorld } = await import('./world.js');
const { removeEarlierRostering, seedOfName } = await import('./earlier-worlds.js');
const { WORLD_SCHOOL_YEAR } = await import('../../_harness/builders.js');
const ids = reference.rostering.organizations as Parameters<typeof buildWorld>[1];

let ctx: HttpClient;
let token = '';
let deployment: InstanceType<typeof Writer>;
/** Every record of the reference's store, by id. */
const stored = () => new Set([...ref.store.records()].map((r) => `${r.resource}/${r.id}`));

before(async () => {
  ctx = httpClient();
  const primary = conformance.clients!.find((c) => c.key === 'conformance-primary')!;
  const res = await ctx.post(`${ref.dataApiBaseUrl}/oauth/token`, { form: { grant_type: 'client_credentials', client_id: primary.key, client_secret: primary.secret! } });
  token = ((await res.json()) as { access_token: string }).access_token;
  deployment = new Writer(ctx, token, ref.dataApiBaseUrl);
  // The deployment's own school year (the world's): a cleanup must leave it.
  await new Writer(ctx, token, ref.dataApiBaseUrl).client.create('schoolYearTypes', { schoolYear: WORLD_SCHOOL_YEAR, currentSchoolYear: false, schoolYearDescription: 'the deployment\'s' });
});

after(async () => {
  await ctx.dispose();
  await ref.close();
  rmSync(dir, { recursive: true, force: true });
});

test('a name the rostering data is written with gives its run\'s seed; other names give none', () => {
  assert.equal(seedOfName('State Agency wq1w2e3wx12'), 'q1w2e3');
  assert.equal(seedOfName('Routing School rq1w2e3cx3'), 'q1w2e3');
  assert.equal(seedOfName('Other Elementary wq1w2e3wx9'), 'q1w2e3');
  for (const name of ['Grand Bend ISD', 'District r1a2b3c', 'School wq1w2e3', 'Routing School rabc1233x5', 'State Agency wq1w2e3wx12 (renamed)']) assert.equal(seedOfName(name), undefined, name);
});

test('the rostering data of a killed run is removed, and a record under its key that the run did not write stays', async () => {
  const before = stored();
  // A run writes its world (seed q1w2e3) and is killed: nothing deletes it.
  await buildWorld(new Writer(ctx, token, ref.dataApiBaseUrl, 'q1w2e3w'), ids);
  const written = [...stored()].filter((r) => !before.has(r));
  assert.ok(written.length > 40, `the world wrote ${written.length} records`);
  // School D (which nothing of the world references) now belongs to the deployment: deleted, and its id taken by a school of its own.
  const schoolD = await deployment.client.get(`schools?schoolId=${ids.schoolD}`);
  const [ourD] = (await schoolD.json()) as { id: string }[];
  assert.equal((await deployment.client.delete(`schools/${ourD.id}`)).status(), 204);
  const [category, grade] = await Promise.all([['educationOrganizationCategory', 'School'], ['gradeLevel', 'Ninth grade']].map(async ([name, code]) => {
    const namespace = `uri://deployment.test/${name.charAt(0).toUpperCase()}${name.slice(1)}Descriptor`;
    await deployment.client.create(`${name}Descriptors`, { namespace, codeValue: code, shortDescription: code });
    return `${namespace}#${code}`;
  }));
  await deployment.client.create('schools', { schoolId: ids.schoolD, nameOfInstitution: 'The deployment\'s own school', educationOrganizationCategories: [{ educationOrganizationCategoryDescriptor: category }], gradeLevels: [{ gradeLevelDescriptor: grade }] });
  const theirs = [...stored()].filter((r) => !before.has(r) && !written.includes(r));
  assert.equal(theirs.length, 3);

  // The run in progress elsewhere (seed z9y8x7) is not this one; this machine knows of none.
  const removal = await removeEarlierRostering(ctx, async () => token, { runsInProgress: ['lq5aaaz9y8x7s1'] });
  assert.deepEqual(removal?.seeds, ['q1w2e3']);
  assert.deepEqual(removal?.failed, []);
  assert.equal(removal?.removed, written.length - 1);
  assert.deepEqual(stored(), new Set([...before, ...theirs]), 'everything the run wrote is gone; the deployment\'s school year and school D stay');

  // Idempotent: nothing holds the ids for a run any more.
  assert.deepEqual((await removeEarlierRostering(ctx, async () => token, { runsInProgress: [] }))?.seeds, []);
  await deployment.cleanup();
  assert.deepEqual(stored(), before);
});

test('the data of a run still in progress on this machine, or of the current run, is left alone', async () => {
  const before = stored();
  const world = new Writer(ctx, token, ref.dataApiBaseUrl, 'k4j5h6w');
  await buildWorld(world, ids);
  const inProgress = await removeEarlierRostering(ctx, async () => token, { runsInProgress: ['lq5aaak4j5h6'] });
  assert.deepEqual([inProgress?.seeds, inProgress?.inProgress, inProgress?.removed], [[], ['k4j5h6'], 0]);
  const current = await removeEarlierRostering(ctx, async () => token, { runsInProgress: [], current: 'k4j5h6' });
  assert.deepEqual([current?.seeds, current?.removed], [[], 0]);
  await world.cleanup();
  assert.deepEqual(stored(), before);
});

test('at a run\'s start (staleAfterMs) the data is removed only once the deployment says it was written that long ago', async () => {
  const before = stored();
  await buildWorld(new Writer(ctx, token, ref.dataApiBaseUrl, 'p0o9i8w'), ids);
  const young = await removeEarlierRostering(ctx, async () => token, { runsInProgress: [], staleAfterMs: 3_600_000 });
  assert.deepEqual([young?.seeds, young?.recent, young?.removed], [[], ['p0o9i8'], 0]);
  const old = await removeEarlierRostering(ctx, async () => token, { runsInProgress: [], staleAfterMs: 3_600_000, now: Date.now() + 3_700_000 });
  assert.deepEqual([old?.seeds, old?.recent, old?.failed], [['p0o9i8'], [], []]);
  assert.deepEqual(stored(), before);
});

test('the paging district a killed worker left (schools of drawn ids) is found from the district and removed, a school of the deployment\'s under it stays', async () => {
  const { buildDistrict } = await import('./world.js');
  const { newEducationOrganizationId } = await import('../../_harness/builders.js');
  const before = stored();
  // As query.spec.ts writes it: a worker's (unseeded) writer, the district on pagingLea, then schools of drawn ids.
  const worker = new Writer(ctx, token, ref.dataApiBaseUrl);
  await buildDistrict(worker, { lea: ids.pagingLea });
  const [made] = (await (await worker.client.get(`schools?localEducationAgencyId=${ids.pagingLea}`)).json()) as Record<string, unknown>[];
  const template = { ...made };
  delete template.id; delete template._etag; delete template._lastModifiedDate;
  for (let i = 0; i < 30; i++) {
    const schoolId = newEducationOrganizationId();
    await worker.create('schools', { ...template, schoolId, nameOfInstitution: `Paging School ${schoolId}` });
  }
  const written = [...stored()].filter((r) => !before.has(r));
  assert.equal(written.length, 35, 'three descriptors, the district and 31 schools');
  const young = await removeEarlierRostering(ctx, async () => token, { runsInProgress: [], staleAfterMs: 3_600_000 });
  assert.equal(young?.recent.length, 1);
  assert.equal(young?.removed, 0);
  // A school of the deployment's under the district: it stays, and so does the district.
  const theirs = await new Writer(ctx, token, ref.dataApiBaseUrl).client.create('schools', { ...template, schoolId: newEducationOrganizationId(), nameOfInstitution: 'A school of the deployment\'s' });
  const removal = await removeEarlierRostering(ctx, async () => token, { runsInProgress: [] });
  assert.equal(removal?.seeds.length, 1);
  assert.equal(removal?.removed, 31, 'the run\'s 31 schools');
  assert.equal(removal?.failed.length, 4, `the district, the two descriptors the deployment's school uses and the one the district uses are refused: ${removal?.failed.join(', ')}`);
  assert.equal((await deployment.client.delete(theirs.url)).status(), 204);
  const again = await removeEarlierRostering(ctx, async () => token, { runsInProgress: [] });
  assert.deepEqual([again?.removed, again?.failed], [4, []]);
  assert.deepEqual(stored(), before);
});
