import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startForTest } from './helpers.js';

/**
 * Under a non-empty scope base (OneRoster's), the token endpoint issues and accepts exactly
 * `{scope_base}/<name>` and the rostering service grants nothing else (decisions #30): a scope
 * that merely ends like one, or a bare name, is refused with 401 and the stdx_ body.
 */
const BASE = 'https://purl.imsglobal.org/spec/or/v1p2/scope';

test('scopes under a non-empty scope base: exact {scope_base}/<name> only, at the token endpoint and the rostering service', async () => {
  const ref = await startForTest({
    naming: { rosteringScopeBase: `${BASE}/` },
    clients: [{ key: 'test', secret: 'test-secret', educationOrganizationIds: [255900], rosterScopes: ['roster-core.readonly'], odsInstances: [{ id: 1 }] }],
  });
  try {
    const token = async (scope?: string) => fetch(`${ref.dataApiBaseUrl}/oauth/token`, {
      method: 'POST',
      headers: { Authorization: `Basic ${Buffer.from('test:test-secret').toString('base64')}`, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: `grant_type=client_credentials${scope === undefined ? '' : `&scope=${encodeURIComponent(scope)}`}`,
    });
    const issued = (await (await token()).json()) as { access_token: string };
    const claims = JSON.parse(Buffer.from(issued.access_token.split('.')[1], 'base64url').toString()) as { scope: string };
    assert.equal(claims.scope, `${BASE}/roster-core.readonly`, 'issued with the base');
    assert.equal((await token(`${BASE}/roster-core.readonly`)).status, 200);
    for (const lookAlike of ['roster-core.readonly', 'https://anything.example/other/roster-core.readonly', `${BASE}/roster-core.readonly/`, `${BASE}x/roster-core.readonly`]) {
      const res = await token(lookAlike);
      assert.equal(res.status, 400, lookAlike);
      assert.deepEqual(((await res.json()) as { error: string }).error, 'invalid_scope', lookAlike);
    }

    const read = (bearer: string) => fetch(`${ref.rosteringBaseUrl}/std/roster/rostering/v1p2/orgs`, { headers: { Authorization: `Bearer ${bearer}` } });
    assert.equal((await read(issued.access_token)).status, 200, 'the issued token reads');
    const crafted = (scope: string) => ref.issuer.sign({ client_id: 'test', scope, educationOrganizationId: '255900', odsInstances: JSON.stringify({ OdsInstances: [{ OdsInstanceId: 1, OdsInstanceContext: null }] }) }, 600);
    assert.equal((await read(await crafted(`${BASE}/roster-core.readonly`))).status, 200, 'an exact scope reads');
    for (const lookAlike of ['https://anything.example/other/roster-core.readonly', 'roster-core.readonly', `${BASE}//roster-core.readonly`, `${BASE.toUpperCase()}/roster-core.readonly`]) {
      const res = await read(await crafted(lookAlike));
      assert.equal(res.status, 401, lookAlike);
      assert.equal(((await res.json()) as { stdx_codeMajor?: string }).stdx_codeMajor, 'failure', lookAlike);
    }
  } finally {
    await ref.close();
  }
});
