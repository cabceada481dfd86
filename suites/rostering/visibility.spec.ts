import { decodeJwt } from 'jose';
import { check, rule } from '../_harness/rules.js';
import { ENDPOINTS } from './_support/schema.js';
import { expectWithheld, heldMark, holdsNoRecord, identity, parseJson, readCollection } from './_support/read.js';
import { RESOURCES, bearer, craftToken, expectStatus, itemUrl, list, rosterUrl, seaToken, tokenFor, type RosterRecord } from './_support/service.js';
import { test, expect } from './_support/test.js';
import { forbiddenFor, leaks, readWorld, recordOutside } from './_support/visibility.js';
import type { OrgName, World } from './_support/world.js';

/**
 * Rows by the educationOrganizationId claim (seed: Claims). The MUST tests read as the seed allows
 * (no envelope or fields assumed: read.ts, visibility.ts): a token sees no data of organizations
 * it does not name, beyond their descendants and ancestors (which readings differ on); a comma
 * list grants each organization in it; without the claim nothing. The SHOULD tests check
 * upstream's rows (research §11), through its mapping: Down(T) = the claimed organizations and
 * their descendants, Up(T) = and their ancestors: orgs, classes, sessions and people need their
 * organization in Down(T); courses and school years in Down(T) or Up(T).
 */
type Request = Parameters<typeof craftToken>[0];

/** A token naming `orgs`, with core and demographics scopes (a declared client's when one fits). */
const tokenOf = (request: Request, orgs: number[]) => tokenFor(request, { orgs, scopes: ['core', 'demographics'] });

/** What a token sees: identifiers of orgs, course codes, class codes, user ids. */
async function seen(request: Request, world: World, orgsOrToken: number[] | { token: string }) {
  const token = 'token' in orgsOrToken ? orgsOrToken.token : await tokenOf(request, orgsOrToken);
  const sea = await seaToken(request, world);
  const all = await list(request, 'users', sea);
  const idOf = new Map(all.map((u) => [u.sourcedId, String(u.identifier)]));
  const classes = await list(request, 'classes', token);
  return {
    token,
    orgs: (await list(request, 'orgs', token)).map((o) => Number(o.identifier)).sort(),
    courses: (await list(request, 'courses', token)).map((c) => c.courseCode).sort(),
    classes: classes.map((c) => c.classCode).sort(),
    userIds: (await list(request, 'users', token)).map((u) => String(u.identifier)).sort(),
    enrollments: (await list(request, 'enrollments', token)).map((e) => idOf.get((e.user as RosterRecord).sourcedId)).sort(),
    demographics: (await list(request, 'demographics', token)).map((d) => idOf.get(d.sourcedId)).sort(),
  };
}

const sorted = <T>(...xs: T[]) => [...xs].sort();

