import type { CompiledModel, CompiledResource } from '../model/compiled.js';
import { NEUTRAL_NAMES } from '../naming/profiles.js';
import { SchemaRegistry, scalarSchema, type Schema } from './json-schema.js';

/** Paths and names the data API uses; the reference and the suites read them from here. */
export const DATA_ROOT = '/data/v3';
/** The generated documents' namespace segment (the seed's); deployments may name it otherwise (spec/naming). */
export const NAMESPACE_SEGMENT = NEUTRAL_NAMES.namespaceSegment;
export const TOKEN_PATH = '/oauth/token';
export const AVAILABLE_CHANGE_VERSIONS_PATH = '/changeQueries/v1/availableChangeVersions';
export const PAGE_SIZE_MAXIMUM = 500;

/** Operation ids follow the upstream convention: getAcademicWeeks, postAcademicWeek ... */
export function operationIds(r: CompiledResource) {
  const plural = r.endpoint.charAt(0).toUpperCase() + r.endpoint.slice(1);
  return {
    getAll: `get${plural}`,
    post: `post${r.resourceName}`,
    getById: `get${plural}ById`,
    put: `put${r.resourceName}`,
    delete: `delete${r.resourceName}ById`,
    deletes: `deletes${plural}`,
    keyChanges: `keyChanges${plural}`,
    partitions: `get${plural}Partitions`,
  } as const;
}

const errorResponses = (codes: number[]) =>
  Object.fromEntries(codes.map((c) => [String(c), { $ref: `#/components/responses/${RESPONSE_BY_CODE[c]}` }]));

const RESPONSE_BY_CODE: Record<number, string> = {
  304: 'NotModified', 400: 'BadRequest', 401: 'Unauthorized', 403: 'Forbidden', 404: 'NotFound',
  405: 'MethodNotAllowed', 409: 'Conflict', 412: 'PreconditionFailed', 415: 'UnsupportedMediaType', 500: 'Error',
};

const param = (name: string) => ({ $ref: `#/components/parameters/${name}` });

function queryParameters(r: CompiledResource) {
  return Object.entries(r.queryFields).map(([name, q]) => ({
    name,
    in: 'query',
    description: q.kind === 'id' ? 'Resource identifier.' : `Equality search on ${q.path}.`,
    schema: q.kind === 'id' ? { type: 'string' } : scalarSchema(q.kind),
  }));
}

