import { test, expect } from '../_harness/data.js';
import { rule } from '../_harness/rules.js';
import { expectProblem } from '../_harness/problem.js';
import { changed, membersOf, referenceKeysOf, valueAt, type Member } from '../_harness/members.js';
import { model } from '../_harness/judged-model.js';
import { newEducationOrganizationId } from '../_harness/builders.js';
import { asResponse, raw } from '../_harness/checks.js';
import type { Fields } from '../../spec/model/dsl.js';
import type { CompiledResource } from '../../spec/model/compiled.js';

/**
 * Numeric text wherever a number member sits (decision #28, data.validation.numeric-text-as-number):
 * both upstream servers read it before validation at every depth, so a deployment that reads it
 * at the top level only refuses bodies upstream clients send. For each place a number member can
 * sit (a member, a nested object's member, a collection item's member, a reference's key, the key
 * of a reference inside a nested object or a collection item) and each number type the judged
 * standard has there, the first resource of the model with one: every such member sent as text is
 * read as its number (GET returns numbers), and an integer sent as text past its type's range is
 * refused at that member's path (or at what holds it, or at the keys it must equal), never at
 * another.
 */
const RULE = 'data.validation.numeric-text-as-number';
type NumberKind = 'int32' | 'int64' | 'double';
const KINDS: readonly NumberKind[] = ['int32', 'int64', 'double'];
const isNumberKind = (k: string): k is NumberKind => (KINDS as readonly string[]).includes(k);

type Place = 'member' | 'object' | 'item' | 'reference' | 'object reference' | 'item reference';
const PLACES: Record<Place, string> = {
  member: 'member',
  object: 'member of a nested object',
  item: 'member of a collection item',
  reference: 'key of a reference',
  'object reference': 'key of a reference inside a nested object',
  'item reference': 'key of a reference inside a collection item',
};

/** Text one past the type's range: read as a number, it is outside, so the refusal is the reading's own. */
const PAST_RANGE: Partial<Record<NumberKind, string>> = { int32: '2147483648', int64: '9223372036854775808' };

/** The (place, kind) pairs of a resource's number members, from the model. */
function placesOf(r: CompiledResource): Set<string> {
  const found = new Set<string>();
  const walk = (fields: Fields, place: 'member' | 'object' | 'item') => {
    for (const f of Object.values(fields)) {
      if (isNumberKind(f.kind) && !('readOnly' in f && f.readOnly)) found.add(`${place}/${f.kind}`);
      if (f.kind === 'object') walk(f.fields, place === 'member' ? 'object' : place);
      if (f.kind === 'collection') walk(f.item, 'item');
    }
  };
  walk(r.fields, 'member');
  for (const ref of r.references) {
    const place = referencePlace(ref.path);
    // A reference of several keys at the top, so a reading that drops the other keys is seen.
    if (place === 'reference' && ref.fields.length < 2) continue;
    for (const k of ref.fields) if (isNumberKind(k.kind)) found.add(`${place}/${k.kind}`);
  }
  return found;
}

/** Where a reference sits, by its path (`$.a[*].bReference`, `$.a.bReference`, `$.bReference`). */
const referencePlace = (path: string): Place => path.includes('[') ? 'item reference' : path.split('.').length > 2 ? 'object reference' : 'reference';

/** The number members present in a body, with their place and type. */
function numberMembers(r: CompiledResource, body: Record<string, unknown>): { member: Member; place: Place; kind: NumberKind }[] {
  const own = membersOf(r.fields, body).flatMap((m) => {
    const kind = m.field?.kind;
    if (!kind || !isNumberKind(kind) || (m.field && 'readOnly' in m.field && m.field.readOnly)) return [];
    return [{ member: m, place: (m.depth === 'top' ? 'member' : m.depth) as Place, kind }];
  });
  const keys = referenceKeysOf(r, body).flatMap((k) => {
    const place = referencePlace(k.reference.path);
    return isNumberKind(k.key.kind) && (place !== 'reference' || k.reference.fields.length > 1) ? [{ member: k as Member, place, kind: k.key.kind }] : [];
  });
  return [...own, ...keys];
}

/**
 * Where a refusal of the member at `path` may be reported: its path, the paths that hold it
 * (`$.a[0].b` → `$.a[0]`, `$.a`, `$`), and the members that must equal it (key unification: the
 * same key name elsewhere in the body no longer agrees).
 */
function refusalPaths(r: CompiledResource, body: Record<string, unknown>, path: string): Set<string> {
  const out = new Set([path]);
  for (let i = path.length - 1; i > 0; i--) if (path[i] === '.' || path[i] === '[') out.add(path.slice(0, i));
  const named = [
    ...membersOf(r.fields, body).filter((m) => m.field).map((m) => ({ path: m.path, name: m.name })),
    ...referenceKeysOf(r, body).map((k) => ({ path: k.path, name: k.key.queryName })),
  ];
  const name = named.find((n) => n.path === path)?.name;
  for (const n of named) if (n.name === name) out.add(n.path);
  return out;
}

