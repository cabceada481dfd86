import type { HttpClient, HttpResponse } from '../_harness/http.js';
import { decodeJwt } from 'jose';
import { test, expect, target } from '../_harness/data.js';
import { capability, notApplicable } from '../_harness/capabilities.js';
import { fetchToken } from '../_harness/tokens.js';
import { credentials } from '../_harness/target.js';
import { expectProblem, type ProblemBody } from '../_harness/problem.js';
import { check, checkNotApplicable, exercised, rule } from '../_harness/rules.js';
import { soleEntry } from '../authentication/_support/causes.js';
import { allowWaiting, issuerSigned, leeway, obtainToken, presentingUntil, shortLivedClient, waitOut, waitUntilNearEnd } from '../authentication/_support/expiry.js';
import { descriptorBody, resourceOf } from '../_harness/builders.js';
import { unique } from '../_harness/fixtures.js';
import { notInStandard } from '../_harness/standard-applicability.js';

/** The seed's Limits table: page size, integer ranges, token lifetime, school years, lengths. */
const max = target.dataApi.pageSizeMaximum;
const LIFETIME = 'data.limits.token-lifetime';
const EXPIRED = 'data.authentication.expired-token-401';
const idsOf = async (res: { json: () => Promise<unknown> }) => ((await res.json()) as unknown[]).length;

/**
 * The seed's content of the refusal's message (Errors: "message says limit must be omitted or
 * between 0 and 500"): one message, the detail or an errors entry, names `limit`, 0 and the
 * maximum. Any words will do (decision 35); upstream's sentence is query-paging's SHOULD rule.
 */
function expectRangeNamed(problem: ProblemBody, maximum: number): void {
  const number = (n: number) => new RegExp(`(^|[^0-9.-])${n}([^0-9]|$)`);
  const messages = [problem.detail, ...(problem.errors ?? [])].filter((m): m is string => typeof m === 'string');
  const naming = messages.filter((m) => /limit/i.test(m) && number(0).test(m) && number(maximum).test(m));
  expect(naming, `no message names limit, 0 and ${maximum}: ${JSON.stringify(messages)}`).not.toHaveLength(0);
}

