import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { test } from 'node:test';
import { Ajv } from 'ajv';
import { OpenAPIBackend } from 'openapi-backend';

/** The generated and hand-kept files of spec/ are valid and consistent with one another. */
// JSON of several shapes; the assertions below check what they use.
const read = (p: string): any => JSON.parse(readFileSync(new URL(`../${p}`, import.meta.url), "utf8"));
const ajv = new Ajv({ strict: false, allErrors: true });

// With the documents a deployment of each data standard serves (spec/model/served.ts).
const perStandard = ['4.0', '5.2', '6.1'].flatMap((v) => [`openapi-standards/ds-${v}/resources.json`, `openapi-standards/ds-${v}/descriptors.json`]);
for (const doc of ['openapi/other.json', 'openapi/rostering.json', ...perStandard]) {
  test(`${doc} is a valid OpenAPI document`, async () => {
    const api = new OpenAPIBackend({ definition: read(doc) });
    await api.loadDocument();
    assert.doesNotThrow(() => api.validateDefinition());
  });
}

test('the resources document carries the seed interface-description extensions', () => {
  const schemas = read('openapi-standards/ds-4.0/resources.json').components.schemas;
  assert.equal(schemas.core_academicWeek.properties.weekIdentifier['x-Core-isIdentity'], true);
  assert.equal(schemas.core_classPeriod['x-Core-isUpdatable'], true);
  assert.equal(schemas.core_accountabilityRating.properties.ratingDate['x-nullable'], true);
  assert.equal(schemas.core_courseTranscript.properties.alternativeCourseCode['x-Core-isDeprecated'], true);
  assert.ok(schemas.core_courseTranscript.properties.alternativeCourseCode['x-Core-deprecatedReasons'].length);
});

test('the documents are laid out as upstream: sections, data-root server, named reference and item schemas, plain $ref', () => {
  const resources = read('openapi-standards/ds-4.0/resources.json');
  const descriptors = read('openapi-standards/ds-4.0/descriptors.json');
  assert.equal(resources.servers[0].url, '{baseUrl}/data/v3');
  assert.ok(resources.paths['/core/schools'] && resources.paths['/core/schools/{id}'] && resources.paths['/core/schools/partitions']);
  assert.ok(!resources.paths['/core/gradeLevelDescriptors'] && descriptors.paths['/core/gradeLevelDescriptors']);
  assert.ok(!Object.keys(resources.paths).some((p: string) => p.startsWith('/oauth') || p === '/'), 'fixed endpoints live in other.json');
  assert.ok(read('openapi/other.json').paths['/oauth/token']);
  const schemas = resources.components.schemas;
  const school = schemas.core_school.properties;
  assert.deepEqual(school.localEducationAgencyReference, { $ref: '#/components/schemas/core_localEducationAgencyReference' });
  assert.equal(school.educationOrganizationCategories.items.$ref, '#/components/schemas/core_school_educationOrganizationCategory');
  assert.ok(schemas.core_school_address_period, 'nested items are named too');
  assert.equal(schemas.core_schoolReference.properties.schoolId['x-Core-isIdentity'], true);
  assert.ok(!JSON.stringify(resources).includes('"allOf"'), 'no allOf wrappers');
});

const rules = readdirSync(new URL('../rules/', import.meta.url)).filter((f) => f.endsWith('.rules.json')).flatMap((f) => read(`rules/${f}`).rules as { id: string; problemType?: string }[]);

test('the rule catalog files follow their schema and ids are unique', () => {
  const validate = ajv.compile(read('schemas/rule-catalog.schema.json'));
  for (const f of readdirSync(new URL('../rules/', import.meta.url)).filter((x) => x.endsWith('.rules.json'))) {
    assert.ok(validate(read(`rules/${f}`)), `${f}: ${JSON.stringify(validate.errors?.slice(0, 3))}`);
  }
  const ids = rules.map((r) => r.id);
  assert.equal(new Set(ids).size, ids.length);
  assert.ok(ids.length > 150, `only ${ids.length} rules`);
});

test('every problem type a rule names is registered', () => {
  const registry: { problemTypes: { suffix: string }[] } = read('errors/problem-types.json');
  const valid = ajv.compile(read('schemas/problem-types.schema.json'))(registry);
  assert.ok(valid, 'problem-types.json follows its schema');
  const suffixes = new Set(registry.problemTypes.map((p: { suffix: string }) => p.suffix));
  for (const r of rules) if (r.problemType) assert.ok(suffixes.has(r.problemType), `${r.id}: ${r.problemType}`);
});
