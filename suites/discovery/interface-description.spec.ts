import { test, expect } from '../_harness/data.js';
import { resourceOf } from '../_harness/builders.js';
import { extensionPrefix, extensionsOf, flatten, interfaceDescription, pathOf, resolve, resourceSchema, type OpenApiDocument, type Schema } from '../_harness/interface-description.js';
import type { Fields } from '../../spec/model/dsl.js';
import type { CompiledResource } from '../../spec/model/compiled.js';
import { model } from '../_harness/judged-model.js';
import { rule } from '../_harness/rules.js';
import { notInStandard } from '../_harness/standard-applicability.js';

/**
 * The interface description a deployment publishes (seed: Conventions, Endpoints rule 6): its
 * `x-Core-*` flags are checked against the seed's tables (as the model spells them out) for the
 * seed's resources.
 */
const seedResources = [
  'academicWeek', 'accountabilityRating', 'assessment', 'assessmentItem', 'balanceSheetDimension', 'bellSchedule',
  'calendar', 'calendarDate', 'chartOfAccount', 'classPeriod', 'cohort', 'communityOrganization', 'communityProvider',
  'communityProviderLicense', 'course', 'courseOffering', 'courseTranscript', 'credential',
];

/** Every (model field, published property) pair of a resource, nested members included. */
function pairs(doc: OpenApiDocument, fields: Fields, schema: Schema | undefined, base: string): { path: string; field: Fields[string]; property: Schema | undefined }[] {
  const out: { path: string; field: Fields[string]; property: Schema | undefined }[] = [];
  const props = flatten(doc, schema)?.properties ?? {};
  for (const [name, field] of Object.entries(fields)) {
    const property = props[name];
    out.push({ path: `${base}.${name}`, field, property });
    if (field.kind === 'collection') out.push(...pairs(doc, field.item, resolve(doc, flatten(doc, property)?.items), `${base}.${name}[*]`));
    if (field.kind === 'object') out.push(...pairs(doc, field.fields, property, `${base}.${name}`));
  }
  return out;
}

type Pair = ReturnType<typeof pairs>[number];

/**
 * Walks every resource the model has, descriptors included (decision 43), through the schema
 * the interface description gives its POST body, every nested object and collection item
 * included: `judge` says what is wrong with a member, `extra` what is wrong with the schema
 * beyond the model's members. A resource the description does not describe is wrong itself.
 */
function judgeEveryResource(doc: OpenApiDocument, judge: (r: CompiledResource, pair: Pair) => string | undefined, extra?: (r: CompiledResource, schema: Schema) => string[]): { wrong: string[]; judged: { resources: number; descriptors: number } } {
  const wrong: string[] = [];
  const judged = { resources: 0, descriptors: 0 };
  for (const r of model.resources) {
    const schema = resourceSchema(doc, r.endpoint);
    if (!schema) {
      wrong.push(`${r.endpoint}: no POST body schema in the interface description`);
      continue;
    }
    judged[r.isDescriptor ? 'descriptors' : 'resources']++;
    for (const pair of pairs(doc, r.fields, schema, `$${r.name}`)) {
      const w = judge(r, pair);
      if (w) wrong.push(w);
    }
    if (extra) wrong.push(...extra(r, schema));
  }
  return { wrong, judged };
}