test.describe('page size', () => {
  test('accepts limit values from 0 to the maximum page size', rule('data.limits.limit-range-accepted'), async ({ api }) => {
    for (const limit of [0, 1, Math.floor(max / 2), max]) {
      const res = await api.get(`academicSubjectDescriptors?limit=${limit}`);
      expect(res.status(), `limit=${limit}`).toBe(200);
      expect(await idsOf(res)).toBeLessThanOrEqual(limit);
    }
  });

  test('accepts limit values from 0 to the maximum page size on the deletes and keyChanges feeds', rule('data.limits.limit-range-accepted'), async ({ api }) => {
    // The feeds take limit too (seed: Endpoints), and the seed's range holds for every limit.
    for (const feed of ['deletes', 'keyChanges']) {
      for (const limit of [0, 1, Math.floor(max / 2), max]) {
        const res = await api.get(`academicSubjectDescriptors/${feed}?limit=${limit}`);
        expect(res.status(), `${feed}?limit=${limit}: ${await res.text()}`).toBe(200);
        expect(await idsOf(res), `${feed}?limit=${limit}`).toBeLessThanOrEqual(limit);
      }
    }
  });

  test('refuses limit -1 with 400 parameter-validation-failed', rule('data.limits.limit-out-of-range-400'), async ({ api }) => {
    await expectProblem(await api.get('academicSubjectDescriptors?limit=-1'), 'bad-request:parameter-validation-failed');
  });

  test('refuses a limit one above the maximum page size with 400 parameter-validation-failed', rule('data.limits.limit-out-of-range-400'), async ({ api }) => {
    await expectProblem(await api.get(`academicSubjectDescriptors?limit=${max + 1}`), 'bad-request:parameter-validation-failed');
  });

  test('refuses limit -1 and a limit above the maximum page size on the deletes and keyChanges feeds with 400 parameter-validation-failed', rule('data.limits.limit-out-of-range-400'), async ({ api }) => {
    // The feeds take limit too (seed: Endpoints), and the seed's range holds for every limit.
    for (const feed of ['deletes', 'keyChanges']) {
      for (const limit of [-1, max + 1]) {
        await expectProblem(await api.get(`academicSubjectDescriptors/${feed}?limit=${limit}`), 'bad-request:parameter-validation-failed');
      }
    }
  });

  for (const limit of [-1, max + 1]) {
    test(`says in refusing limit ${limit === -1 ? '-1' : 'one above the maximum'} that limit must lie between 0 and the maximum page size`, rule('data.limits.limit-message-names-range'), async ({ api }) => {
      const problem = await expectProblem(await api.get(`academicSubjectDescriptors?limit=${limit}`), 'bad-request:parameter-validation-failed');
      expectRangeNamed(problem, max);
    });
  }

  test('refuses a limit above a maximum the host lowered with 400 parameter-validation-failed', rule('data.limits.host-lowered-maximum'), async ({ api, request }) => {
    const { maximum, get } = await loweredMaximum(api, request);
    for (const limit of aboveLowered(maximum)) await expectProblem(await get(limit), 'bad-request:parameter-validation-failed');
    expect((await get(maximum)).status(), `limit=${maximum} (the lowered maximum itself)`).toBe(200);
  });

  test('says in refusing a limit above a maximum the host lowered that limit must lie between 0 and the lowered maximum', rule('data.limits.limit-message-names-range'), async ({ api, request }) => {
    const { maximum, get } = await loweredMaximum(api, request);
    for (const limit of aboveLowered(maximum)) expectRangeNamed(await expectProblem(await get(limit), 'bad-request:parameter-validation-failed'), maximum);
  });

  // One more record than the lowered maximum, in a namespace of their own: a page without limit,
  // by offset or by page token, holds at most the maximum (the test's records alone are counted).
  test('returns at most a lowered maximum page size when limit is omitted, by offset and by page token', rule('data.query-paging.default-page-size'), async ({ api, request }) => {
    const lowered = await loweredApi(api, request);
    const namespace = `${target.testData.namespacePrefix}/${unique('lp')}`;
    const query = `namespace=${encodeURIComponent(namespace)}`;
    const made: string[] = [];
    try {
      for (let i = 0; i <= lowered.maximum; i++) {
        const res = await lowered.post('academicSubjectDescriptors', descriptorBody('academicSubject', { namespace }));
        expect(res.status(), await res.text()).toBe(201);
        made.push(res.headers().location);
      }
      const page = await lowered.get(`academicSubjectDescriptors?${query}`);
      expect(page.status()).toBe(200);
      expect(await idsOf(page), 'by offset').toBe(lowered.maximum);
      if (!target.capabilities?.cursorPaging) return;
      const tokens = ((await (await lowered.get(`academicSubjectDescriptors/partitions?${query}&number=1`)).json()) as { pageTokens: string[] }).pageTokens;
      expect(tokens).toHaveLength(1);
      const byToken = await lowered.get(`academicSubjectDescriptors?${query}&pageToken=${encodeURIComponent(tokens[0])}`);
      expect(byToken.status(), await byToken.text()).toBe(200);
      expect(await idsOf(byToken), 'by page token, without pageSize').toBeLessThanOrEqual(lowered.maximum);
    } finally {
      for (const url of made.reverse()) await lowered.delete(url);
    }
  });
});

/** Limits above a lowered maximum: one above it, and the default maximum 500. */
const aboveLowered = (maximum: number) => [...new Set([maximum + 1, 500])];

type LoweredTarget = { get: (path: string) => Promise<HttpResponse>; post: (path: string, body: Record<string, unknown>) => Promise<HttpResponse>; delete: (path: string) => Promise<HttpResponse> };

/** Limits of the collection read where the maximum is lowered (loweredApi). */
async function loweredMaximum(api: LoweredTarget, request: HttpClient): Promise<{ maximum: number; get: (limit: number) => Promise<HttpResponse> }> {
  const lowered = await loweredApi(api, request);
  return { maximum: lowered.maximum, get: (limit: number) => lowered.get(`academicSubjectDescriptors?limit=${limit}`) };
}

/**
 * Where the maximum is lowered: the target itself, if its maximum is below 500; else its second
 * deployment (capability loweredPageSize), with a token fetched for it. Reads, writes and deletes
 * by path or by URL.
 */
async function loweredApi(api: LoweredTarget, request: HttpClient): Promise<LoweredTarget & { maximum: number }> {
  if (max < 500) return { maximum: max, get: api.get.bind(api), post: api.post.bind(api), delete: api.delete.bind(api) };
  const lowered = capability('loweredPageSize');
  const token = await fetchToken(request, { ...target, dataApi: { ...target.dataApi, baseUrl: lowered.baseUrl } }, credentials(target.clients.primary)!);
  const headers = { Authorization: `Bearer ${token}` };
  const url = (path: string) => (/^https?:/.test(path) ? path : `${lowered.baseUrl}/data/v3/${target.dataApi.namespaceSegment}/${path}`);
  return {
    maximum: lowered.pageSizeMaximum,
    get: (path: string) => request.get(url(path), { headers }),
    post: (path: string, body: Record<string, unknown>) => request.post(url(path), { headers: { ...headers, 'Content-Type': 'application/json' }, data: body }),
    delete: (path: string) => request.delete(url(path), { headers }),
  };
}