test.describe('rostering rows by education organization', () => {
  test('a district token sees the district and its schools, not the state agency or another district', rule('roster.roster-query.orgs-visibility'), async ({ request, world }) => {
    const s = await seen(request, world, [world.lea1]);
    expect(s.orgs).toEqual(sorted(world.lea1, world.schoolA, world.schoolB));
  });

  test('a school token sees only its school among the orgs', rule('roster.roster-query.orgs-visibility'), async ({ request, world }) => {
    expect((await seen(request, world, [world.schoolB])).orgs).toEqual([world.schoolB]);
    expect((await seen(request, world, [world.schoolC])).orgs).toEqual([world.schoolC]);
  });

  test('courses are seen from the owning organization, its schools and its ancestors', rule('roster.roster-query.courses-visibility'), async ({ request, world }) => {
    expect((await seen(request, world, [world.schoolA])).courses, 'school A: its own course and its district\'s').toEqual(sorted(world.courses.m1, world.courses.m2));
    expect((await seen(request, world, [world.schoolB])).courses, 'school B: its district\'s course only').toEqual([world.courses.m1]);
    expect((await seen(request, world, [world.lea2])).courses).toEqual([world.courses.m3]);
    expect((await seen(request, world, [world.sea])).courses).toEqual(sorted(world.courses.m1, world.courses.m2, world.courses.m3));
  });

  test('classes are seen only from their school and its ancestors', rule('roster.roster-query.classes-visibility'), async ({ request, world }) => {
    expect((await seen(request, world, [world.schoolA])).classes).toEqual(sorted(world.courses.m1, world.courses.m2));
    expect((await seen(request, world, [world.schoolB])).classes).toEqual([]);
    expect((await seen(request, world, [world.lea1])).classes).toEqual(sorted(world.courses.m1, world.courses.m2));
    expect((await seen(request, world, [world.lea2])).classes).toEqual([world.courses.m3]);
  });

  test('people, enrollments and demographics are seen only at schools under the claimed organizations', rule('roster.roster-query.people-visibility'), async ({ request, world }) => {
    const a = await seen(request, world, [world.schoolA]);
    expect(a.userIds).toEqual(sorted(world.students.st1, world.staff.t1, world.contact));
    expect(a.enrollments).toEqual(sorted(world.students.st1, world.students.st1, world.staff.t1));
    expect(a.demographics).toEqual([world.students.st1]);
    const b = await seen(request, world, [world.schoolB]);
    expect(b.userIds).toEqual(sorted(world.students.st2, world.staff.p1));
    expect(b.enrollments).toEqual([]);
    const l2 = await seen(request, world, [world.lea2]);
    expect(l2.userIds).toEqual(sorted(world.students.st3, world.staff.t2));
    expect(l2.enrollments).toEqual(sorted(world.students.st3, world.staff.t2));
    expect(l2.demographics).toEqual([world.students.st3]);
  });

  test('a token gets no data of the organizations its claim does not name, nor of their schools, in a collection or by sourcedId', rule('roster.roster-query.edorg-claim-limits-rows'), async ({ request, world }) => {
    const view = await readWorld(request, world, await seaToken(request, world));
    for (const claimed of [['schoolB'], ['schoolC'], ['lea1'], ['lea2'], ['sea']] as OrgName[][]) {
      const token = await tokenOf(request, claimed.map((o) => world[o]));
      const forbidden = forbiddenFor(world, claimed, view);
      for (const resource of RESOURCES) {
        const records = await readCollection(request, rosterUrl(resource), token);
        expect(leaks(records, forbidden), `a token naming ${claimed.join(', ')} reads ${resource}`).toEqual([]);
        // The control: the named organization itself is there, so the token reads the world.
        if (resource === 'orgs') expect(records.some((r) => heldMark(r, world.marks[claimed[0]].slice(0, 2))), `${claimed[0]} among the orgs its token reads`).toBe(true);
        // A record it must not see, asked for by its sourcedId.
        const outside = recordOutside(world, view, claimed, resource);
        const url = itemUrl(resource, outside);
        if (url) await expectWithheld(await request.get(url, { headers: bearer(token) }), [outside!], `a token naming ${claimed.join(', ')} reads ${resource}/${String(outside!.sourcedId)}`);
      }
    }
  });

  test('a comma-separated claim grants each listed organization', rule('roster.roster-query.edorg-claim-comma-list'), async ({ request, world }) => {
    // The declared client's token when the issuer writes the claim as a comma list, else a crafted one.
    const issued = await tokenOf(request, [world.schoolB, world.schoolC]);
    const claim = decodeJwt(issued).educationOrganizationId;
    const token = typeof claim === 'string' && claim.includes(',') ? issued : await craftToken(request, { orgs: `${world.schoolB},${world.schoolC}` });
    expect(decodeJwt(token).educationOrganizationId, 'a comma-separated claim').toMatch(/^\d+,\d+$/);
    // Whatever a token naming one of them sees, the list sees too: every record, in every resource.
    const [b, c] = await Promise.all([tokenOf(request, [world.schoolB]), tokenOf(request, [world.schoolC])]);
    let granted = 0;
    for (const resource of RESOURCES) {
      const both = new Set((await readCollection(request, rosterUrl(resource), token)).map(identity));
      for (const [name, one] of [['school B', b], ['school C', c]] as const) {
        const own = (await readCollection(request, rosterUrl(resource), one)).map(identity);
        granted += own.length;
        expect(own.filter((id) => !both.has(id)), `${resource}: records a token naming ${name} alone sees`).toEqual([]);
      }
    }
    expect(granted, 'the schools\' tokens see records (the world has them)').toBeGreaterThan(0);
  });

  test('the claim is read as a string or as an array of strings', rule('roster.roster-query.edorg-claim-string-or-array'), async ({ request, world }) => {
    const issued = await tokenOf(request, [world.schoolB]);
    const asString = typeof decodeJwt(issued).educationOrganizationId === 'string' ? issued : await craftToken(request, { orgs: String(world.schoolB) });
    expect((await list(request, 'orgs', asString)).map((o) => Number(o.identifier))).toEqual([world.schoolB]);
    const asArray = await craftToken(request, { claims: { educationOrganizationId: [String(world.schoolB), String(world.schoolC)] } });
    expect((await list(request, 'orgs', asArray)).map((o) => Number(o.identifier)).sort()).toEqual(sorted(world.schoolB, world.schoolC));
  });

  test('without the claim every collection is empty and every single read finds nothing', rule('roster.roster-query.no-edorg-claim-empty', 'roster.roster-query.out-of-scope-single-404'), async ({ request, world }) => {
    const reader = await seaToken(request, world);
    const none = await tokenFor(request, { orgs: [], scopes: ['core', 'demographics'] });
    expect(decodeJwt(none).educationOrganizationId, 'no educationOrganizationId claim').toBeUndefined();
    for (const resource of RESOURCES) {
      expect(await readCollection(request, rosterUrl(resource), none), resource).toEqual([]);
      // A record the reader sees, by its sourcedId (else an id no record has).
      const [one] = await readCollection(request, rosterUrl(resource), reader);
      const url = itemUrl(resource, one) ?? rosterUrl(`${resource}/0123456789abcdef0123456789abcdef`);
      const res = await request.get(url, { headers: bearer(none) });
      const text = await res.text();
      // 404, or 200 with a null or empty record, or nothing (seed: "empty or null responses"; decision 37).
      const body = parseJson(text);
      const noRecord = text.trim() === '' || (body !== undefined && holdsNoRecord(body));
      expect(res.status() === 404 || (res.status() === 200 && noRecord), `GET ${url}: ${res.status()} ${text.slice(0, 200)}`).toBe(true);
      await check('roster.roster-query.out-of-scope-single-404', `${resource}: the single read is 404 with the stdx_ body`, async () => { await expectStatus(res, 404); });
    }
  });

  test('a single read of a record outside the caller\'s organizations is 404, like an unknown id', rule('roster.roster-query.out-of-scope-single-404', 'roster.roster-errors.unknown-id-404'), async ({ request, world }) => {
    const reader = await seaToken(request, world);
    const schoolB = await tokenOf(request, [world.schoolB]);
    const schoolA = (await list(request, 'orgs', reader)).find((o) => o.identifier === String(world.schoolA))!;
    const [classOfA] = (await list(request, 'classes', reader)).filter((c) => c.classCode === world.courses.m2);
    for (const path of [`orgs/${schoolA.sourcedId}`, `schools/${schoolA.sourcedId}`, `classes/${classOfA.sourcedId}`]) {
      const outside = await expectStatus(await request.get(rosterUrl(path), { headers: bearer(schoolB) }), 404);
      const unknown = await expectStatus(await request.get(rosterUrl(path.replace(/[^/]+$/, '0123456789abcdef0123456789abcdef')), { headers: bearer(schoolB) }), 404);
      expect(Object.keys(outside).sort()).toEqual(Object.keys(unknown).sort());
      // The same record is there for a caller who may see it.
      expect((await request.get(rosterUrl(path), { headers: bearer(reader) })).status()).toBe(200);
    }
  });
});
