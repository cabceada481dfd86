import type { HttpResponse } from '../_harness/http.js';
import { test, expect } from '../_harness/data.js';
import type { Builder } from '../_harness/builders.js';
import { descriptorBody } from '../_harness/builders.js';
import type { DataClient } from '../_harness/fixtures.js';
import { expectProblem } from '../_harness/problem.js';
import { check, checkNotApplicable, rule } from '../_harness/rules.js';
import { settleAll } from '../_harness/in-parallel.js';
import { changed, expectEachRefused, hasMember, referenceKeysOf, refusedPaths, unifiedNames, type Member, type ReferenceKey } from '../_harness/members.js';
import type { CompiledResource } from '../../spec/model/compiled.js';
import { model } from '../_harness/judged-model.js';
import { inGroups } from '../_harness/groups.js';

/**
 * Script-injection safeguards (seed Errors; decisions #10, #42): every form of dangerous markup
 * is refused wherever a string member is, top level or nested, in a descriptor or a resource,
 * on POST and on PUT. A filter for a few tags (`<script`, `<img`) fails here.
 */
const descriptors = 'academicSubjectDescriptors';

/** Each form decision 10 names, inside otherwise plain text. */
const forms: [string, string][] = [
  ['< followed by a letter', 'x<b>bold</b>'],
  ['< followed by !', 'x<!-- c -->'],
  ['< followed by /', 'x</p>'],
  ['< followed by ?', 'x<?php echo 1 ?>'],
  ['a character reference &#', 'x&#60;script'],
];

/** Where the string goes: the request that carries it and the member's path. */
interface Placement {
  where: string;
  send: (api: DataClient, data: Builder, value: string) => Promise<HttpResponse>;
  path: string;
}

const placements: Placement[] = [
  {
    where: 'a descriptor\'s top-level member on POST',
    send: (api, _data, value) => api.post(descriptors, descriptorBody('academicSubject', { shortDescription: value })),
    path: '$.shortDescription',
  },
  {
    where: 'a descriptor\'s top-level member on PUT',
    send: async (api, data, value) => {
      const created = await data.newDescriptor('academicSubject');
      return api.put(created.url, { ...created.body, description: value });
    },
    path: '$.description',
  },
  {
    where: 'a resource\'s top-level member on POST',
    send: async (api, data, value) => api.post('accountabilityRatings', await data.body('accountabilityRating', { rating: value })),
    path: '$.rating',
  },
  {
    where: 'a member of a nested object',
    send: async (api, data, value) => api.post('assessments', await data.body('assessment', { contentStandard: { title: value } })),
    path: '$.contentStandard.title',
  },
  {
    where: 'a member of a collection item',
    send: async (api, data, value) => {
      const body = await data.body('course');
      const [item] = body.identificationCodes as Record<string, unknown>[];
      return api.post('courses', { ...body, identificationCodes: [{ ...item, identificationCode: value }] });
    },
    path: '$.identificationCodes[0].identificationCode',
  },
];

test.describe('dangerous markup', () => {
  for (const place of placements) {
    for (const [form, value] of forms) {
      test(`refuses ${form} in ${place.where} with 400 at the member's path`, rule('data.validation.dangerous-markup-400'), async ({ api, data }) => {
        const problem = await expectProblem(await place.send(api, data, value), 'bad-request:data-validation-failed');
        expect(Object.keys(problem.validationErrors ?? {})).toContain(place.path);
      });
    }
  }

  test('words the message as "<field> contains a potentially dangerous value."', rule('data.validation.dangerous-value-message-wording'), async ({ api }) => {
    const problem = await expectProblem(await api.post(descriptors, descriptorBody('academicSubject', { shortDescription: '<script>alert(1)</script>' })), 'bad-request:data-validation-failed');
    expect(problem.validationErrors?.['$.shortDescription']).toEqual(['shortDescription contains a potentially dangerous value.']);
  });

  for (const value of ['a < b', '3<4', '5 > 3', 'R&D', '5 > 3 & 2 < 4']) {
    test(`accepts '${value}' and stores it unchanged`, rule('data.validation.benign-angle-and-ampersand-accepted'), async ({ api, data }) => {
      const created = await data.newDescriptor('academicSubject', { shortDescription: value });
      expect((await (await api.get(created.url)).json()).shortDescription).toBe(value);
    });
  }

  test('accepts \'a < b\' and \'R&D\' in a nested member and stores them unchanged', rule('data.validation.benign-angle-and-ampersand-accepted'), async ({ api, data }) => {
    const created = await data.create('assessment', { contentStandard: { title: 'a < b, R&D' } });
    expect((await (await api.get(created.url)).json()).contentStandard.title).toBe('a < b, R&D');
  });
});