/** Paths of a resource relative to the data root (`/core/<endpoint>…`), as upstream lays them out. */
function resourcePaths(r: CompiledResource, ref: Schema): Record<string, Schema> {
  const ops = operationIds(r);
  const base = `/${NAMESPACE_SEGMENT}/${r.endpoint}`;
  const tags = [r.endpoint];
  const feed = (operationId: string, item: string, summary: string) => ({
    get: {
      tags, operationId, summary,
      parameters: [param('offset'), param('limit'), param('MinChangeVersion'), param('MaxChangeVersion'), param('totalCount'), param('Use-Snapshot')],
      responses: {
        200: { description: 'The requested items.', content: { 'application/json': { schema: { type: 'array', items: { $ref: `#/components/schemas/${item}` } } } } },
        ...errorResponses([304, 400, 401, 403, 404, 500]),
      },
    },
  });
  return {
    [base]: {
      get: {
        tags, operationId: ops.getAll, summary: `Retrieves ${r.endpoint} (equality search on every scalar property).`,
        parameters: [param('offset'), param('limit'), param('pageToken'), param('pageSize'), param('MinChangeVersion'), param('MaxChangeVersion'), param('totalCount'), ...queryParameters(r), param('Use-Snapshot')],
        responses: {
          200: {
            description: 'The requested resources.',
            headers: { 'Total-Count': { $ref: '#/components/headers/Total-Count' }, 'Next-Page-Token': { $ref: '#/components/headers/Next-Page-Token' } },
            content: { 'application/json': { schema: { type: 'array', items: ref } } },
          },
          ...errorResponses([304, 400, 401, 403, 404, 500]),
        },
      },
      post: {
        tags, operationId: ops.post, summary: `Creates or updates a ${r.resourceName} by its natural key (upsert). The id must not be sent.`,
        requestBody: { required: true, content: { 'application/json': { schema: ref } } },
        responses: {
          200: { $ref: '#/components/responses/Updated' },
          201: { $ref: '#/components/responses/Created' },
          ...errorResponses([400, 401, 403, 405, 409, 412, 500]),
        },
      },
    },
    [`${base}/{id}`]: {
      get: {
        tags, operationId: ops.getById, summary: `Retrieves one ${r.resourceName} by id.`,
        parameters: [param('id'), param('If-None-Match'), param('Use-Snapshot')],
        responses: {
          200: { description: 'The resource.', headers: { ETag: { $ref: '#/components/headers/ETag' } }, content: { 'application/json': { schema: ref } } },
          ...errorResponses([304, 400, 401, 403, 404, 500]),
        },
      },
      put: {
        tags, operationId: ops.put, summary: `Replaces one ${r.resourceName} by id.${r.updatable ? ' Natural-key values may change; the change cascades.' : ' Natural-key values cannot change.'}`,
        parameters: [param('id'), param('If-Match')],
        requestBody: { required: true, content: { 'application/json': { schema: ref } } },
        responses: {
          204: { $ref: '#/components/responses/Updated204' },
          ...errorResponses([400, 401, 403, 404, 405, 409, 412, 500]),
        },
      },
      delete: {
        tags, operationId: ops.delete, summary: `Deletes one ${r.resourceName} by id.`,
        parameters: [param('id'), param('If-Match')],
        responses: { 204: { description: 'Deleted.' }, ...errorResponses([400, 401, 403, 404, 405, 409, 412, 500]) },
      },
    },
    [`${base}/partitions`]: {
      get: {
        tags, operationId: ops.partitions, summary: `Page tokens splitting the matching ${r.endpoint} into \`number\` ranges, each paged with pageToken and pageSize.`,
        parameters: [param('number'), param('MinChangeVersion'), param('MaxChangeVersion'), ...queryParameters(r), param('Use-Snapshot')],
        responses: {
          200: { description: 'The page tokens.', content: { 'application/json': { schema: { $ref: '#/components/schemas/pagePartitions' } } } },
          ...errorResponses([400, 401, 403, 404, 500]),
        },
      },
    },
    [`${base}/deletes`]: feed(ops.deletes, 'trackedChanges_deletedItem', `Deleted ${r.endpoint}, by change version.`),
    [`${base}/keyChanges`]: feed(ops.keyChanges, 'trackedChanges_keyChange', `Natural-key changes of ${r.endpoint}, by change version.`),
  };
}

const problemDetails: Schema = {
  type: 'object',
  required: ['type', 'title', 'status', 'detail', 'correlationId'],
  properties: {
    type: { type: 'string', description: 'URN: the error-type prefix followed by the problem type suffix.' },
    title: { type: 'string' },
    status: { type: 'integer' },
    detail: { type: 'string' },
    correlationId: { type: 'string' },
    validationErrors: { type: 'object', description: 'JSON path → messages.', additionalProperties: { type: 'array', items: { type: 'string' } } },
    errors: { type: 'array', items: { type: 'string' } },
  },
};

const json = (schema: string) => ({ 'application/json': { schema: { $ref: `#/components/schemas/${schema}` } } });
const problem = (description: string) => ({ description, content: json('problemDetails') });