test.describe('integer and string ranges', () => {
  test('accepts the int32 maximum 2147483647 in an int32 field and returns it unchanged', rule('data.limits.int32-maximum-accepted'), async ({ api, data }) => {
    const created = await data.create('academicWeek', { totalInstructionalDays: 2147483647 });
    expect((await (await api.get(created.url)).json()).totalInstructionalDays).toBe(2147483647);
  });

  test('refuses an int64 value above 9223372036854775807 with 400 at the field path', rule('data.limits.int64-maximum-400'), async ({ api, data }) => {
    // School's id is int64 from 5.2; 4.0 has no int64 member at all (refusing the value in an
    // int32 member would be about another rule).
    if (resourceOf('school').fields.schoolId?.kind !== 'int64') notInStandard('int64 member (school\'s schoolId is int32)');
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
  // A token used before and after its lifetime (decision 39: the lifetime rule passes only when
  // both really happened). Its refusal afterwards is the expired-token rule's, checked as such.
  test('accepts a token the issuer signed with a four-second lifetime until that has elapsed, then refuses it', rule(LIFETIME, EXPIRED), async ({ anon }) => {
    const now = Math.floor(Date.now() / 1000);
    const token = await issuerSigned({ iat: now, exp: now + 4 }, 'RS256', 'sign a token with a four-second lifetime');
    allowWaiting(4 + leeway() + 5);
    const bearer = { Authorization: `Bearer ${token}` };
    const within = await anon.get('academicSubjectDescriptors?limit=1', bearer);
    // A refusal counts only when it surely came within the lifetime (a loaded machine may take long).
    const surelyWithin = Date.now() < (now + 3) * 1000;
    if (within.status() === 200) exercised(LIFETIME, 'a token the issuer\'s key signed for four seconds was accepted within them and refused after');
    else if (surelyWithin) expect(within.status(), 'within its lifetime').toBe(200);
    else checkNotApplicable(LIFETIME, 'accepted within its lifetime', 'the first request took too long to tell');
    // Presented all along, so the request after its lifetime goes over the connection that carried it (waitOut).
    await presentingUntil((now + 4 + leeway()) * 1000 + 1500, () => anon.get('academicSubjectDescriptors?limit=1', bearer));
    await check(EXPIRED, 'refused with 401 and one errors entry once its lifetime has elapsed', async () => soleEntry(await anon.get('academicSubjectDescriptors?limit=1', bearer), 'the expired token'));
    exercised(EXPIRED, 'a token the issuer\'s key signed for four seconds was presented after them and refused');
  });

  test('accepts a short-lived client\'s token until its lifetime has elapsed, then refuses it', rule(LIFETIME, EXPIRED), async ({ request }) => {
    const client = shortLivedClient();
    const anon = client.anon(request);
    allowWaiting(client.lifetime + leeway() + 5);
    const issued = await obtainToken(request, client);
    const bearer = { Authorization: `Bearer ${issued.token}` };
    expect((await anon.get('academicSubjectDescriptors?limit=1', bearer)).status(), 'at once').toBe(200);
    // Late in its life too: a deployment that cuts lifetimes short refuses it here.
    if (await waitUntilNearEnd(issued, client.lifetime)) {
      const late = await anon.get('academicSubjectDescriptors?limit=1', bearer);
      // Only a refusal that surely came within the lifetime counts: on a loaded machine the
      // request may take so long that the token is no longer surely valid when it is checked.
      const surelyWithin = Date.now() < issued.sentAt + (client.lifetime - 1) * 1000;
      if (late.status() === 200 || surelyWithin) expect(late.status(), 'shortly before its lifetime ends').toBe(200);
    }
    await waitOut(issued, client.lifetime, () => anon.get('academicSubjectDescriptors?limit=1', bearer));
    await check(EXPIRED, 'refused with 401 and one errors entry once its lifetime has elapsed', async () => soleEntry(await anon.get('academicSubjectDescriptors?limit=1', bearer), 'the expired token'));
    exercised(LIFETIME, `a short-lived client's token (${client.lifetime} s) was accepted within its lifetime and refused after`);
    exercised(EXPIRED, `a short-lived client's token (${client.lifetime} s) was presented after its lifetime and refused`);
  });

  test('issues tokens whose expiry lies expires_in seconds after their issue', rule(LIFETIME), async ({ request }) => {
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