test.describe('x- extensions of the interface description', () => {
  test('marks every natural-key member of every resource and descriptor with x-Core-isIdentity: true, and no other member', rule('data.discovery.x-core-is-identity'), async ({ request }) => {
    const doc = await interfaceDescription(request);
    const flag = `${extensionPrefix()}isIdentity`;
    const { wrong, judged } = judgeEveryResource(doc, (r, { path, field, property }) => {
      if (!property) return field.identity ? `${path}: a natural-key member the description leaves out` : undefined;
      const flagged = extensionsOf(doc, property)[flag] === true;
      if (field.kind === 'reference') {
        // A reference in the key is a plain $ref (upstream): the key fields it holds carry the flag.
        if (!field.identity) return flagged ? `${path}: flagged ${flag}, but not part of the natural key` : undefined;
        if (flagged) return undefined;
        const members = Object.entries(flatten(doc, property)?.properties ?? {}).filter(([n]) => n !== 'link');
        const unflagged = members.filter(([, p]) => extensionsOf(doc, p)[flag] !== true).map(([n]) => n);
        return !members.length || unflagged.length ? `${path}: a natural-key reference whose key members ${unflagged.join(', ') || '(none described)'} are not flagged ${flag}` : undefined;
      }
      // Upstream also flags a descriptor's codeValue and namespace (its unique key): no claim the seed refutes.
      if (r.isDescriptor && (path.endsWith('.codeValue') || path.endsWith('.namespace'))) return undefined;
      if (flagged !== !!field.identity) return `${path}: ${field.identity ? `a natural-key member not flagged ${flag}` : `flagged ${flag}, but not part of the natural key`}`;
      return undefined;
    }, (r, schema) => ['id', '_etag', '_lastModifiedDate']
      .filter((name) => extensionsOf(doc, flatten(doc, schema)?.properties?.[name])[flag] === true)
      .map((name) => `$${r.name}.${name}: flagged ${flag}, but a system member`));
    expect(judged.descriptors, 'descriptor resources judged').toBeGreaterThan(0);
    expect(judged.resources, 'resources judged').toBeGreaterThan(0);
    expect(wrong, `${wrong.length} members misflagged`).toEqual([]);
  });

  test('marks resources whose PUT may change the natural key with x-Core-isUpdatable: true, and no others', rule('data.discovery.x-core-is-updatable'), async ({ request }) => {
    const doc = await interfaceDescription(request);
    const flag = `${extensionPrefix()}isUpdatable`;
    for (const name of [...seedResources, 'session', 'section', 'studentSchoolAssociation']) {
      const r = resourceOf(name);
      const schema = flatten(doc, resourceSchema(doc, r.endpoint));
      expect.soft(schema?.[flag] === true, `${r.endpoint} ${flag}`).toBe(r.updatable);
    }
  });

  test('marks every nullable member of every resource and descriptor with x-nullable: true', rule('data.discovery.x-nullable'), async ({ request }) => {
    const doc = await interfaceDescription(request);
    let nullable = 0;
    const { wrong, judged } = judgeEveryResource(doc, (_r, { path, field, property }) => {
      if (!field.nullable) return undefined;
      nullable++;
      if (!property) return `${path}: a nullable member the description leaves out`;
      return extensionsOf(doc, property)['x-nullable'] === true ? undefined : `${path}: a nullable member not flagged x-nullable`;
    });
    expect(judged.descriptors, 'descriptor resources judged').toBeGreaterThan(0);
    expect(nullable, 'nullable members judged').toBeGreaterThan(0);
    expect(wrong, `${wrong.length} nullable members unflagged`).toEqual([]);
  });

  test('marks deprecated fields with x-Core-isDeprecated and a reason in x-Core-deprecatedReasons', rule('data.discovery.deprecated-fields-flagged'), async ({ request }) => {
    const doc = await interfaceDescription(request);
    let seen = 0;
    for (const r of seedResources.map(resourceOf)) {
      for (const { path, field, property } of pairs(doc, r.fields, resourceSchema(doc, r.endpoint), `$${r.name}`)) {
        if (!field.deprecated) continue;
        seen++;
        const ext = extensionsOf(doc, property);
        expect.soft(ext[`${extensionPrefix()}isDeprecated`], path).toBe(true);
        const reasons = ext[`${extensionPrefix()}deprecatedReasons`];
        expect.soft(Array.isArray(reasons) && reasons.length > 0 && reasons.every((x) => typeof x === 'string' && x.length > 0), `${path} reasons`).toBe(true);
      }
    }
    if (!seen) notInStandard('deprecated member in the seed\'s resources');
  });

  test('flags courseTranscript.alternativeCourseCode as deprecated in favour of alternativeCourseIdentificationCodes', rule('data.discovery.alternative-course-code-deprecated'), async ({ request }) => {
    // 4.0's member (the seed's row); 5.2 and 6.1 as upstream have none.
    if (!resourceOf('courseTranscript').fields.alternativeCourseCode) notInStandard('courseTranscript.alternativeCourseCode');
    const doc = await interfaceDescription(request);
    const ext = extensionsOf(doc, flatten(doc, resourceSchema(doc, 'courseTranscripts'))?.properties?.alternativeCourseCode);
    expect(ext[`${extensionPrefix()}isDeprecated`]).toBe(true);
    expect(JSON.stringify(ext[`${extensionPrefix()}deprecatedReasons`])).toContain('alternativeCourseIdentificationCodes');
  });
});

test.describe('documented responses', () => {
  const statuses = (op: unknown) => Object.keys((op as { responses?: object } | undefined)?.responses ?? {});

  /**
   * Every operation of every resource the model has, descriptors included (decision 43): the
   * responses it lists hold every status the seed names for it. Returns what is missing.
   */
  function missingResponses(doc: OpenApiDocument, operations: { suffix: string; method: string }[], codes: string[]): string[] {
    const missing: string[] = [];
    let judged = 0;
    for (const r of model.resources) {
      for (const { suffix, method } of operations) {
        const op = pathOf(doc, r.endpoint, suffix)?.[method];
        const where = `${method.toUpperCase()} ${r.endpoint}${suffix}`;
        if (!op) {
          missing.push(`${where}: not described`);
          continue;
        }
        judged++;
        const listed = statuses(op);
        const absent = codes.filter((c) => !listed.includes(c));
        if (absent.length) missing.push(`${where}: lists no ${absent.join(', ')}`);
      }
    }
    expect(judged, 'operations judged').toBeGreaterThan(0);
    return missing;
  }

  test('lists 200, 304, 400, 401, 403, 404 and 500 for GET collection, /deletes and /keyChanges of every resource', rule('data.discovery.response-codes-get-collection-and-feeds'), async ({ request }) => {
    const doc = await interfaceDescription(request);
    const operations = ['', '/deletes', '/keyChanges'].map((suffix) => ({ suffix, method: 'get' }));
    expect(missingResponses(doc, operations, ['200', '304', '400', '401', '403', '404', '500'])).toEqual([]);
  });

  test('lists 200, 201, 400, 401, 403, 405, 409, 412 and 500 for POST of every resource', rule('data.discovery.response-codes-post'), async ({ request }) => {
    const doc = await interfaceDescription(request);
    expect(missingResponses(doc, [{ suffix: '', method: 'post' }], ['200', '201', '400', '401', '403', '405', '409', '412', '500'])).toEqual([]);
  });

  test('lists 204, 400, 401, 403, 404, 405, 409, 412 and 500 for PUT and DELETE of every resource', rule('data.discovery.response-codes-put-delete'), async ({ request }) => {
    const doc = await interfaceDescription(request);
    const operations = ['put', 'delete'].map((method) => ({ suffix: '/{id}', method }));
    expect(missingResponses(doc, operations, ['204', '400', '401', '403', '404', '405', '409', '412', '500'])).toEqual([]);
  });

  test('lists 200, 304, 400, 401, 403, 404 and 500 for GET by id of every resource', rule('data.discovery.response-codes-get-by-id'), async ({ request }) => {
    const doc = await interfaceDescription(request);
    expect(missingResponses(doc, [{ suffix: '/{id}', method: 'get' }], ['200', '304', '400', '401', '403', '404', '500'])).toEqual([]);
  });
});