/** Components every data document shares: paging and header parameters, headers, error responses. */
function sharedComponents(): Record<string, Schema> {
  return {
    securitySchemes: {
      oauth2_client_credentials: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: TOKEN_PATH, scopes: {} } } },
    },
    parameters: {
      offset: { name: 'offset', in: 'query', description: 'Number of items to skip.', schema: { type: 'integer', format: 'int32', minimum: 0 } },
      limit: { name: 'limit', in: 'query', description: `Page size, 0 to ${PAGE_SIZE_MAXIMUM} (the host may lower the maximum). Omitted: the maximum.`, schema: { type: 'integer', format: 'int32', minimum: 0, maximum: PAGE_SIZE_MAXIMUM } },
      pageToken: { name: 'pageToken', in: 'query', description: 'Cursor paging: where the page starts (from Next-Page-Token or partitions). Not with offset, limit or totalCount.', schema: { type: 'string' } },
      pageSize: { name: 'pageSize', in: 'query', description: `Cursor paging: page size, 1 to ${PAGE_SIZE_MAXIMUM}, with pageToken only.`, schema: { type: 'integer', format: 'int32' } },
      number: { name: 'number', in: 'query', description: 'How many partitions (page tokens) to make.', schema: { type: 'integer', format: 'int32', minimum: 1, maximum: 200, default: 1 } },
      MinChangeVersion: { name: 'MinChangeVersion', in: 'query', description: 'Inclusive lower bound on change version.', schema: { type: 'integer', format: 'int64' } },
      MaxChangeVersion: { name: 'MaxChangeVersion', in: 'query', description: 'Inclusive upper bound on change version.', schema: { type: 'integer', format: 'int64' } },
      totalCount: { name: 'totalCount', in: 'query', description: 'When true, the Total-Count header carries the number of matches ignoring paging.', schema: { type: 'boolean', default: false } },
      'Use-Snapshot': { name: 'Use-Snapshot', in: 'header', description: 'Read from the configured snapshot. Writes are refused (405) while true.', schema: { type: 'boolean', default: false } },
      'If-None-Match': { name: 'If-None-Match', in: 'header', description: 'An ETag; a match gives 304.', schema: { type: 'string' } },
      'If-Match': { name: 'If-Match', in: 'header', description: 'An ETag; a mismatch gives 412.', schema: { type: 'string' } },
      id: { name: 'id', in: 'path', required: true, description: 'Resource identifier.', schema: { type: 'string' } },
    },
    headers: {
      ETag: { description: 'The quoted _etag value.', schema: { type: 'string' } },
      'Total-Count': { description: 'Number of matches ignoring paging (with totalCount=true).', schema: { type: 'integer' } },
      'Next-Page-Token': { description: 'On every non-empty page: the pageToken of the page after it.', schema: { type: 'string' } },
      Location: { description: 'Absolute URL of the item.', schema: { type: 'string' } },
    },
    responses: {
      Created: { description: 'Created.', headers: { Location: { $ref: '#/components/headers/Location' }, ETag: { $ref: '#/components/headers/ETag' } } },
      Updated: { description: 'Updated.', headers: { Location: { $ref: '#/components/headers/Location' }, ETag: { $ref: '#/components/headers/ETag' } } },
      Updated204: { description: 'Updated.', headers: { ETag: { $ref: '#/components/headers/ETag' } } },
      NotModified: { description: 'Not modified (If-None-Match matched).' },
      BadRequest: problem('Bad request: bad-request, data-validation-failed, key-change-not-supported, parameter-validation-failed, profile usage.'),
      Unauthorized: problem('Authentication failed.'),
      Forbidden: problem('Authorization denied.'),
      NotFound: problem('Not found.'),
      MethodNotAllowed: problem('Method not allowed.'),
      Conflict: problem('Dependent item exists, unresolved reference or non-unique identity.'),
      PreconditionFailed: problem('Optimistic lock failed.'),
      UnsupportedMediaType: problem('Unsupported media type.'),
      Error: problem('System error.'),
    },
  };
}

const sharedSchemas: Record<string, Schema> = {
  problemDetails,
  trackedChanges_deletedItem: {
    type: 'object', required: ['id', 'changeVersion', 'keyValues'],
    properties: { id: { type: 'string' }, changeVersion: { type: 'integer', format: 'int64' }, keyValues: { type: 'object', description: 'Natural-key values keyed by query-parameter name.' } },
  },
  trackedChanges_keyChange: {
    type: 'object', required: ['id', 'changeVersion', 'oldKeyValues', 'newKeyValues'],
    properties: { id: { type: 'string' }, changeVersion: { type: 'integer', format: 'int64' }, oldKeyValues: { type: 'object' }, newKeyValues: { type: 'object' } },
  },
  pagePartitions: {
    type: 'object', required: ['pageTokens'],
    properties: { pageTokens: { type: 'array', items: { type: 'string' } } },
  },
};

