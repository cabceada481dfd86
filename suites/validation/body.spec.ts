import { test, expect } from '../_harness/data.js';
import { asResponse, raw, type RawResponse } from '../_harness/checks.js';
import { expectProblem, expectProblemUnder } from '../_harness/problem.js';
import { rule } from '../_harness/rules.js';
import { notApplicable } from '../_harness/capabilities.js';

/**
 * Request bodies: JSON in UTF-8 with Content-Type application/json (seed Endpoints, Errors).
 * Bodies that are not JSON go out byte for byte through raw(): the API client would encode a
 * non-JSON string as a JSON string.
 */
const json = { 'Content-Type': 'application/json' };
test.describe('write bodies', () => {
  test('accepts Content-Type application/json with charset=utf-8 and a UTF-8 body, answering JSON', rule('data.validation.json-utf8-bodies'), async ({ api, data }) => {
    const body = await data.body('academicWeek', { weekIdentifier: `Zoë-Ü-${Date.now()}` });
    const res = await api.post('academicWeeks', body, { 'Content-Type': 'application/json; charset=utf-8' });
    expect(res.status()).toBe(201);
    api.track(res.headers().location);
    // The seed shows no body for a 201; one that is sent is JSON labelled application/json.
    const posted = await res.text();
    if (posted.length) {
      expect(res.headers()['content-type'] ?? '', `the 201 body ${JSON.stringify(posted.slice(0, 80))}`).toMatch(/^application\/json(;\s*charset=utf-8)?$/i);
      expect(() => JSON.parse(posted), `the 201 body ${JSON.stringify(posted.slice(0, 80))} is JSON`).not.toThrow();
    }
    const got = await api.get(res.headers().location);
    expect(got.headers()['content-type']).toMatch(/^application\/json(;\s*charset=utf-8)?$/i);
    expect((await got.json()).weekIdentifier).toBe(body.weekIdentifier);
  });

  test('refuses a POST with a body but no Content-Type with 415 unsupported-media-type', rule('data.validation.content-type-missing-415'), async ({ api, data }) => {
    const body = await data.body('academicWeek');
    const res = await raw('POST', api.url('academicWeeks'), api.headers(), JSON.stringify(body));
    await expectProblem(asResponse(res), 'unsupported-media-type');
  });

  test('refuses a PUT with a body but no Content-Type with 415 unsupported-media-type', rule('data.validation.content-type-missing-415'), async ({ api, data }) => {
    const created = await data.create('academicWeek');
    const res = await raw('PUT', created.url, api.headers(), JSON.stringify(created.body));
    await expectProblem(asResponse(res), 'unsupported-media-type');
  });

  // Far-off types and the look-alikes of application/json (prefix, suffix, other top-level type).
  for (const type of ['text/plain', 'application/xml', 'application/jsonx', 'application/json-patch+json', 'text/json', 'application/x-json']) {
    test(`refuses a POST whose Content-Type is ${type} with 415 unsupported-media-type`, rule('data.validation.content-type-other-415'), async ({ api, data }) => {
      const body = await data.body('academicWeek');
      await expectProblem(await api.post('academicWeeks', body, { 'Content-Type': type }), 'unsupported-media-type');
    });
  }

  test('refuses a PUT whose Content-Type is text/plain with 415 unsupported-media-type', rule('data.validation.content-type-other-415'), async ({ api, data }) => {
    const created = await data.create('academicWeek');
    await expectProblem(await api.put(created.url, created.body, { 'Content-Type': 'text/plain' }), 'unsupported-media-type');
  });

  test('refuses a POST with an empty body with 400 bad-request', rule('data.validation.empty-body-400'), async ({ api }) => {
    await expectProblem(asResponse(await raw('POST', api.url('academicWeeks'), api.headers(json), '')), 'bad-request');
  });

  test('refuses a PUT with an empty body with 400 bad-request', rule('data.validation.empty-body-400'), async ({ api, data }) => {
    const created = await data.create('academicWeek');
    await expectProblem(asResponse(await raw('PUT', created.url, api.headers(json), '')), 'bad-request');
  });

  test('refuses a body declared and encoded as UTF-16 with 400 bad-request', rule('data.validation.foreign-encoding-body-400'), async ({ api, data }) => {
    const body = await data.body('academicWeek');
    const utf16 = Buffer.from(`\ufeff${JSON.stringify(body)}`, 'utf16le');
    const res = await raw('POST', api.url('academicWeeks'), api.headers({ 'Content-Type': 'application/json; charset=utf-16' }), utf16);
    await expectProblem(asResponse(res), 'bad-request');
  });

  /**
   * Bodies that are not JSON, from text that never was (`hello`) to a document broken inside. The
   * seed lists "body not parseable" under bad-request and "malformed JSON" under
   * data-validation-failed: either type is conformant (decision 38), with what the seed says
   * that type carries (an errors entry; validationErrors).
   */
  const notJson: [string, (valid: string) => string][] = [
    ['the text hello', () => 'hello'],
    ['an XML document', () => '<xml/>'],
    ['a truncated object', (valid) => valid.slice(0, valid.length - 12)],
    ['an object with a stray comma', (valid) => valid.replace(/}$/, ',}')],
    ['an object with an unclosed string', (valid) => valid.replace(/}$/, ', "note": "unclosed}')],
    ['an object with single-quoted names', (valid) => valid.replace(/"/g, "'")],
    ['an object followed by more text', (valid) => `${valid} and more`],
    ['an unclosed array', () => '[{"weekIdentifier": "w1"}'],
  ];

  async function expectNotJsonRefused(res: RawResponse): Promise<void> {
    const { body, suffix } = await expectProblemUnder(asResponse(res), 'bad-request');
    if (suffix === 'bad-request') expect(body.errors?.length ?? 0, 'a bad-request names the problem in errors').toBeGreaterThan(0);
    if (suffix === 'bad-request:data-validation-failed') expect(Object.keys(body.validationErrors ?? {}).length, 'malformed JSON is reported under validationErrors').toBeGreaterThan(0);
  }

  for (const [what, make] of notJson) {
    test(`refuses ${what} in a POST body with 400 bad-request or one of its sub-types`, rule('data.validation.unparseable-body-400'), async ({ api, data }) => {
      const text = make(JSON.stringify(await data.body('academicWeek')));
      await expectNotJsonRefused(await raw('POST', api.url('academicWeeks'), api.headers(json), text));
    });
  }

  test('refuses each body that is not JSON in a PUT with 400 bad-request or one of its sub-types, leaving the record unchanged', rule('data.validation.unparseable-body-400'), async ({ api, data }) => {
    const created = await data.create('academicWeek');
    const valid = JSON.stringify({ ...created.body, totalInstructionalDays: 1 });
    for (const [, make] of notJson) await expectNotJsonRefused(await raw('PUT', created.url, api.headers(json), make(valid)));
    expect((await (await api.get(created.url)).json()).totalInstructionalDays).toBe(created.body.totalInstructionalDays);
  });

  // Valid JSON that is no object is no resource representation: refused like a body that does
  // not parse, on POST and PUT, and nothing is stored or changed. The array holds a valid body,
  // so a server that unwrapped it would store a record (looked for by its key).
  const notObject = (valid: string): [string, string][] => [
    ['null', 'null'], ['a number', '42'], ['a string', '"academicWeek"'], ['true', 'true'], ['false', 'false'], ['an empty array', '[]'], ['an array holding a valid body', `[${valid}]`],
  ];

  test('refuses a POST body that is valid JSON but not an object (null, a number, a string, a boolean, an array) with 400 bad-request or one of its sub-types, storing nothing', rule('data.validation.non-object-body-400'), async ({ api, data }) => {
    const body = await data.body('academicWeek');
    for (const [what, text] of notObject(JSON.stringify(body))) {
      const res = await raw('POST', api.url('academicWeeks'), api.headers(json), text);
      if (res.status() < 300 && res.headers().location) api.track(res.headers().location);
      await test.step(what, () => expectNotJsonRefused(res));
    }
    const query = `academicWeeks?weekIdentifier=${encodeURIComponent(String(body.weekIdentifier))}`;
    expect(await (await api.get(query)).json(), 'nothing stored under the wrapped body\'s key').toEqual([]);
  });

  // Either type is conformant for a body that is no object (decision 38); one answered as a data
  // validation failure carries that failure's upstream detail.
  test('words the detail of a body that is not an object, when refused as data-validation-failed, "Data validation failed. See \'validationErrors\' for details."', rule('data.errors.detail-wording'), async ({ api, data }) => {
    const body = await data.body('academicWeek');
    let judged = 0;
    for (const [what, text] of notObject(JSON.stringify(body))) {
      const res = await raw('POST', api.url('academicWeeks'), api.headers(json), text);
      if (res.status() < 300 && res.headers().location) api.track(res.headers().location);
      const problem = (await res.json().catch(() => undefined)) as { type?: string; detail?: string } | undefined;
      if (!problem?.type?.endsWith(':bad-request:data-validation-failed')) continue;
      judged++;
      expect(problem.detail, what).toBe("Data validation failed. See 'validationErrors' for details.");
    }
    if (!judged) notApplicable('every body that is not an object was refused as bad-request, not data-validation-failed');
  });

  test('refuses a PUT body that is valid JSON but not an object with 400 bad-request or one of its sub-types, leaving the record unchanged', rule('data.validation.non-object-body-400'), async ({ api, data }) => {
    const created = await data.create('academicWeek');
    for (const [what, text] of notObject(JSON.stringify({ ...created.body, totalInstructionalDays: 1 }))) {
      await test.step(what, async () => expectNotJsonRefused(await raw('PUT', created.url, api.headers(json), text)));
    }
    expect((await (await api.get(created.url)).json()).totalInstructionalDays).toBe(created.body.totalInstructionalDays);
  });

  /** A document that opens as an object and breaks inside: both upstream servers report it under validationErrors. */
  for (const [what, make] of notJson.filter(([w]) => /^an object with|^a truncated/.test(w))) {
    test(`reports ${what} as 400 data-validation-failed under validationErrors`, rule('data.validation.json-syntax-error-type'), async ({ api, data }) => {
      const text = make(JSON.stringify(await data.body('academicWeek')));
      const problem = await expectProblem(asResponse(await raw('POST', api.url('academicWeeks'), api.headers(json), text)), 'bad-request:data-validation-failed');
      expect(Object.keys(problem.validationErrors ?? {}).length).toBeGreaterThan(0);
    });
  }

  test('reports a string where an object is expected as 400 data-validation-failed at that path', rule('data.validation.malformed-json-400'), async ({ api, data }) => {
    const body = await data.body('academicWeek', { schoolReference: 'school 1' });
    const problem = await expectProblem(await api.post('academicWeeks', body), 'bad-request:data-validation-failed');
    expect(Object.keys(problem.validationErrors ?? {})).toContain('$.schoolReference');
  });

  test('ignores unknown extra properties: the write succeeds and GET does not return them', rule('data.validation.unknown-properties-ignored'), async ({ api, data }) => {
    const created = await data.create('academicWeek', { conformanceExtra: 'not a member' });
    const got = await (await api.get(created.url)).json();
    expect(got.conformanceExtra).toBeUndefined();
  });

  // Integers beyond what a JavaScript number holds exactly, at the int64 bounds and past them
  // (one more, 1e30, a hundred digits): the body goes out as text. No member is an int64 field
  // here, nor any number field, so no type has a range to hold them to: they are ignored.
  const extras: [string, string][] = [
    ['the int64 maximum and minimum', '9223372036854775807, "conformanceExtraMin": -9223372036854775808'],
    ['integers past the int64 range', '9223372036854775808, "conformanceExtraMin": -1e30'],
    ['a hundred-digit integer', `${'9'.repeat(100)}, "conformanceExtraMin": -${'9'.repeat(100)}`],
  ];
  for (const [what, values] of extras) {
    test(`ignores unknown extra properties holding ${what}: the write succeeds and GET does not return them`, rule('data.validation.unknown-properties-ignored'), async ({ api, data }) => {
      const text = JSON.stringify(await data.body('academicWeek')).replace(/}$/, `, "conformanceExtraMax": ${values}}`);
      const res = await raw('POST', api.url('academicWeeks'), api.headers(json), text);
      expect(res.status(), await res.text()).toBe(201);
      api.track(res.headers().location);
      const got = await (await api.get(res.headers().location)).json();
      expect([got.conformanceExtraMax, got.conformanceExtraMin]).toEqual([undefined, undefined]);
    });
  }

  test('treats body property names case-sensitively: a required member in other casing counts as missing', rule('data.validation.body-property-names-case-sensitive'), async ({ api, data }) => {
    const { weekIdentifier, ...rest } = await data.body('academicWeek');
    const problem = await expectProblem(await api.post('academicWeeks', { ...rest, WeekIdentifier: weekIdentifier }), 'bad-request:data-validation-failed');
    expect(Object.keys(problem.validationErrors ?? {})).toContain('$.weekIdentifier');
  });
});
