import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { upstream, type UpstreamProperty } from '../../../spec/model/upstream.js';
import { overlay } from '../../../spec/model/overlay.js';
import { extractCorrections } from '../../../spec/model/annotations.js';
import { model } from '../../../spec/model/index.js';
import { Builder } from '../builders.js';
import { recordingClient } from './recording-client.js';

/**
 * Every body the suites' builders produce is one a real deployment accepts: validated against
 * JSON Schemas written straight from the pinned upstream extract (not from our model), closed to
 * unknown members except the seed's additions (which upstream ignores) and the extract's known
 * omissions (annotations.extractCorrections).
 */
type Schema = Record<string, unknown>;

const INT_BOUNDS = { int32: [-2147483648, 2147483647], int64: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER] } as const;

function propertySchema(p: UpstreamProperty): Schema {
  switch (p.type) {
    case 'string': return { type: 'string', ...(p.maxLength !== undefined ? { maxLength: p.maxLength } : {}), ...(p.minLength !== undefined ? { minLength: p.minLength } : {}) };
    case 'integer': {
      const [min, max] = INT_BOUNDS[p.format ?? 'int32'];
      return { type: 'integer', minimum: p.minInclusive ?? min, maximum: p.maxInclusive ?? max };
    }
    case 'number': {
      const s: Schema = { type: 'number' };
      if (p.totalDigits !== undefined) {
        const limit = 10 ** (p.totalDigits - (p.fractionDigits ?? 0));
        s.exclusiveMaximum = limit;
        s.exclusiveMinimum = -limit;
      }
      if (p.minInclusive !== undefined) s.minimum = p.minInclusive;
      if (p.maxInclusive !== undefined) s.maximum = p.maxInclusive;
      return s;
    }
    case 'boolean': return { type: 'boolean' };
    case 'date': return { type: 'string', format: 'date' };
    case 'date-time': return { type: 'string', format: 'date-time' };
    case 'time': return { type: 'string', pattern: '^\\d{2}:\\d{2}:\\d{2}$' };
    case 'descriptor': return { type: 'string', maxLength: 306, pattern: '^[^#]+#.+$' };
    case 'reference': return objectOf(p.fields!);
    case 'collection': return { type: 'array', items: objectOf(p.item!), ...(p.required ? { minItems: 1 } : {}) };
    case 'object': return objectOf(p.properties!);
  }
}

function objectOf(props: Record<string, UpstreamProperty>, extra: Record<string, Schema> = {}): Schema {
  const properties: Record<string, Schema> = { ...extra };
  for (const [name, p] of Object.entries(props)) properties[name] = propertySchema(p);
  const required = Object.entries(props).filter(([, p]) => p.required || p.identity).map(([n]) => n);
  return { type: 'object', properties, ...(required.length ? { required } : {}), additionalProperties: false };
}

/** The upstream schema of a resource, opened where the overlay adds members and the extract drops fields. */
function upstreamSchema(resourceName: string, resource: string): Schema {
  const schema = objectOf(upstream.resources[resourceName].properties);
  for (const e of overlay) if (e.resource === resource && e.add) (schema.properties as Record<string, Schema>)[e.member!] = {};
  for (const c of extractCorrections) {
    const [name, path] = c.at.split(' ');
    if (name !== resource) continue;
    // $.a[*].b.c → walk to the object holding c and allow it
    const steps = path.slice(2).split('.');
    let node = schema;
    for (const step of steps.slice(0, -1)) {
      const key = step.replace('[*]', '');
      node = (node.properties as Record<string, Schema>)[key];
      if (step.endsWith('[*]')) node = node.items as Schema;
    }
    (node.properties as Record<string, Schema>)[steps.at(-1)!] = {};
  }
  return schema;
}

test('every body the builders produce, minimal and full, is valid against the upstream shapes', async () => {
  const ajv = new Ajv({ allErrors: true, strict: false });
  addFormats.default(ajv);
  const descriptorSchema = ajv.compile(objectOf(upstream.descriptorShape));
  const validators = new Map<string, ValidateFunction>();
  for (const [name, r] of Object.entries(upstream.resources)) {
    const res = model.byEndpoint.get(r.endpoint.toLowerCase());
    if (res) validators.set(res.endpoint, ajv.compile(upstreamSchema(name, res.name)));
  }
  const failures: string[] = [];
  let checked = 0;
  for (const r of model.resources) {
    if (r.isDescriptor || r.isSchoolYearEnumeration || !validators.has(r.endpoint)) continue;
    for (const full of [false, true]) {
      const posted: { endpoint: string; body: Record<string, unknown> }[] = [];
      await new Builder(recordingClient(posted)).create(r.name, {}, { full });
      for (const { endpoint, body } of posted) {
        const target = model.byEndpoint.get(endpoint.toLowerCase())!;
        const validate = target.isDescriptor ? descriptorSchema : validators.get(target.endpoint);
        if (!validate) continue; // the seed's learningObjectives: not an upstream endpoint
        checked++;
        if (!validate(body)) failures.push(`${r.name}${full ? ' (full)' : ''} → ${endpoint}: ${ajv.errorsText(validate.errors)}`);
      }
    }
  }
  assert.ok(checked > 1000, `checked ${checked} bodies`);
  assert.deepEqual([...new Set(failures)], []);
});

test('the upstream check refuses what a real deployment refuses', () => {
  const ajv = new Ajv({ allErrors: true, strict: false });
  addFormats.default(ajv);
  const school = ajv.compile(upstreamSchema('School', 'school'));
  const body = {
    schoolId: 255901001, nameOfInstitution: 'A', gradeLevels: [{ gradeLevelDescriptor: 'uri://x/GradeLevelDescriptor#Ninth' }],
    educationOrganizationCategories: [{ educationOrganizationCategoryDescriptor: 'uri://x/EducationOrganizationCategoryDescriptor#School' }],
  };
  assert.equal(school(body), true, ajv.errorsText(school.errors));
  const { educationOrganizationCategories, ...rest } = body;
  assert.equal(school({ ...rest, categories: educationOrganizationCategories }), false, 'the old model\'s categories');
  const staff = ajv.compile(upstreamSchema('Staff', 'staff'));
  assert.equal(staff({ staffUniqueId: 's', firstName: 'A', lastSurname: 'B', yearsOfPriorProfessionalExperience: 1000 }), false, 'above 999.99');
});