/**
 * The body with the top-level member holding `path` sent first (JSON member order means nothing):
 * so the refused member's path is the first a reading of the body has to build, not one it had
 * already built for an earlier member.
 */
function holderFirst(body: Record<string, unknown>, path: string): Record<string, unknown> {
  const holder = /^\$\.([^.[]+)/.exec(path)?.[1] ?? '';
  const { [holder]: held, ...rest } = body;
  return { [holder]: held, ...rest };
}

const resources = model.resources.filter((r) => !r.isDescriptor && !r.isSchoolYearEnumeration);
test.describe('numeric text in every place a number member sits', () => {
  for (const place of Object.keys(PLACES) as Place[]) {
    for (const kind of KINDS) {
      const r = resources.find((x) => placesOf(x).has(`${place}/${kind}`));
      // The judged standard has no such member (4.0 has no int64): nothing to send.
      if (!r) continue;
      const refusal = PAST_RANGE[kind];
      const title = `takes numeric text in every ${kind} ${PLACES[place]} of ${r.name} as its number, GET returning numbers${refusal ? `, and refuses ${refusal} there with 400 at that member's path` : ''}`;
      test(title, rule(RULE), async ({ api, data }) => {
        const body = await data.body(r.name, {}, { full: true, shared: true });
        const chosen = numberMembers(r, body).filter((n) => n.place === place && n.kind === kind);
        expect(chosen.map((n) => n.member.path), `${kind} ${PLACES[place]}s in ${r.name}'s body`).not.toEqual([]);
        const paths = new Set(chosen.map((n) => n.member.path));
        const asText = changed(r.fields, body, (m) => paths.has(m.path), (m) => { m.parent[m.name] = String(m.parent[m.name]); });
        const created = await data.post(r, asText.body);
        const got: unknown = await (await api.get(created.url)).json();
        const wrong = chosen.filter((n) => valueAt(got, n.member.path) !== n.member.parent[n.member.name])
          .map((n) => `${n.member.path}: sent "${String(n.member.parent[n.member.name])}", read ${JSON.stringify(valueAt(got, n.member.path))}`);
        expect(wrong, `${r.name}'s ${kind} ${PLACES[place]}s sent as text, read back`).toEqual([]);
        if (!refusal) return;
        const [first] = chosen;
        const past = changed(r.fields, body, (m) => m.path === first.member.path, (m) => { m.parent[m.name] = refusal; });
        const problem = await expectProblem(await api.post(r.endpoint, holderFirst(past.body, first.member.path)), 'bad-request:data-validation-failed');
        const reported = Object.keys(problem.validationErrors ?? {});
        expect(reported, `${first.member.path} sent as "${refusal}"`).toContain(first.member.path);
        expect(problem.validationErrors?.[first.member.path]?.length, `messages at ${first.member.path}`).toBeGreaterThan(0);
        const allowed = refusalPaths(r, body, first.member.path);
        expect(reported.filter((p) => !allowed.has(p)), `paths reported for ${first.member.path} alone, other than it, what holds it and the keys it must equal`).toEqual([]);
      });
    }
  }
});

test.describe('numbers read exactly, text left as text', () => {
  // 1.0000000000000001 is no integer, though a JavaScript number reads it as 1: both upstream
  // servers read the literal, not a rounding of it (decision #28: numbers outside the member's type).
  test('refuses a number literal that only rounds to an integer (1.0000000000000001) in an int32 member with 400 at its path', rule(RULE), async ({ api, data }) => {
    const text = JSON.stringify(await data.body('academicWeek', { totalInstructionalDays: 5 })).replace('"totalInstructionalDays":5', '"totalInstructionalDays":1.0000000000000001');
    expect(text).toContain('1.0000000000000001');
    const res = asResponse(await raw('POST', api.url('academicWeeks'), api.headers({ 'Content-Type': 'application/json' }), text));
    expect(Object.keys((await expectProblem(res, 'bad-request:data-validation-failed')).validationErrors ?? {})).toContain('$.totalInstructionalDays');
  });

  // Only number members are read as numbers: digits in a string key stay the text written, in
  // the record and in the reference naming it.
  test('returns digits written to a string key, and to the reference key naming it, as the text written', rule('data.upsert.fields-round-trip'), async ({ api, data }) => {
    const code = String(newEducationOrganizationId());
    const calendar = await data.create('calendar', { calendarCode: code });
    const date = await data.create('calendarDate', { calendarReference: data.referenceTo(calendar) });
    expect((await (await api.get(calendar.url)).json() as { calendarCode: unknown }).calendarCode).toBe(code);
    expect((await (await api.get(date.url)).json() as { calendarReference: { calendarCode: unknown } }).calendarReference.calendarCode).toBe(code);
  });
});
