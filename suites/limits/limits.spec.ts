import { SignJWT, decodeJwt, importPKCS8 } from 'jose';
import { test, expect, target } from '../_harness/data.js';
import { capability, issuerPrivateKeyPem, notApplicable } from '../_harness/capabilities.js';
import { fetchToken, sharedTokens } from '../_harness/tokens.js';
import { credentials } from '../_harness/target.js';
import { expectProblem } from '../_harness/problem.js';
import { rule } from '../_harness/rules.js';

/** The seed's Limits table: page size, integer ranges, token lifetime, school years, lengths. */
const max = target.dataApi.pageSizeMaximum;
const idsOf = async (res: { json: () => Promise<unknown> }) => ((await res.json()) as unknown[]).length;

test.describe('page size', () => {
  test('accepts limit values from 0 to the maximum page size', rule('data.limits.limit-range-accepted'), async ({ api }) => {
    for (const limit of [0, 1, Math.floor(max / 2), max]) {
      const res = await api.get(`academicSubjectDescriptors?limit=${limit}`);
      expect(res.status(), `limit=${limit}`).toBe(200);
      expect(await idsOf(res)).toBeLessThanOrEqual(limit);
    }
  });

  test('refuses limit -1 with 400 parameter-validation-failed', rule('data.limits.limit-out-of-range-400'), async ({ api }) => {
    await expectProblem(await api.get('academicSubjectDescriptors?limit=-1'), 'bad-request:parameter-validation-failed');
  });

  test('refuses a limit one above the maximum page size with 400 parameter-validation-failed', rule('data.limits.limit-out-of-range-400'), async ({ api }) => {
    await expectProblem(await api.get(`academicSubjectDescriptors?limit=${max + 1}`), 'bad-request:parameter-validation-failed');
  });

  test('refuses a limit above a maximum the host lowered with 400 parameter-validation-failed', rule('data.limits.host-lowered-maximum'), async ({ api, request }) => {
    if (max < 500) {
      await expectProblem(await api.get(`academicSubjectDescriptors?limit=${max + 1}`), 'bad-request:parameter-validation-failed');
      expect((await api.get(`academicSubjectDescriptors?limit=${max}`)).status()).toBe(200);
      return;
    }
    // The target keeps the default: the rule is checked on its second, lowered deployment.
    const lowered = capability('loweredPageSize');
    const creds = credentials(target.clients.primary)!;
    // One token for this deployment, fetched once: the only test that talks to it.
    const token = await fetchToken(request, { ...target, dataApi: { ...target.dataApi, baseUrl: lowered.baseUrl } }, creds);
    const get = (limit: number) => request.get(`${lowered.baseUrl}/data/v3/${target.dataApi.namespaceSegment}/academicSubjectDescriptors?limit=${limit}`, { headers: { Authorization: `Bearer ${token}` } });
    for (const limit of [lowered.pageSizeMaximum + 1, 500]) {
      await expectProblem(await get(limit), 'bad-request:parameter-validation-failed');
    }
    expect((await get(lowered.pageSizeMaximum)).status(), `limit=${lowered.pageSizeMaximum} (the lowered maximum itself)`).toBe(200);
  });
});

test.describe('integer and string ranges', () => {
  test('accepts the int32 maximum 2147483647 in an int32 field and returns it unchanged', rule('data.limits.int32-maximum-accepted'), async ({ api, data }) => {
    const created = await data.create('academicWeek', { totalInstructionalDays: 2147483647 });
    expect((await (await api.get(created.url)).json()).totalInstructionalDays).toBe(2147483647);
  });

  test('refuses an int64 value above 9223372036854775807 with 400 at the field path', rule('data.limits.int64-maximum-400'), async ({ api, data }) => {
    const body = await data.body('school', { schoolId: 1 });
    const text = JSON.stringify(body).replace(/"schoolId":1\b/, '"schoolId":9223372036854775808');
    expect(text).toContain('9223372036854775808');
    const problem = await expectProblem(await api.request.post(api.url('schools'), { headers: api.headers({ 'Content-Type': 'application/json' }), data: Buffer.from(text) }), 'bad-request:data-validation-failed');
    expect(Object.keys(problem.validationErrors ?? {})).toContain('$.schoolId');
  });

  test('accepts a string of exactly its maximum length and returns it unchanged', rule('data.limits.string-maximum-length-accepted'), async ({ api, data }) => {
    const weekIdentifier = `${Date.now().toString(36)}${'w'.repeat(80)}`.slice(0, 80);
    const created = await data.create('academicWeek', { weekIdentifier });
    expect((await (await api.get(created.url)).json()).weekIdentifier).toBe(weekIdentifier);
  });
});

