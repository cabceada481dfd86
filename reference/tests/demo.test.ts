import assert from 'node:assert/strict';
import { test } from 'node:test';
import { model } from '../../spec/model/index.js';
import { startForTest } from './helpers.js';

test('the demo data set gives every resource records that the API itself accepts', async () => {
  const ref = await startForTest({ demoData: true });
  try {
    const empty = model.resources.filter((r) => !ref.store.collection(r.name).byId.size).map((r) => r.name);
    assert.deepEqual(empty, []);
    const refused: string[] = [];
    for (const r of model.resources) {
      for (const rec of ref.store.collection(r.name).byId.values()) {
        const body = { ...rec.doc };
        if (r.isDescriptor) delete body[`${r.name}Id`];
        const res = await ref.data(r.endpoint, { method: 'POST', body: JSON.stringify(body) });
        if (res.status !== 200) refused.push(`${r.name} ${res.status} ${await res.text()}`);
      }
    }
    assert.deepEqual(refused, [], 'a demo record re-posted unchanged must be an update (200)');
  } finally {
    await ref.close();
  }
});
