import type { Schema } from './json-schema.js';

/**
 * The rostering read service's interface description: OneRoster 1.2-shaped reads under
 * `/std/roster/rostering/v1p2`. The seed leaves the payloads "not shown"; the shapes follow the
 * public 1.2 rostering standard as summarised in research/rostering.md §6: every member its
 * record schemas define, those upstream never sends included (its binding allows no others but
 * inside metadata and a credential).
 */
export const ROSTER_PREFIX = '/std/roster/rostering/v1p2';

export const SCOPES = {
  core: 'roster-core.readonly',
  full: 'roster.readonly',
  demographics: 'roster-demographics.readonly',
} as const;

/**
 * Endpoint → backing type, collection key, single key, the scope family that opens it, and for
 * the subset endpoints the fixed restriction on the base object (`type` of an org or session,
 * the role of a user).
 */
export const ROSTER_ENDPOINTS = [
  { endpoint: 'academicSessions', type: 'academicSession', collectionKey: 'academicSessions', singleKey: 'academicSession', scope: 'core' },
  { endpoint: 'terms', type: 'academicSession', collectionKey: 'academicSessions', singleKey: 'academicSession', scope: 'core', subset: { path: 'type', equals: 'term' } },
  { endpoint: 'gradingPeriods', type: 'academicSession', collectionKey: 'academicSessions', singleKey: 'academicSession', scope: 'core', subset: { path: 'type', equals: 'gradingPeriod' } },
  { endpoint: 'classes', type: 'class', collectionKey: 'classes', singleKey: 'class', scope: 'core' },
  { endpoint: 'courses', type: 'course', collectionKey: 'courses', singleKey: 'course', scope: 'core' },
  { endpoint: 'enrollments', type: 'enrollment', collectionKey: 'enrollments', singleKey: 'enrollment', scope: 'core' },
  { endpoint: 'orgs', type: 'org', collectionKey: 'orgs', singleKey: 'org', scope: 'core' },
  { endpoint: 'schools', type: 'org', collectionKey: 'orgs', singleKey: 'org', scope: 'core', subset: { path: 'type', equals: 'school' } },
  { endpoint: 'users', type: 'user', collectionKey: 'users', singleKey: 'user', scope: 'core' },
  { endpoint: 'students', type: 'user', collectionKey: 'users', singleKey: 'user', scope: 'core', subset: { path: 'roles[*].role', equals: 'student' } },
  { endpoint: 'teachers', type: 'user', collectionKey: 'users', singleKey: 'user', scope: 'core', subset: { path: 'roles[*].role', equals: 'teacher' } },
  { endpoint: 'demographics', type: 'demographics', collectionKey: 'demographics', singleKey: 'demographics', scope: 'demographics' },
] as const;

export type RosterType = (typeof ROSTER_ENDPOINTS)[number]['type'];

/**
 * Fields a `filter` (and `sort`) may name, per type: the upstream allow-list
 * (research/rostering.md §4.2). Array fields (`roles`, `periods`) match when any item does.
 */
export const FILTERABLE: Record<RosterType, string[]> = {
  academicSession: ['sourcedId', 'status', 'dateLastModified', 'title', 'type', 'startDate', 'endDate', 'schoolYear'],
  class: ['sourcedId', 'status', 'dateLastModified', 'title', 'classCode', 'classType', 'location', 'periods'],
  course: ['sourcedId', 'status', 'dateLastModified', 'title', 'courseCode'],
  demographics: ['sourcedId', 'status', 'dateLastModified', 'birthDate', 'sex', 'americanIndianOrAlaskaNative', 'asian', 'blackOrAfricanAmerican',
    'nativeHawaiianOrOtherPacificIslander', 'white', 'demographicRaceTwoOrMoreRaces', 'hispanicOrLatinoEthnicity', 'countryOfBirthCode',
    'stateOfBirthAbbreviation', 'cityOfBirth'],
  enrollment: ['sourcedId', 'status', 'dateLastModified', 'role', 'primary', 'beginDate', 'endDate'],
  org: ['sourcedId', 'status', 'dateLastModified', 'name', 'type', 'identifier'],
  user: ['sourcedId', 'status', 'dateLastModified', 'username', 'enabledUser', 'givenName', 'familyName', 'middleName', 'preferredFirstName',
    'preferredMiddleName', 'preferredLastName', 'roles', 'identifier', 'email'],
};

/** Default and maximum page size (research/rostering.md §3). */
export const PAGE_SIZE = { default: 100, maximum: 500 } as const;

