import assert from 'node:assert/strict';
import { test } from 'node:test';
import { model } from '../../spec/model/index.js';
import { startForTest } from './helpers.js';

/**
 * What a real Ed-Fi client does, start to finish, against an empty reference, with nothing but
 * what the API itself publishes: discovery → dependencies → interface descriptions → token →
 * the demo data set posted in dependency order (descriptors first) → every collection read
 * back by cursor and by limit/offset, with and without a change-version window, against
 * Total-Count → a key change and its keyChanges entry → everything deleted in reverse
 * dependency order, each delete in its resource's deletes feed → nothing left.
 */
type Json = Record<string, unknown>;

test('a bulk loader and an extraction client work unmodified from discovery to an empty store again', async () => {
  const source = await startForTest({ demoData: true });
  const ref = await startForTest();
  const get = async (url: string, token?: string) => {
    const res = await fetch(url, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
    assert.ok(res.status < 400, `GET ${url} → ${res.status}`);
    return res;
  };
  try {
    // Discovery, dependencies and interface descriptions: anonymous.
    const { urls } = (await (await get(`${ref.dataApiBaseUrl}/`)).json()) as { urls: Record<string, string> };
    const dependencies = (await (await get(urls.dependencies)).json()) as { resource: string; order: number }[];
    const sections = (await (await get(urls.openApiMetadata)).json()) as { name: string; endpointUri: string }[];
    const described = new Set<string>();
    for (const s of sections) for (const path of Object.keys(((await (await get(s.endpointUri)).json()) as { paths: Json }).paths)) described.add(path.toLowerCase());
    for (const d of dependencies) assert.ok([...described].some((p) => p.endsWith(d.resource.toLowerCase())), `${d.resource} is described`);

    // Token, then the data set in dependency order.
    const tokenRes = await fetch(urls.oauth, {
      method: 'POST',
      headers: { Authorization: `Basic ${Buffer.from('test:test-secret').toString('base64')}`, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials',
    });
    const { access_token: token } = (await tokenRes.json()) as { access_token: string };
    const data = urls.dataManagementApi.replace(/\/$/, '');
    const versions = async () => ((await (await get(`${ref.dataApiBaseUrl}/changeQueries/v1/availableChangeVersions`, token)).json()) as { newestChangeVersion: number }).newestChangeVersion;
    const before = await versions();
    const posted = new Map<string, string[]>();
    for (const { resource } of dependencies) {
      const r = model.byEndpoint.get(resource.split('/').pop()!.toLowerCase())!;
      for (const rec of source.store.collection(r.name).byId.values()) {
        const body = { ...rec.doc };
        if (r.isDescriptor) delete body[`${r.name}Id`];
        const res = await fetch(`${data}${resource}`, { method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
        assert.equal(res.status, 201, `${resource}: ${await res.text()}`);
        (posted.get(resource) ?? posted.set(resource, []).get(resource)!).push(res.headers.get('location')!.split('/').pop()!);
      }
    }
    const after = await versions();
    assert.ok(posted.size === model.resources.length, `every endpoint written (${posted.size})`);

    // Every collection read back four ways, each against Total-Count.
    const readAll = async (resource: string, window: string) => {
      const count = Number((await get(`${data}${resource}?limit=0&totalCount=true${window}`, token)).headers.get('total-count'));
      const byOffset: string[] = [];
      for (let offset = 0; ; offset += 25) {
        const page = ((await (await get(`${data}${resource}?limit=25&offset=${offset}${window}`, token)).json()) as { id: string }[]).map((x) => x.id);
        if (!page.length) break;
        byOffset.push(...page);
      }
      const byCursor: string[] = [];
      const { pageTokens } = (await (await get(`${data}${resource}/partitions?number=3${window}`, token)).json()) as { pageTokens: string[] };
      for (const first of pageTokens) {
        for (let t: string | null = first; t; ) {
          const res = await get(`${data}${resource}?pageSize=25&pageToken=${encodeURIComponent(t)}${window}`, token);
          const page = ((await res.json()) as { id: string }[]).map((x) => x.id);
          if (!page.length) break;
          byCursor.push(...page);
          t = res.headers.get('next-page-token');
        }
      }
      assert.equal(byOffset.length, count, `${resource}${window} by offset`);
      assert.deepEqual([...byCursor].sort(), [...byOffset].sort(), `${resource}${window} by cursor`);
      return count;
    };
    for (const [resource, ids] of posted) {
      assert.equal(await readAll(resource, ''), ids.length, resource);
      assert.equal(await readAll(resource, `&MinChangeVersion=${before + 1}&MaxChangeVersion=${after}`), ids.length, `${resource} in the window of the load`);
      assert.equal(await readAll(resource, `&MinChangeVersion=${after + 1}`), 0, `${resource} after the load`);
    }

    // A key change (an updatable class period renamed) and its keyChanges entry.
    const periodId = posted.get('/core/classPeriods')![0];
    const period = (await (await get(`${data}/core/classPeriods/${periodId}`, token)).json()) as Json;
    const { id: _id, _etag, _lastModifiedDate, ...periodBody } = period;
    const put = await fetch(`${data}/core/classPeriods/${periodId}`, { method: 'PUT', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ ...periodBody, classPeriodName: 'Renamed period' }) });
    assert.equal(put.status, 204, await put.text());
    const keyChanges = (await (await get(`${data}/core/classPeriods/keyChanges?MinChangeVersion=${after + 1}`, token)).json()) as { id: string; oldKeyValues: Json; newKeyValues: Json }[];
    assert.deepEqual(keyChanges.map((k) => [k.id, k.oldKeyValues.classPeriodName, k.newKeyValues.classPeriodName]), [[periodId, period.classPeriodName, 'Renamed period']]);

    // Everything deleted in reverse dependency order; each delete in its feed; nothing left.
    const beforeDeletes = await versions();
    for (const { resource } of [...dependencies].reverse()) {
      for (const id of [...posted.get(resource)!].reverse()) {
        const res = await fetch(`${data}${resource}/${id}`, { method: 'DELETE', headers: { Authorization: `Bearer ${token}` } });
        assert.equal(res.status, 204, `DELETE ${resource}/${id}: ${await res.text()}`);
      }
    }
    for (const [resource, ids] of posted) {
      const deletes = (await (await get(`${data}${resource}/deletes?MinChangeVersion=${beforeDeletes + 1}`, token)).json()) as { id: string }[];
      assert.deepEqual(deletes.map((d) => d.id).sort(), [...ids].sort(), `${resource}/deletes`);
      assert.equal((await get(`${data}${resource}?limit=0&totalCount=true`, token)).headers.get('total-count'), '0', `${resource} is empty`);
    }
  } finally {
    await source.close();
    await ref.close();
  }
});
