import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startForTest } from './helpers.js';

/**
 * 1,250 records of one resource come back exactly once each, by cursor (pageSize 500) and by
 * limit/offset, also while another client writes: it updates records already paged and
 * records still ahead, and creates records beside them (another namespace), between pages.
 */
test('cursor and limit/offset paging return exactly 1,250 distinct ids, also under concurrent writes', async () => {
  const ref = await startForTest();
  try {
    const resource = 'academicSubjectDescriptors';
    const ns = 'uri://paging.test/AcademicSubjectDescriptor';
    const ids: string[] = [];
    for (let i = 0; i < 1250; i++) {
      const res = await ref.data(resource, { method: 'POST', body: JSON.stringify({ codeValue: `p${i}`, namespace: ns, shortDescription: 'paged' }) });
      assert.equal(res.status, 201);
      ids.push(res.headers.get('location')!.split('/').pop()!);
    }
    const query = `namespace=${encodeURIComponent(ns)}`;
    let writes = 0;
    const write = async () => {
      writes++;
      for (const id of [ids[(writes * 97) % 1250], ids[1249 - ((writes * 31) % 1250)]]) {
        const put = await ref.data(`${resource}/${id}`, { method: 'PUT', body: JSON.stringify({ codeValue: `p${ids.indexOf(id)}`, namespace: ns, shortDescription: `changed ${writes}` }) });
        assert.equal(put.status, 204);
      }
      const post = await ref.data(resource, { method: 'POST', body: JSON.stringify({ codeValue: `w${writes}`, namespace: `${ns}-other`, shortDescription: 'beside' }) });
      assert.equal(post.status, 201);
    };
    const pageIds = async (res: Response) => { assert.equal(res.status, 200); return ((await res.json()) as { id: string }[]).map((r) => r.id); };

    for (const concurrent of [false, true]) {
      // Cursor: one partition, pages of 500 until an empty page.
      const { pageTokens } = (await (await ref.data(`${resource}/partitions?${query}&number=1`)).json()) as { pageTokens: string[] };
      const byCursor: string[] = [];
      for (let token: string | null = pageTokens[0]; token; ) {
        const res = await ref.data(`${resource}?${query}&pageSize=500&pageToken=${encodeURIComponent(token)}`);
        const page = await pageIds(res);
        if (!page.length) break;
        byCursor.push(...page);
        token = res.headers.get('next-page-token');
        if (concurrent) await write();
      }
      // Limit/offset: pages of 500 until an empty page.
      const byOffset: string[] = [];
      for (let offset = 0; ; offset += 500) {
        const page = await pageIds(await ref.data(`${resource}?${query}&limit=500&offset=${offset}`));
        if (!page.length) break;
        byOffset.push(...page);
        if (concurrent) await write();
      }
      for (const [how, seen] of [['cursor', byCursor], ['limit/offset', byOffset]] as const) {
        assert.equal(seen.length, 1250, `${how}${concurrent ? ' under writes' : ''}: ${seen.length} ids`);
        assert.equal(new Set(seen).size, 1250, `${how}: distinct`);
        assert.deepEqual([...seen].sort(), [...ids].sort(), how);
      }
    }
    assert.ok(writes >= 6, `${writes} rounds of writes`);
  } finally {
    await ref.close();
  }
});