const BASE_URL_VARIABLE = { baseUrl: { default: 'http://localhost:8080/v7.3/api', description: 'Service origin, release segment and /api.' } };

/**
 * One section of the data API as upstream serves it: its resources (or its descriptors) under
 * the server `{base_url}/data/v3`, paths `/core/<endpoint>…`, one named schema per resource,
 * reference target and collection item.
 */
function dataSection(model: CompiledModel, version: string, section: 'Resources' | 'Descriptors', describes: string): Schema {
  const resources = model.resources.filter((r) => r.isDescriptor === (section === 'Descriptors')).sort((a, b) => a.endpoint.localeCompare(b.endpoint));
  const registry = new SchemaRegistry(model);
  const paths: Record<string, Schema> = {};
  for (const r of resources) Object.assign(paths, resourcePaths(r, registry.resource(r)));
  return {
    openapi: '3.0.3',
    info: {
      title: `Education Data Store API: ${section.toLowerCase()}`,
      version: '3',
      description: `${section} of the core data model (${describes}; model version ${version}). Generated from spec/model; do not edit.`,
    },
    servers: [{ url: `{baseUrl}${DATA_ROOT}`, variables: BASE_URL_VARIABLE }],
    security: [{ oauth2_client_credentials: [] }],
    tags: resources.map((r) => ({ name: r.endpoint, description: r.description ?? `${r.resourceName} resources.` })),
    paths,
    components: { ...sharedComponents(), schemas: { ...registry.schemas, ...sharedSchemas } },
  };
}

