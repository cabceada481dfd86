import { test, expect, target } from '../_harness/fixtures.js';
import { exercised, rule } from '../_harness/rules.js';
import { credentials } from '../_harness/target.js';
import { BLANK, MISSING, UNKNOWN_SCHEME, expectOwnEntry, routes, RESOURCE as resource } from './_support/causes.js';
import { allowWaiting, issuerSigned, issuerSignedExpired, leeway, obtainToken, shortLivedClient, waitOut } from './_support/expiry.js';

/**
 * A token past its lifetime (seed: "After expiry a new token must be obtained"; Errors: 401 with
 * an `errors` entry for an expired or invalid token). Decision 39: the rule passes only after an
 * expired token was really presented and refused, signed by the declared issuer key or obtained
 * from the declared short-lived client and waited out; otherwise it is not applicable. The entry
 * must differ from those of the three other causes; an expired and an invalid token may share one
 * (the seed names them as one cause).
 */
const EXPIRED = 'data.authentication.expired-token-401';
const OTHER_CAUSES = [MISSING, UNKNOWN_SCHEME, BLANK];

test.describe('a token whose lifetime has elapsed', () => {
  test('is refused with 401 and one errors entry of its own on every route when the issuer signed it with an expiry in the past, and a newly obtained token is then accepted', rule(EXPIRED), async ({ anon, request }) => {
    const expired = await issuerSignedExpired();
    // The control: the same claims signed by the same key with a lifetime still running are
    // accepted, so a refusal below is the expiry's.
    expect((await anon.get(`${resource}?limit=1`, { Authorization: `Bearer ${await issuerSigned({})}` })).status(), 'the same claims, not expired').toBe(200);
    for (const route of routes(anon)) await expectOwnEntry(route, { Authorization: `Bearer ${expired}` }, 'an expired token', OTHER_CAUSES);
    exercised(EXPIRED, 'a token the issuer\'s key signed with an expiry ten minutes past was presented on every route and refused');
    const fresh = await obtainToken(request, credentials(target.clients.primary)!);
    expect((await anon.get(`${resource}?limit=1`, { Authorization: `Bearer ${fresh.token}` })).status(), 'a newly obtained token').toBe(200);
  });

  test('is refused with 401 and one errors entry of its own on every route once a short-lived client\'s token is waited out, and the client\'s new token is then accepted', rule(EXPIRED), async ({ request }) => {
    const client = shortLivedClient();
    // Its own deployment: the target's, or the second one the target names for it.
    const anon = client.anon(request);
    allowWaiting(client.lifetime + leeway() + 5);
    const issued = await obtainToken(request, client);
    const bearer = { Authorization: `Bearer ${issued.token}` };
    // The control: the same token before its lifetime ends is accepted, so the refusal is the expiry's.
    expect((await anon.get(`${resource}?limit=1`, bearer)).status(), 'the token within its lifetime').toBe(200);
    // Presented all along, so the first request after the wait goes over the connection that
    // carried the token while it was valid (waitOut).
    await waitOut(issued, client.lifetime, () => anon.get(`${resource}?limit=1`, bearer));
    for (const route of routes(anon)) await expectOwnEntry(route, bearer, 'an expired token', OTHER_CAUSES);
    exercised(EXPIRED, `a short-lived client's token (${client.lifetime} s) was presented about once a second until its lifetime had elapsed, then on every route, and refused`);
    const fresh = await obtainToken(request, client);
    expect((await anon.get(`${resource}?limit=1`, { Authorization: `Bearer ${fresh.token}` })).status(), 'the client\'s new token').toBe(200);
  });
});
