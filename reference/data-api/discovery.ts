import type Router from '@koa/router';
import type { Context } from 'koa';
import { AVAILABLE_CHANGE_VERSIONS_PATH, DATA_ROOT, TOKEN_PATH } from '../../spec/generate/openapi-data.js';
import type { CompiledModel } from '../../spec/model/compiled.js';
import { dependencyOrder } from '../../spec/model/dependencies.js';
import { renameDocument, type NamingProfile } from '../../spec/naming/profiles.js';
import { origin } from '../http/origin.js';
import { InterfaceDescriptions } from './interface-description.js';

/**
 * What a client reads before it reads data, as upstream 7.3 serves it (research
 * ods-server-details.md §5): the discovery document, whose every URL answers; the metadata root
 * and the interface description; the dependency order a loader writes in; health. All
 * anonymous. The data root and the change-queries root, which discovery names, list what is
 * below them rather than answer 404.
 */
/** The generated interface descriptions (spec/openapi/): the data API's three sections. */
export interface InterfaceDocuments { resources: Record<string, unknown>; descriptors: Record<string, unknown>; other: Record<string, unknown> }

export interface DiscoveryParts {
  basePath: string;
  /** The deployment's names; the documents are renamed to them as they are served. */
  naming: NamingProfile;
  model: CompiledModel;
  documents: InterfaceDocuments;
  /** The data standard served, as `dataModels` names it but for its name (spec/model/served.ts). */
  dataModel: { version: string; informationalVersion: string };
  /** The package version (informationalVersion) and the build it was made from. */
  version: string;
  build: string;
}

export function discoveryRoutes(router: Router, parts: DiscoveryParts): void {
  const base = (ctx: Context) => `${origin(ctx)}${parts.basePath}`;

  router.get('/', (ctx) => {
    const b = base(ctx);
    ctx.body = {
      version: '7.3',
      applicationName: 'Core Data Store API (reference implementation)',
      informationalVersion: parts.version,
      suite: '3',
      build: parts.build,
      dataModels: [{ name: parts.naming.dataModelName, ...parts.dataModel }],
      urls: {
        dependencies: `${b}/metadata/data/v3/dependencies`,
        openApiMetadata: `${b}/metadata/`,
        oauth: `${b}${TOKEN_PATH}`,
        oauthTokenIntrospection: `${b}${TOKEN_PATH}_info`,
        dataManagementApi: `${b}${DATA_ROOT}/`,
        changeQueries: `${b}/changeQueries/v1/`,
      },
    };
  });

  router.get('/health', (ctx) => {
    ctx.type = 'text/plain; charset=utf-8';
    ctx.body = 'Healthy';
  });

  // The metadata root lists the interface-description sections (interface-description.ts);
  // upstream answers with and without the trailing slash.
  const described = [
    { name: 'Resources', path: '/metadata/data/v3/resources/swagger.json', document: parts.documents.resources, server: `${parts.basePath}${DATA_ROOT}` },
    { name: 'Descriptors', path: '/metadata/data/v3/descriptors/swagger.json', document: parts.documents.descriptors, server: `${parts.basePath}${DATA_ROOT}` },
    { name: 'Other', path: '/metadata/other/swagger.json', document: parts.documents.other, server: parts.basePath },
  ];
  const sections = (ctx: Context) => {
    ctx.body = described.map((d) => ({ name: d.name, endpointUri: `${base(ctx)}${d.path}`, prefix: '' }));
  };
  router.get('/metadata/', sections);
  router.get('/metadata', sections);
  for (const d of described) {
    const descriptions = new InterfaceDescriptions(renameDocument(d.document, parts.naming), d.server);
    // Built and compressed once for each origin the deployment serves at its own port (origin.ts).
    router.get(d.path, (ctx) => descriptions.serve(ctx, origin(ctx), ctx.state.originAtListeningPort === true));
  }

  // Computed once: the model does not change while the server runs.
  const segment = parts.naming.namespaceSegment;
  const dependencies = dependencyOrder(parts.model).map(({ resource, order }) => ({
    resource: `/${segment}/${resource.endpoint}`,
    order,
    operations: ['Create', 'Update'],
  }));
  router.get('/metadata/data/v3/dependencies', (ctx) => {
    ctx.body = dependencies;
  });

  router.get(`${DATA_ROOT}/`, (ctx) => {
    ctx.body = [{ name: segment, endpointUri: `${base(ctx)}${DATA_ROOT}/${segment}/` }];
  });
  router.get('/changeQueries/v1/', (ctx) => {
    ctx.body = { availableChangeVersions: `${base(ctx)}${AVAILABLE_CHANGE_VERSIONS_PATH}` };
  });
}