const str = { type: 'string' };
const date = { type: 'string', format: 'date' };
const boolString = { type: 'string', enum: ['true', 'false'] };
const guidRef = (type: string) => ({
  type: 'object', required: ['href', 'sourcedId', 'type'],
  properties: { href: { type: 'string', format: 'uri' }, sourcedId: str, type: { type: 'string', enum: [type] } },
});
const base = (required: string[], properties: Record<string, Schema>): Schema => ({
  type: 'object',
  required: ['sourcedId', 'status', 'dateLastModified', ...required],
  properties: {
    sourcedId: str,
    status: { type: 'string', enum: ['active', 'tobedeleted'] },
    dateLastModified: { type: 'string', format: 'date-time' },
    metadata: { type: 'object' },
    ...properties,
  },
});

const TYPES: Record<RosterType, Schema> = {
  academicSession: base(['title', 'startDate', 'endDate', 'type', 'schoolYear'], {
    title: str, startDate: date, endDate: date,
    type: { type: 'string', enum: ['gradingPeriod', 'semester', 'schoolYear', 'term'] },
    parent: guidRef('academicSession'), children: { type: 'array', items: guidRef('academicSession') },
    schoolYear: { type: 'string', pattern: '^\\d{4}$' },
  }),
  class: base(['title', 'course', 'school', 'terms'], {
    title: str, classCode: str, classType: { type: 'string', enum: ['homeroom', 'scheduled'] }, location: str,
    grades: { type: 'array', items: str }, subjects: { type: 'array', items: str },
    course: guidRef('course'), school: guidRef('org'), terms: { type: 'array', minItems: 1, items: guidRef('academicSession') },
    subjectCodes: { type: 'array', items: str }, periods: { type: 'array', items: str },
    resources: { type: 'array', items: guidRef('resource') },
  }),
  course: base(['title', 'courseCode'], {
    title: str, schoolYear: guidRef('academicSession'), courseCode: str,
    grades: { type: 'array', items: str }, subjects: { type: 'array', items: str }, org: guidRef('org'),
    subjectCodes: { type: 'array', items: str }, resources: { type: 'array', items: guidRef('resource') },
  }),
  demographics: base([], {
    birthDate: date, sex: { type: 'string', enum: ['male', 'female', 'unspecified', 'other'] },
    americanIndianOrAlaskaNative: boolString, asian: boolString, blackOrAfricanAmerican: boolString,
    nativeHawaiianOrOtherPacificIslander: boolString, white: boolString, demographicRaceTwoOrMoreRaces: boolString,
    hispanicOrLatinoEthnicity: boolString, countryOfBirthCode: str, stateOfBirthAbbreviation: str, cityOfBirth: str,
    // In the 1.2 schema; upstream never sends it.
    publicSchoolResidenceStatus: str,
  }),
  enrollment: base(['user', 'class', 'school', 'role'], {
    user: guidRef('user'), class: guidRef('class'), school: guidRef('org'),
    role: { type: 'string', enum: ['administrator', 'proctor', 'student', 'teacher'] },
    primary: boolString, beginDate: date, endDate: date,
  }),
  org: base(['name', 'type', 'identifier'], {
    name: str, type: { type: 'string', enum: ['department', 'district', 'local', 'national', 'school', 'state'] },
    identifier: str, parent: guidRef('org'), children: { type: 'array', items: guidRef('org') },
  }),
  user: base(['enabledUser', 'givenName', 'familyName', 'roles'], {
    userMasterIdentifier: str, username: str,
    userIds: { type: 'array', items: { type: 'object', required: ['type', 'identifier'], properties: { type: str, identifier: str } } },
    enabledUser: boolString, givenName: str, familyName: str, middleName: str,
    preferredFirstName: str, preferredMiddleName: str, preferredLastName: str,
    roles: {
      type: 'array', minItems: 1,
      items: {
        type: 'object', required: ['roleType', 'role', 'org'],
        properties: {
          roleType: { type: 'string', enum: ['primary', 'secondary'] },
          role: { type: 'string', enum: ['aide', 'counselor', 'districtAdministrator', 'guardian', 'parent', 'principal', 'proctor', 'relative', 'siteAdministrator', 'student', 'systemAdministrator', 'teacher'] },
          org: guidRef('org'), userProfile: str, beginDate: date, endDate: date,
        },
      },
    },
    identifier: str, email: str, grades: { type: 'array', items: str },
    // The rest of the 1.2 user schema, which upstream never sends: every member a 1.2 user record
    // may hold (the standard's binding allows no others; extensions go in metadata), so the
    // suites can tell a member of the standard from one a deployment made up.
    pronouns: str, primaryOrg: guidRef('org'), sms: str, phone: str, password: str,
    agents: { type: 'array', items: guidRef('user') },
    userProfiles: {
      type: 'array',
      items: {
        type: 'object', required: ['profileId', 'profileType', 'vendorId'],
        properties: {
          profileId: str, profileType: str, vendorId: str, applicationId: str, description: str,
          credentials: { type: 'array', items: { type: 'object', required: ['type', 'username'], properties: { type: str, username: str, password: str }, additionalProperties: true } },
        },
      },
    },
    resources: { type: 'array', items: guidRef('resource') },
  }),
};

