import { test, expect } from '../_harness/data.js';
import { resourceOf } from '../_harness/builders.js';
import { extensionPrefix, extensionsOf, interfaceDescription, pathOf, resolve, resourceSchema, type OpenApiDocument, type Schema } from '../_harness/interface-description.js';
import type { Fields } from '../../spec/model/dsl.js';
import { rule } from '../_harness/rules.js';

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

function flatten(doc: OpenApiDocument, schema: Schema | undefined): Schema | undefined {
  const s = resolve(doc, schema);
  if (!s?.allOf) return s;
  return s.allOf.map((part) => flatten(doc, part)).reduce<Schema>((acc, part) => ({ ...acc, ...part, properties: { ...(acc.properties ?? {}), ...(part?.properties ?? {}) } }), { ...s, allOf: undefined });
}

test.describe('x- extensions of the interface description', () => {
  test('marks every natural-key field with x-Core-isIdentity: true', rule('data.discovery.x-core-is-identity'), async ({ request }) => {
    const doc = await interfaceDescription(request);
    const flag = `${extensionPrefix()}isIdentity`;
    for (const name of seedResources) {
      const r = resourceOf(name);
      const schema = resourceSchema(doc, r.endpoint);
      expect(schema, `${r.endpoint} schema`).toBeDefined();
      for (const { path, field, property } of pairs(doc, r.fields, schema, `$${name}`)) {
        if (!field.identity) continue;
        // A reference in the key is a plain $ref (upstream): the key fields it holds carry the flag.
        const members = field.kind === 'reference' && !extensionsOf(doc, property)[flag] ? Object.entries(flatten(doc, property)?.properties ?? {}).filter(([n]) => n !== 'link') : [];
        if (members.length) for (const [n, p] of members) expect.soft(extensionsOf(doc, p)[flag], `${path}.${n} ${flag}`).toBe(true);
        else expect.soft(extensionsOf(doc, property)[flag], `${path} ${flag}`).toBe(true);
      }
    }
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

  test('marks nullable fields with x-nullable: true', rule('data.discovery.x-nullable'), async ({ request }) => {
    const doc = await interfaceDescription(request);
    for (const name of seedResources) {
      const r = resourceOf(name);
      for (const { path, field, property } of pairs(doc, r.fields, resourceSchema(doc, r.endpoint), `$${name}`)) {
        if (field.nullable) expect.soft(extensionsOf(doc, property)['x-nullable'], `${path} x-nullable`).toBe(true);
      }
    }
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
    expect(seen).toBeGreaterThan(0);
  });

  test('flags courseTranscript.alternativeCourseCode as deprecated in favour of alternativeCourseIdentificationCodes', rule('data.discovery.alternative-course-code-deprecated'), async ({ request }) => {
    const doc = await interfaceDescription(request);
    const ext = extensionsOf(doc, flatten(doc, resourceSchema(doc, 'courseTranscripts'))?.properties?.alternativeCourseCode);
    expect(ext[`${extensionPrefix()}isDeprecated`]).toBe(true);
    expect(JSON.stringify(ext[`${extensionPrefix()}deprecatedReasons`])).toContain('alternativeCourseIdentificationCodes');
  });
});

test.describe('documented responses', () => {
  const statuses = (op: unknown) => Object.keys((op as { responses?: object } | undefined)?.responses ?? {}).sort();

  test('lists 200, 304, 400, 401, 403, 404 and 500 for GET collection, /deletes and /keyChanges', rule('data.discovery.response-codes-get-collection-and-feeds'), async ({ request }) => {
    const doc = await interfaceDescription(request);
    for (const suffix of ['', '/deletes', '/keyChanges']) {
      for (const endpoint of ['academicWeeks', 'assessments', 'academicSubjectDescriptors']) {
        expect.soft(statuses(pathOf(doc, endpoint, suffix)?.get), `GET ${endpoint}${suffix}`).toEqual(expect.arrayContaining(['200', '304', '400', '401', '403', '404', '500']));
      }
    }
  });

  test('lists 200, 201, 400, 401, 403, 405, 409, 412 and 500 for POST', rule('data.discovery.response-codes-post'), async ({ request }) => {
    const doc = await interfaceDescription(request);
    for (const endpoint of ['academicWeeks', 'assessments', 'academicSubjectDescriptors']) {
      expect.soft(statuses(pathOf(doc, endpoint)?.post), `POST ${endpoint}`).toEqual(expect.arrayContaining(['200', '201', '400', '401', '403', '405', '409', '412', '500']));
    }
  });

  test('lists 204, 400, 401, 403, 404, 405, 409, 412 and 500 for PUT and DELETE', rule('data.discovery.response-codes-put-delete'), async ({ request }) => {
    const doc = await interfaceDescription(request);
    for (const endpoint of ['academicWeeks', 'assessments', 'academicSubjectDescriptors']) {
      for (const method of ['put', 'delete']) {
        expect.soft(statuses(pathOf(doc, endpoint, '/{id}')?.[method]), `${method.toUpperCase()} ${endpoint}/{id}`).toEqual(expect.arrayContaining(['204', '400', '401', '403', '404', '405', '409', '412', '500']));
      }
    }
  });

  test('lists 200, 304, 400, 401, 403, 404 and 500 for GET by id', rule('data.discovery.response-codes-get-by-id'), async ({ request }) => {
    const doc = await interfaceDescription(request);
    for (const endpoint of ['academicWeeks', 'assessments', 'academicSubjectDescriptors']) {
      expect.soft(statuses(pathOf(doc, endpoint, '/{id}')?.get), `GET ${endpoint}/{id}`).toEqual(expect.arrayContaining(['200', '304', '400', '401', '403', '404', '500']));
    }
  });
});
