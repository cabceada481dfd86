import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startForTest } from './helpers.js';

/**
 * The demo data set follows the standard served (issue #22 point 2): every resource of its model
 * has records and answers a read, and the API itself takes each record back unchanged (an
 * update, 200). The standards run one after another in this process, as a test process may
 * start them: nothing of one may linger into the next. (Unset is 4.0: data-standards.test.ts.)
 */
for (const standard of ['4.0', '5.2', '6.1'] as const) {
  test(`dataStandard ${standard}: every endpoint answers, and the demo data set gives every resource records that the API itself accepts`, async () => {
    const ref = await startForTest({ dataStandard: standard, demoData: true });
    try {
      const model = ref.served.model;
      assert.deepEqual(model.resources.filter((r) => !ref.store.collection(r.name).byId.size).map((r) => r.name), []);
      // Every endpoint of the standard answers a read.
      const unanswered: string[] = [];
      for (const r of model.resources) {
        const res = await ref.data(`${r.endpoint}?limit=1`);
        if (res.status !== 200) unanswered.push(`${r.endpoint} ${res.status}`);
        await res.arrayBuffer();
      }
      assert.deepEqual(unanswered, []);
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
}