const statusInfo: Schema = {
  type: 'object',
  required: ['stdx_codeMajor', 'stdx_severity'],
  properties: {
    stdx_codeMajor: { type: 'string', enum: ['success', 'processing', 'failure', 'unsupported'] },
    stdx_severity: { type: 'string', enum: ['status', 'warning', 'error'] },
    stdx_description: str,
    stdx_codeMinor: str,
  },
};

export function buildRosteringDocument(): Schema {
  const q = (name: string, schema: Schema, description: string) => ({ name, in: 'query', description, schema });
  const fields = q('fields', str, 'Comma-separated list of fields to return; an unknown field gives 400.');
  const listParams = [
    q('limit', { type: 'integer', minimum: 1, default: PAGE_SIZE.default }, `Page size (default ${PAGE_SIZE.default}; larger values are clamped to ${PAGE_SIZE.maximum}).`),
    q('offset', { type: 'integer', minimum: 0, default: 0 }, 'Number of records to skip.'),
    q('sort', str, 'Comma-separated fields to sort by (default: sourcedId).'),
    q('orderBy', { type: 'string', enum: ['asc', 'desc'] }, 'Sort direction.'),
    q('filter', str, "Filter expression: field, operator (= != > >= < <= ~) and quoted value, joined by AND / OR (AND binds tighter), at most 20 clauses."),
    fields,
  ];
  const failure = (description: string) => ({ description, content: { 'application/json': { schema: { $ref: '#/components/schemas/stdx_StatusInfo' } } } });
  const pascal = (s: string) => `${s.charAt(0).toUpperCase()}${s.slice(1)}`;
  const paths: Record<string, Schema> = {};
  for (const e of ROSTER_ENDPOINTS) {
    const scopes = e.scope === 'demographics' ? [SCOPES.demographics] : [SCOPES.core, SCOPES.full];
    const security = scopes.map((s) => ({ bearer: [s] }));
    const typeRef = { $ref: `#/components/schemas/${e.type}` };
    const subset = 'subset' in e ? { 'x-subset': e.subset } : {};
    paths[`${ROSTER_PREFIX}/${e.endpoint}`] = {
      get: {
        operationId: `getAll${pascal(e.endpoint)}`,
        summary: `Reads ${e.endpoint}.`, security, parameters: listParams,
        'x-filterable-fields': FILTERABLE[e.type], ...subset,
        responses: {
          200: {
            description: 'The records.',
            headers: { 'X-Total-Count': { description: 'Number of matching records, ignoring paging.', schema: { type: 'integer' } } },
            content: { 'application/json': { schema: { type: 'object', required: [e.collectionKey], properties: { [e.collectionKey]: { type: 'array', items: typeRef } } } } },
          },
          400: failure('Invalid query parameter (stdx_codeMinor invalid_data), or a missing route context.'),
          401: failure('A token check failed, or the tenantId claim does not match the route tenant.'),
          404: failure('Unknown tenant, or no data-store instance for the token.'),
          500: failure('Server error.'),
        },
      },
    };
    paths[`${ROSTER_PREFIX}/${e.endpoint}/{sourcedId}`] = {
      get: {
        operationId: `get${pascal(e.type)}From${pascal(e.endpoint)}`,
        summary: `Reads one of ${e.endpoint}.`, security, ...subset,
        parameters: [{ name: 'sourcedId', in: 'path', required: true, schema: str }, fields],
        responses: {
          200: { description: 'The record.', content: { 'application/json': { schema: { type: 'object', required: [e.singleKey], properties: { [e.singleKey]: typeRef } } } } },
          400: failure('Invalid query parameter (stdx_codeMinor invalid_data), or a missing route context.'),
          401: failure('A token check failed, or the tenantId claim does not match the route tenant.'),
          404: failure('Unknown record (or one outside the caller\'s organizations), unknown tenant.'),
          500: failure('Server error.'),
        },
      },
    };
  }
  return {
    openapi: '3.0.3',
    info: {
      title: 'Rostering read service',
      version: '1.2',
      description: 'OneRoster 1.2-shaped reads over the education data store. Tokens come from the data API token endpoint (RS256). Path shapes: {base}, {base}/<context>, {base}/<tenant>, {base}/<tenant>/<context> before the prefix. Null members are omitted. Generated; do not edit.',
    },
    servers: [{ url: '{baseUrl}', variables: { baseUrl: { default: 'http://localhost:8081' } } }],
    paths,
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      schemas: { ...TYPES, stdx_StatusInfo: statusInfo },
    },
  };
}
