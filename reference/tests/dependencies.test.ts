import assert from 'node:assert/strict';
import { test } from 'node:test';
import { model } from '../../spec/model/index.js';
import { startForTest } from './helpers.js';

/**
 * The dependency order the reference publishes is one a loader can write in: the whole demo
 * data set, posted into an empty reference endpoint by endpoint in that order, is created
 * without a single unresolved reference (or any other refusal).
 */
test('posting the demo data set in the published dependency order meets no unresolved reference', async () => {
  const source = await startForTest({ demoData: true });
  const target = await startForTest();
  try {
    const res = await fetch(`${source.dataApiBaseUrl}/metadata/data/v3/dependencies`);
    const order = (await res.json()) as { resource: string; order: number }[];
    assert.equal(order.length, model.resources.length);
    const refused: string[] = [];
    let posted = 0;
    for (const { resource } of order) {
      const r = model.byEndpoint.get(resource.split('/').pop()!.toLowerCase())!;
      for (const rec of source.store.collection(r.name).byId.values()) {
        const body = { ...rec.doc };
        if (r.isDescriptor) delete body[`${r.name}Id`];
        const post = await target.data(r.endpoint, { method: 'POST', body: JSON.stringify(body) });
        posted++;
        if (post.status !== 201) refused.push(`${r.endpoint} ${post.status} ${(await post.text()).slice(0, 200)}`);
      }
    }
    assert.ok(posted > 500, `${posted} records posted`);
    assert.deepEqual(refused, []);
  } finally {
    await source.close();
    await target.close();
  }
});