test.describe('school years', () => {
  for (const year of [1991, 2050]) {
    test(`accepts the school year ${year}`, rule('data.limits.school-year-range'), async ({ api, data }) => {
      const existing = ((await (await api.get(`schoolYearTypes?schoolYear=${year}`)).json()) as unknown[]).length > 0;
      if (!existing) {
        const res = await api.post('schoolYearTypes', { schoolYear: year, currentSchoolYear: false, schoolYearDescription: `${year - 1}-${year}` });
        expect(res.status(), await res.text()).toBe(201);
        api.track(res.headers().location);
        return;
      }
      // The target already holds the year, and a run never writes what it did not create, not even
      // unchanged (decisions #32): a record of this run names the year in its key instead.
      const created = await data.create('calendar', { schoolYearTypeReference: { schoolYear: year } });
      expect(((await (await api.get(created.url)).json()) as { schoolYearTypeReference: { schoolYear: number } }).schoolYearTypeReference.schoolYear).toBe(year);
    });
  }

  for (const year of [1990, 2051]) {
    test(`refuses the school year ${year} outside the default range and stores nothing`, rule('data.limits.school-year-range'), async ({ api }) => {
      const res = await api.post('schoolYearTypes', { schoolYear: year, currentSchoolYear: false, schoolYearDescription: `${year - 1}-${year}` });
      if (res.status() === 201) api.track(res.headers().location);
      expect(res.status()).toBeGreaterThanOrEqual(400);
      expect(res.status()).toBeLessThan(500);
      expect(await (await api.get(`schoolYearTypes?schoolYear=${year}`)).json()).toEqual([]);
    });
  }
});

test.describe('token lifetime', () => {
  test('accepts a token until its lifetime has elapsed, then refuses it', rule('data.limits.token-lifetime', 'data.authentication.expired-token-401'), async ({ anon }) => {
    const pem = issuerPrivateKeyPem();
    const claims = decodeJwt(sharedTokens().primary);
    const now = Math.floor(Date.now() / 1000);
    const token = await new SignJWT({ ...claims, iat: now, exp: now + 2 }).setProtectedHeader({ alg: 'RS256', typ: 'JWT' }).sign(await importPKCS8(pem, 'RS256'));
    expect((await anon.get('academicSubjectDescriptors?limit=1', { Authorization: `Bearer ${token}` })).status()).toBe(200);
    await new Promise((r) => setTimeout(r, 3500));
    await expectProblem(await anon.get('academicSubjectDescriptors?limit=1', { Authorization: `Bearer ${token}` }), 'security:authentication');
  });

  test('issues tokens whose expiry lies expires_in seconds after their issue', rule('data.limits.token-lifetime'), async ({ request }) => {
    const creds = credentials(target.clients.primary)!;
    const res = await request.post(`${target.dataApi.baseUrl}/oauth/token`, {
      headers: { Authorization: `Basic ${Buffer.from(`${creds.key}:${creds.secret}`).toString('base64')}`, 'Content-Type': 'application/x-www-form-urlencoded' },
      data: 'grant_type=client_credentials',
    });
    expect(res.status()).toBe(200);
    const body = (await res.json()) as { access_token: string; expires_in: number };
    let claims: { iat?: number; exp?: number };
    try {
      claims = decodeJwt(body.access_token);
    } catch {
      notApplicable('the access token is not a JWT, so its expiry is not visible to the suite');
    }
    expect(claims.exp! - claims.iat!).toBe(body.expires_in);
  });
});