/**
 * Every string member of every resource the model has (decision 43), descriptors, nested objects
 * and collection items included, holding each form of markup in turn (one body per form, the
 * form appended to the member's own text and the text cut so the value stays within the
 * maximum length): refused with 400 at that member's path. Descriptor-valued members are left
 * out: they name a descriptor, and no descriptor holding markup can exist, so a refusal there
 * would not show the markup check. A reference's key fields have tests of their own, below.
 */
const suffixes: [string, string][] = [['< followed by a letter', '<b>'], ['< followed by !', '<!--'], ['< followed by /', '</p>'], ['< followed by ?', '<?x'], ['&#', '&#60;']];
const isText = (m: Member) => m.field?.kind === 'string' && !m.field.readOnly && typeof m.parent[m.name] === 'string';
const withMarkup = (form: string) => (m: Member) => {
  const max = (m.field as { maxLength?: number }).maxLength ?? Infinity;
  m.parent[m.name] = `${(m.parent[m.name] as string).slice(0, Math.max(0, max - form.length))}${form}`;
};

test.describe('dangerous markup in every string member of every resource', () => {
  inGroups(model.resources.filter((x) => hasMember(x.fields, (f) => f.kind === 'string' && !f.readOnly)), (r) => {
    // On PUT too, once per resource: its non-key string members (a key change is refused for
    // its own reason) each hold one of the forms in turn, all in one body; the forms themselves
    // are each tried on POST. School years are shared by every run and never written here.
    const put = !r.isSchoolYearEnumeration && hasMember(r.fields, (f) => f.kind === 'string' && !f.readOnly && !f.identity);
    const title = put
      ? `refuses every form of markup in every string member of ${r.name} with 400 at that member's path, on POST and on PUT`
      : `refuses every form of markup in every string member of ${r.name} with 400 at that member's path`;
    test(title, rule('data.validation.dangerous-markup-400'), async ({ api, data }) => {
      const body = await data.body(r.name, {}, { full: (f) => f.kind === 'string' && !f.readOnly, shared: true });
      // A descriptor body carries only its required members: its optional description is added.
      if (r.isDescriptor) body.description ??= 'Conformance description';
      // The five forms at once: a distant deployment is paid one round trip for them, not five.
      await settleAll(suffixes.map(([form, suffix]) => expectEachRefused(api, r.endpoint, r.fields, body, isText, withMarkup(suffix), `holding ${form} (${suffix})`)));
      if (!put) return;
      const created = await data.post(r, body);
      const partners = unifiedNames(r.name);
      let turn = 0;
      const inTurn = (m: Member) => withMarkup(suffixes[turn++ % suffixes.length][1])(m);
      await expectEachRefused(api, r.endpoint, r.fields, body, (m) => isText(m) && !m.field!.identity && !partners.has(m.name), inTurn, 'holding markup, on PUT', (b) => api.put(created.url, b));
    });
  });
});

/**
 * A reference's text key fields are string members too (decision 42), of every resource whose
 * references have one (decision 43), optional references and those in collection items included.
 * No record holding markup can exist, so a deployment that resolves references before it reads
 * their text answers 409 as an unresolved reference: that key is then not applicable, never a
 * pass. Where the deployment refuses with 400, the refusal must name the key's own path. Every
 * member holding a key's value changes with it: a key unified with another member, changed
 * alone, would be refused for the disagreement, at the same path, by a deployment that never
 * reads the markup.
 */
/** How each text key of a reference holding each form was answered: at its path (400), unresolved (409), or otherwise. */
interface KeyAnswer { path: string; form: string; outcome: 'at-path' | 'unresolved' | string }

