import { test, expect, target } from '../_harness/fixtures.js';
import { descriptorBody } from '../_harness/builders.js';
import { expectProblem } from '../_harness/problem.js';
import { check, rule } from '../_harness/rules.js';

/** Create, read, update and delete of a descriptor resource, the simplest resource shape. */
const resource = 'academicSubjectDescriptors';
const isInt32 = (v: unknown) => Number.isInteger(v) && (v as number) >= -(2 ** 31) && (v as number) <= 2 ** 31 - 1;

test.describe('descriptor resources', () => {
  test('POST of a new descriptor answers 201 with a Location naming the new item', rule('data.upsert.new-key-201-location', 'data.upsert.location-absolute-url'), async ({ api }) => {
    const body = descriptorBody('academicSubject');
    const res = await api.post(resource, body);
    expect(res.status()).toBe(201);
    const location = res.headers().location;
    api.track(location);
    // The seed asks for a Location addressing the item; an absolute URL is upstream's (SHOULD).
    expect(new URL(api.url(location)).pathname).toMatch(new RegExp(`/data/v3/${target.dataApi.namespaceSegment}/${resource}/[^/]+$`, 'i'));
    await check('data.upsert.location-absolute-url', 'the Location is an absolute URL', () => expect(location).toMatch(new RegExp(`^https?://.+/${resource}/[^/]+$`, 'i')));
    const get = await api.get(location);
    expect(get.status()).toBe(200);
    expect(await get.json()).toMatchObject({ codeValue: body.codeValue, namespace: body.namespace });
  });

  test('POST of an existing natural key answers 200 and updates the same record', rule('data.upsert.existing-key-200-update', 'data.upsert.location-on-200', 'data.upsert.locate-by-natural-key'), async ({ api }) => {
    const body = descriptorBody('academicSubject');
    const created = await api.create(resource, body);
    const res = await api.post(resource, { ...body, shortDescription: 'Changed by upsert' });
    expect(res.status()).toBe(200);
    await check('data.upsert.location-on-200', 'the 200 carries a Location naming the record', () => expect(res.headers().location?.split('/').pop()).toBe(created.id));
    const get = await api.get(created.url);
    expect((await get.json()).shortDescription).toBe('Changed by upsert');
    await check('data.upsert.locate-by-natural-key', 'one record holds the key, the one created', async () => {
      const found = (await (await api.get(`${resource}?namespace=${encodeURIComponent(body.namespace as string)}&codeValue=${encodeURIComponent(body.codeValue as string)}`)).json()) as { id: string }[];
      expect(found.map((r) => r.id)).toEqual([created.id]);
    });
  });

  test('GET by id returns the descriptor with id, descriptor id, _etag and the stored values', rule('data.descriptors.shared-shape', 'data.etag.etag-in-every-response', 'data.upsert.id-server-assigned'), async ({ api }) => {
    const body = descriptorBody('academicSubject', { description: 'A conformance descriptor' });
    const created = await api.create(resource, body);
    const res = await api.get(created.url);
    expect(res.status()).toBe(200);
    const got = await res.json();
    await check('data.upsert.id-server-assigned', 'the id is the one its Location named', () => expect(got.id).toBe(created.id));
    expect(Number.isInteger(got.academicSubjectDescriptorId)).toBe(true);
    await check('data.etag.etag-in-every-response', 'a string _etag', () => expect(typeof got._etag).toBe('string'));
    expect(got).toMatchObject({ codeValue: body.codeValue, namespace: body.namespace, shortDescription: body.shortDescription, description: body.description });
  });

  // The client never sends the descriptor id: an update (PUT by id, or POST finding the natural
  // key) must leave the record with the int32 id the server assigned, not without one.
  test('still returns an int32 descriptor id after a PUT and after a POST that updates the descriptor', rule('data.descriptors.shared-shape'), async ({ api }) => {
    const body = descriptorBody('academicSubject');
    const created = await api.create(resource, body);
    const descriptorId = async () => ((await (await api.get(created.url)).json()) as Record<string, unknown>).academicSubjectDescriptorId;
    expect((await api.put(created.url, { ...body, shortDescription: 'Replaced by PUT' })).status()).toBe(204);
    const afterPut = await descriptorId();
    expect(isInt32(afterPut), `after PUT: ${JSON.stringify(afterPut)}`).toBe(true);
    expect((await api.post(resource, { ...body, shortDescription: 'Changed by upsert' })).status()).toBe(200);
    const afterPost = await descriptorId();
    expect(isInt32(afterPost), `after POST: ${JSON.stringify(afterPost)}`).toBe(true);
  });

  test('GET by id sends the quoted _etag as the ETag header', rule('data.etag.etag-header-quoted'), async ({ api }) => {
    const created = await api.create(resource, descriptorBody('academicSubject'));
    const res = await api.get(created.url);
    expect(res.headers().etag).toBe(`"${(await res.json())._etag}"`);
  });

  test('PUT replaces the descriptor and answers 204', rule('data.put.update-by-id-204', 'data.etag.etag-changes-on-update'), async ({ api }) => {
    const body = descriptorBody('academicSubject');
    const created = await api.create(resource, body);
    const before = await (await api.get(created.url)).json();
    const res = await api.put(created.url, { ...body, shortDescription: 'Replaced by PUT' });
    expect(res.status()).toBe(204);
    const after = await (await api.get(created.url)).json();
    expect(after.shortDescription).toBe('Replaced by PUT');
    await check('data.etag.etag-changes-on-update', 'the _etag changed', () => expect(after._etag).not.toBe(before._etag));
  });

  test('PUT that changes the natural key of a descriptor answers 400 key-change-not-supported', rule('data.put.key-change-not-supported-400'), async ({ api }) => {
    const body = descriptorBody('academicSubject');
    const created = await api.create(resource, body);
    const res = await api.put(created.url, { ...body, codeValue: `${body.codeValue as string}x` });
    await expectProblem(res, 'bad-request:data-validation-failed:key-change-not-supported');
  });

  test('DELETE answers 204, after which GET by id answers 404', rule('data.delete.existing-record-204'), async ({ api }) => {
    const created = await api.create(resource, descriptorBody('academicSubject'));
    const res = await api.delete(created.url);
    expect(res.status()).toBe(204);
    expect((await api.get(created.url)).status()).toBe(404);
  });

  test('DELETE of an id that no longer exists answers 404', rule('data.delete.unknown-id-404'), async ({ api }) => {
    const created = await api.create(resource, descriptorBody('academicSubject'));
    expect((await api.delete(created.url)).status()).toBe(204);
    expect((await api.delete(created.url)).status()).toBe(404);
  });

  test('POST with an id in the body answers 400 data-validation-failed', rule('data.upsert.id-in-post-body-400'), async ({ api }) => {
    const res = await api.post(resource, { ...descriptorBody('academicSubject'), id: '0123456789abcdef0123456789abcdef' });
    const problem = await expectProblem(res, 'bad-request:data-validation-failed');
    expect(problem.errors?.length ?? 0).toBeGreaterThan(0);
  });

  test('POST missing a required member names it under validationErrors', rule('data.descriptors.field-constraints-400'), async ({ api }) => {
    const { shortDescription: _omitted, ...body } = descriptorBody('academicSubject');
    const problem = await expectProblem(await api.post(resource, body), 'bad-request:data-validation-failed');
    expect(Object.keys(problem.validationErrors ?? {})).toContain('$.shortDescription');
  });
});
