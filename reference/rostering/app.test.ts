import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startReference } from '../server.js';

/**
 * The rostering service's failure throttle (issue 23 point 7): the token is checked before the
 * address is counted, so a caller with a valid token is never held back by the failures others
 * sent from its address; bad tokens beyond the limit get 429. On a clock the test steps.
 */
test('a valid token passes whatever failures its address sent; bad ones beyond the limit get 429 until the address refills', async () => {
  let now = 1_000_000;
  const ref = await startReference({
    overrides: { port: 0, rosteringPort: 0, warmValidators: false, throttle: { rosteringFailuresPerAddress: { requestsPerSecond: 0.01, burst: 3 } }, clients: [{ key: 'r', secret: 'r-secret', rosterScopes: ['roster-core.readonly'] }] },
    clock: () => now,
  });
  try {
    const res = await fetch(`${ref.dataApiBaseUrl}/oauth/token`, { method: 'POST', headers: { Authorization: `Basic ${Buffer.from('r:r-secret').toString('base64')}`, 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'grant_type=client_credentials' });
    const token = ((await res.json()) as { access_token: string }).access_token;
    const orgs = (authorization: string) => fetch(`${ref.rosteringBaseUrl}/std/roster/rostering/v1p2/orgs`, { headers: { Authorization: authorization } });
    const bad = [];
    for (let i = 0; i < 300; i++) bad.push((await orgs(`Bearer not-a-token-${i}`)).status);
    assert.deepEqual(bad.slice(0, 3), [401, 401, 401]);
    assert.ok(bad.slice(3).every((s) => s === 429), 'beyond the limit, 429');
    const limited = await orgs('Bearer x');
    // Failures beyond the limit are counted too (each still cost a signature check), down to a
    // debt of one more burst: four failures' worth at 0.01/s.
    assert.equal(limited.headers.get('retry-after'), '400');
    assert.equal(((await limited.json()) as { stdx_codeMajor: string }).stdx_codeMajor, 'failure');
    assert.equal((await orgs(`Bearer ${token}`)).status, 200, 'a valid token from the same address, after 300 bad ones');
    now += 400_000;
    assert.equal((await orgs('Bearer x')).status, 401, 'a refilled address gets its 401 again');
  } finally {
    await ref.close();
  }
});
