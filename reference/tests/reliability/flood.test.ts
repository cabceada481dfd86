import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startReference } from '../../server.js';

/**
 * A flood of wrong secrets at the token endpoint does not stall the server (issue 15 point 1),
 * asserted as behaviour rather than speed (issue 23 point 11): failed checks beyond the limits are
 * refused with 429 before any hash (exactly the limit's worth of hashes are made, however many
 * requests are in flight together), requests of other kinds are answered while the flood runs,
 * and the client that holds the key is not locked out. That a hash does not block the event loop
 * is secrets.test.ts's. The clock stands still, so no refill depends on the machine's speed.
 */
const FLOOD = 400;
const CONCURRENCY = 40;

test('a wrong-secret flood at concurrency 40 costs exactly the limit\'s hashes; the rest get 429, other requests are answered meanwhile, the key\'s client is not locked out', async () => {
  const ref = await startReference({
    overrides: { port: 0, rosteringPort: 0, warmValidators: false, clients: [{ key: 'flood-target', secret: 'the-right-secret' }], throttle: { tokenFailuresPerKey: { requestsPerSecond: 1, burst: 20 }, tokenFailuresPerAddress: { requestsPerSecond: 5, burst: 50 } } },
    clock: () => 1_000_000,
  });
  try {
    const base = ref.dataApiBaseUrl;
    const token = (secret: string) => fetch(`${base}/oauth/token`, { method: 'POST', headers: { Authorization: `Basic ${Buffer.from(`flood-target:${secret}`).toString('base64')}`, 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'grant_type=client_credentials' });
    assert.equal((await token('the-right-secret')).status, 200, 'the client proves its secret');

    const statuses = new Map<number, number>();
    let retryAfterMissing = 0;
    let sent = 0;
    let flooding = true;
    const flooder = async () => {
      while (sent < FLOOD) {
        sent++;
        const res = await token(`wrong-${sent}`);
        const body = (await res.json()) as { error?: string };
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        if (res.status === 429) {
          assert.equal(body.error, 'temporarily_unavailable');
          if (!res.headers.get('retry-after')) retryAfterMissing++;
        }
      }
    };
    // Discovery reads while the flood is in flight: each is answered (no count of how fast).
    let answeredDuring = 0;
    const reading = (async () => {
      while (flooding) {
        const res = await fetch(`${base}/`);
        await res.arrayBuffer();
        assert.equal(res.status, 200);
        answeredDuring++;
      }
    })();
    await Promise.all(Array.from({ length: CONCURRENCY }, flooder));
    flooding = false;
    await reading;

    assert.deepEqual(Object.fromEntries(statuses), { 401: 20, 429: FLOOD - 20 }, 'the key\'s burst of 20 is checked (hashed), every other attempt refused before hashing');
    assert.equal(retryAfterMissing, 0, 'every 429 carries Retry-After');
    assert.ok(answeredDuring >= 1, 'requests of other kinds were answered while the flood ran');
    assert.equal((await token('the-right-secret')).status, 200, 'the client that holds the key, right after the flood');
  } finally {
    await ref.close();
  }
});
