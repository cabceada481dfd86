import assert from 'node:assert/strict';
import { test } from 'node:test';
import { UnsecuredJWT } from 'jose';
import { claimMismatches } from '../setup.js';

/** A token with these claims (unsigned: only its claims are read). */
const token = (claims: Record<string, unknown>) => new UnsecuredJWT(claims).encode();
const declared = { key: 'k', secret: 's', educationOrganizationIds: [2, 1], scopes: ['roster-core.readonly', 'roster-demographics.readonly'] as const, tenant: 'T', odsInstances: [{ id: 1, context: { key: 'y', value: '2026' } }] };
const instances = JSON.stringify({ OdsInstances: [{ OdsInstanceId: 1, OdsInstanceContext: { ContextKey: 'y', ContextValue: '2026' } }] });

test('a rostering client\'s issued claims are compared with its declaration, in the reference\'s and upstream\'s forms', () => {
  const client = { ...declared, scopes: [...declared.scopes] };
  // The reference's forms (comma list, space-separated scopes) and upstream's (arrays) fit alike.
  assert.deepEqual(claimMismatches('c', client, token({ educationOrganizationId: '1,2', scope: 'roster-core.readonly roster-demographics.readonly', tenantId: 'T', odsInstances: instances })), []);
  assert.deepEqual(claimMismatches('c', client, token({ educationOrganizationId: ['2', '1'], scope: ['roster-demographics.readonly', 'roster-core.readonly', 'openid'], tenantId: 'T', odsInstances: instances })), []);
  const wrong: [Record<string, unknown>, RegExp][] = [
    [{ educationOrganizationId: '1' }, /educationOrganizationId/],
    [{ scope: 'roster-core.readonly roster.readonly' }, /scopes/],
    [{ tenantId: 't' }, /tenantId/],
    [{ tenantId: undefined }, /tenantId/],
    [{ odsInstances: JSON.stringify({ OdsInstances: [{ OdsInstanceId: 1, OdsInstanceContext: null }] }) }, /odsInstances/],
  ];
  for (const [over, why] of wrong) {
    const claims = { educationOrganizationId: '1,2', scope: 'roster-core.readonly roster-demographics.readonly', tenantId: 'T', odsInstances: instances, ...over };
    const problems = claimMismatches('c', client, token(claims));
    assert.equal(problems.length, 1, JSON.stringify(over));
    assert.match(problems[0], why);
    assert.match(problems[0], /^client 'c': /);
  }
  assert.match(claimMismatches('c', client, 'not-a-jwt')[0], /no JWT/);
});