/**
 * Every form in every text key at once (a form per body, the five bodies at once), then each key
 * the batch's refusal did not name alone: a deployment need not name every failing path at once
 * (that is data.errors.all-validation-failures-one-response), only this key's when it is the one.
 */
async function referenceTextAnswers(api: DataClient, r: CompiledResource, body: Record<string, unknown>, keys: ReferenceKey[]): Promise<KeyAnswer[]> {
  const maxOf = new Map(keys.map((k) => [k.path, k.maxLength]));
  const valueOf = new Map(keys.map((k) => [k.path, k.parent[k.name] as string]));
  const mark = (suffix: string) => (m: Member) => {
    const max = maxOf.get(m.path) ?? (m.field as { maxLength?: number } | undefined)?.maxLength ?? Infinity;
    m.parent[m.name] = `${(m.parent[m.name] as string).slice(0, Math.max(0, max - suffix.length))}${suffix}`;
  };
  // Every member holding a chosen key's value changes with it, alike: a member unified with the
  // key still agrees with it, so no refusal for a disagreement names the key's path.
  const sent = (paths: string[], suffix: string) => {
    const values = new Set(paths.map((p) => valueOf.get(p)));
    return changed(r.fields, body, (m) => typeof m.parent[m.name] === 'string' && values.has(m.parent[m.name] as string), mark(suffix)).body;
  };
  const perForm = await settleAll(suffixes.map(async ([form, suffix]): Promise<KeyAnswer[]> => {
    const all = [...valueOf.keys()];
    const batch = await refusedPaths(api, r.endpoint, sent(all, suffix));
    if (batch.status === 409) return all.map((path) => ({ path, form, outcome: 'unresolved' }));
    const answers: KeyAnswer[] = [];
    for (const path of all) {
      const alone = batch.status === 400 && batch.paths.includes(path) ? batch : await refusedPaths(api, r.endpoint, sent([path], suffix));
      const outcome = alone.status === 409 ? 'unresolved' : alone.status === 400 && alone.paths.includes(path) ? 'at-path' : `${alone.status}${alone.status === 400 ? ` at ${alone.paths.join(', ')}` : ''}`;
      answers.push({ path, form, outcome });
    }
    return answers;
  }));
  return perForm.flat();
}

/** The keys judged are checked; the keys a 409 left unjudged are not applicable, with their paths. */
async function judgeReferenceText(resource: string, answers: KeyAnswer[]): Promise<void> {
  const judged = answers.filter((a) => a.outcome !== 'unresolved');
  const unjudged = answers.filter((a) => a.outcome === 'unresolved');
  if (judged.length) {
    await check('data.validation.dangerous-markup-400', `each form of markup in the text key fields of ${resource}'s references is refused with 400 at that key's path`, () => {
      expect(judged.filter((a) => a.outcome !== 'at-path').map((a) => `${a.path} holding ${a.form}: ${a.outcome}`)).toEqual([]);
    });
  }
  if (unjudged.length) {
    checkNotApplicable('data.validation.dangerous-markup-400', `markup in the text key fields of ${resource}'s references`,
      `answered 409 as an unresolved reference (the deployment resolves references before it reads their text): ${[...new Set(unjudged.map((a) => a.path))].join(', ')}`);
  }
}

test.describe('dangerous markup in the text key fields of every reference', () => {
  inGroups(model.resources.filter((x) => x.references.some((ref) => ref.fields.some((f) => f.kind === 'string'))), (r) => {
    test(`refuses every form of markup in the text key fields of ${r.name}'s references with 400 at that key's path, where it refuses it as invalid`, rule('data.validation.dangerous-markup-400'), async ({ api, data }) => {
      // Sent only to be refused: its references and descriptors come from the worker's pool.
      const body = await data.body(r.name, {}, { full: (f) => f.kind === 'reference', shared: true, refusedOnly: true });
      const keys = referenceKeysOf(r, body).filter((k) => k.key.kind === 'string' && typeof k.parent[k.name] === 'string');
      expect(keys.length, `text key fields in the ${r.name} body`).toBeGreaterThan(0);
      await judgeReferenceText(r.name, await referenceTextAnswers(api, r, body, keys));
    });
  });
});