/** The fixed endpoints beside the data: discovery, token, token introspection, change versions, dependencies, health. */
function otherSection(): Schema {
  const components = sharedComponents();
  return {
    openapi: '3.0.3',
    info: { title: 'Education Data Store API: discovery, tokens and change versions', version: '3', description: 'The fixed endpoints of the data API. Generated; do not edit.' },
    servers: [{ url: '{baseUrl}', variables: BASE_URL_VARIABLE }],
    security: [{ oauth2_client_credentials: [] }],
    paths: {
      '/': {
        get: { operationId: 'getDiscovery', summary: 'Discovery root: version, build, data models and the URLs of the API.', security: [], responses: { 200: { description: 'Discovery document.', content: json('discovery') } } },
      },
      '/health': {
        get: { operationId: 'getHealth', summary: 'Health: 200 `Healthy`.', security: [], responses: { 200: { description: 'Healthy.', content: { 'text/plain': { schema: { type: 'string' } } } } } },
      },
      '/metadata/data/v3/dependencies': {
        get: { operationId: 'getDependencies', summary: 'Every endpoint in an order a loader can write in without unresolved references.', security: [], responses: { 200: { description: 'Dependency order.', content: { 'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/dependency' } } } } } } },
      },
      [TOKEN_PATH]: {
        post: {
          operationId: 'postToken', summary: 'Client-credentials grant: Basic header (or client_id/client_secret in the body) and grant_type=client_credentials.', security: [],
          requestBody: { required: true, content: { 'application/x-www-form-urlencoded': { schema: { $ref: '#/components/schemas/tokenRequest' } }, 'application/json': { schema: { $ref: '#/components/schemas/tokenRequest' } } } },
          responses: {
            200: { description: 'Access token.', content: json('tokenResponse') },
            400: { description: 'OAuth error.', content: json('oauthError') },
            401: { description: 'OAuth error.', content: json('oauthError') },
            429: { description: 'Too many failed attempts (Retry-After).', content: json('oauthError') },
          },
        },
      },
      [`${TOKEN_PATH}_info`]: {
        post: {
          operationId: 'postTokenInfo', summary: 'Token introspection: what the bearer token (form member `token`) grants, for its own client.',
          requestBody: { required: true, content: { 'application/x-www-form-urlencoded': { schema: { type: 'object', properties: { token: { type: 'string' } } } }, 'application/json': { schema: { type: 'object', properties: { token: { type: 'string' } } } } } },
          responses: { 200: { description: 'What the token grants.', content: { 'application/json': { schema: { type: 'object' } } } }, 400: { $ref: '#/components/responses/BadRequest' }, 401: { $ref: '#/components/responses/Unauthorized' } },
        },
      },
      [AVAILABLE_CHANGE_VERSIONS_PATH]: {
        get: {
          operationId: 'getAvailableChangeVersions', summary: 'The oldest and newest change versions of the data store.',
          parameters: [param('Use-Snapshot')],
          responses: { 200: { description: 'Change versions.', content: json('availableChangeVersions') }, ...errorResponses([401, 404, 500]) },
        },
      },
    },
    components: {
      securitySchemes: components.securitySchemes,
      parameters: { 'Use-Snapshot': (components.parameters as Record<string, Schema>)['Use-Snapshot'] },
      responses: Object.fromEntries(Object.entries(components.responses as Record<string, Schema>).filter(([k]) => ['BadRequest', 'Unauthorized', 'NotFound', 'Error'].includes(k))),
      schemas: {
        problemDetails,
        availableChangeVersions: {
          type: 'object', required: ['oldestChangeVersion', 'newestChangeVersion'],
          properties: { oldestChangeVersion: { type: 'integer', format: 'int64' }, newestChangeVersion: { type: 'integer', format: 'int64' } },
        },
        dependency: {
          type: 'object', required: ['resource', 'order', 'operations'],
          properties: { resource: { type: 'string', description: '`/core/<endpoint>`' }, order: { type: 'integer' }, operations: { type: 'array', items: { type: 'string', enum: ['Create', 'Update'] } } },
        },
        tokenRequest: {
          type: 'object',
          properties: { grant_type: { type: 'string', enum: ['client_credentials'] }, client_id: { type: 'string' }, client_secret: { type: 'string' }, scope: { type: 'string' } },
        },
        tokenResponse: {
          type: 'object', required: ['access_token', 'expires_in', 'token_type'],
          properties: { access_token: { type: 'string' }, expires_in: { type: 'integer', description: 'Seconds; default 1800, configurable by the host.' }, token_type: { type: 'string', enum: ['bearer'] }, scope: { type: 'string' } },
        },
        oauthError: {
          type: 'object', required: ['error'],
          properties: { error: { type: 'string', enum: ['invalid_client', 'invalid_request', 'unsupported_grant_type', 'invalid_scope', 'temporarily_unavailable'] }, error_description: { type: 'string' } },
        },
        discovery: {
          type: 'object', required: ['version', 'dataModels', 'urls'],
          properties: {
            version: { type: 'string' },
            applicationName: { type: 'string' },
            informationalVersion: { type: 'string' },
            build: { type: 'string' },
            dataModels: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' }, version: { type: 'string' } } } },
            urls: { type: 'object', additionalProperties: { type: 'string' } },
          },
        },
      },
    },
  };
}

/**
 * The data API's interface descriptions: resources, descriptors and the fixed endpoints.
 * `describes` names the model (spec/model/served.ts), e.g. `Ed-Fi Data Standard 6.1 as upstream serves it`.
 */
export function buildDataApiDocuments(model: CompiledModel, version: string, describes: string): { resources: Schema; descriptors: Schema; other: Schema } {
  return { resources: dataSection(model, version, 'Resources', describes), descriptors: dataSection(model, version, 'Descriptors', describes), other: otherSection() };
}

/**
 * Resources and descriptors as one document, the form openapi-backend validates requests
 * against (paths relative to the data root, as the sections have them).
 */
export function validationDocument(sections: { resources: Schema; descriptors: Schema }): Schema {
  const { resources, descriptors } = sections;
  const components = (d: Schema) => d.components as Record<string, Record<string, Schema>>;
  return {
    ...resources,
    paths: { ...(resources.paths as Schema), ...(descriptors.paths as Schema) },
    components: { ...components(resources), schemas: { ...components(resources).schemas, ...components(descriptors).schemas } },
  };
}
