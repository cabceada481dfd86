/** Faulty deployments that break data.discovery. */
import { dataPath, eachObject, header, pathOf, type ProxiedRequest } from '../proxy.js';
import { isData, isIdentityFlag, identityFlagOf, problem, editJson, type Fault } from './helpers.js';

/** A section of the interface description (`.../resources/swagger.json`, `.../descriptors/swagger.json`). */
const section = (req: ProxiedRequest, name: 'resources' | 'descriptors') => isData(req) && new RegExp(`/${name}/swagger\\.json$`, 'i').test(pathOf(req));
/** The path entries of an interface-description document. */
const pathsOf = (doc: unknown) => ((doc as { paths?: Record<string, Record<string, { responses?: Record<string, unknown> }>> }).paths ?? {});
/** The named schemas of an interface-description document. */
const schemasOf = (doc: unknown) => ((doc as { components?: { schemas?: Record<string, { properties?: Record<string, Record<string, unknown>> }> } }).components?.schemas ?? {});

/** An interface description whose one operation (path matching `path`, `method`) lists no `code` among its responses. */
function dropsResponse(path: RegExp, method: string, code: string): Pick<Fault, 'response'> {
  return {
    response: (res, req) => {
      if (!section(req, 'resources') || res.status !== 200) return;
      editJson(res, (doc) => { const op = Object.entries(pathsOf(doc)).find(([k]) => path.test(k))?.[1][method]; delete op?.responses?.[code]; });
    },
  };
}

export const discoveryFaults: Fault[] = [
  {
    name: 'allow-header-missing', family: 'data.discovery', suites: ['discovery'],
    description: '405 responses carry no Allow header',
    response: (res, req) => { if (isData(req) && res.status === 405) delete res.headers.allow; },
  },
  {
    name: 'head-options-answered', family: 'data.discovery', suites: ['discovery'],
    description: 'HEAD and OPTIONS on data paths answer 200 (a framework default) instead of 405',
    request: (req) => {
      if (!dataPath(req) || (req.method !== 'HEAD' && req.method !== 'OPTIONS')) return;
      return { status: 200, headers: { allow: 'GET, POST, PUT, DELETE, HEAD, OPTIONS' }, body: Buffer.alloc(0) };
    },
  },
  {
    name: 'discovery-urls-relative', family: 'data.discovery', suites: ['discovery'],
    description: 'the discovery document gives its urls as paths instead of absolute URLs',
    response: (res, req) => {
      if (!isData(req) || !/\/api\/?$/.test(pathOf(req)) || res.status !== 200) return;
      editJson(res, (doc) => {
        const urls = (doc as { urls?: Record<string, unknown> }).urls;
        for (const [k, v] of Object.entries(urls ?? {})) if (typeof v === 'string') urls![k] = v.replace(/^https?:\/\/[^/]+/, '');
      });
    },
  },
  {
    name: 'identity-flags-missing', family: 'data.discovery', suites: ['discovery'],
    description: 'the interface description marks no natural-key field with the identity flag (x-Core-isIdentity on the seed\'s names)',
    response: (res, req) => {
      if (!isData(req) || res.status !== 200 || !/swagger\.json$|openapi/i.test(pathOf(req))) return;
      editJson(res, (doc) => eachObject(doc, (o) => { for (const k of Object.keys(o)) if (isIdentityFlag(k)) delete o[k]; }));
    },
  },
  {
    name: 'nullable-flags-dropped-on-descriptors', family: 'data.discovery', suites: ['discovery/interface-description.spec.ts'],
    description: 'the descriptors section of the interface description marks no member x-nullable (description, effective dates, priorDescriptorId)',
    response: (res, req) => {
      if (!section(req, 'descriptors') || res.status !== 200) return;
      editJson(res, (doc) => eachObject(doc, (o) => { delete o['x-nullable']; }));
    },
  },
  {
    name: 'identity-flag-on-non-key-member', family: 'data.discovery', suites: ['discovery/interface-description.spec.ts'],
    description: 'the interface description flags every descriptor\'s shortDescription with the identity flag (x-Core-isIdentity on the seed\'s names), though it is no natural-key member',
    response: (res, req) => {
      if (!section(req, 'descriptors') || res.status !== 200) return;
      editJson(res, (doc) => { const flag = identityFlagOf(doc); for (const s of Object.values(schemasOf(doc))) if (s.properties?.shortDescription) s.properties.shortDescription[flag] = true; });
    },
  },
  {
    name: 'response-409-missing-on-one-endpoint', family: 'data.discovery', suites: ['discovery/interface-description.spec.ts'],
    description: 'the interface description lists no 409 among the responses of POST /core/calendars (every other operation lists its responses)',
    ...dropsResponse(/\/calendars$/i, 'post', '409'),
  },
  // The siblings of the POST one: one operation of each other kind, on a resource no hand-written test reads.
  {
    name: 'response-304-missing-on-one-feed', family: 'data.discovery', suites: ['discovery/interface-description.spec.ts'],
    description: 'the interface description lists no 304 among the responses of GET /graduationPlans/keyChanges',
    ...dropsResponse(/\/graduationPlans\/keyChanges$/i, 'get', '304'),
  },
  {
    name: 'response-412-missing-on-one-delete', family: 'data.discovery', suites: ['discovery/interface-description.spec.ts'],
    description: 'the interface description lists no 412 among the responses of DELETE /graduationPlans/{id}',
    ...dropsResponse(/\/graduationPlans\/\{id\}$/i, 'delete', '412'),
  },
  {
    name: 'response-404-missing-on-one-get-by-id', family: 'data.discovery', suites: ['discovery/interface-description.spec.ts'],
    description: 'the interface description lists no 404 among the responses of GET /graduationPlans/{id}',
    ...dropsResponse(/\/graduationPlans\/\{id\}$/i, 'get', '404'),
  },
  {
    name: 'resource-delete-405-beyond-examples', family: 'data.discovery', suites: ['discovery/every-resource-json.spec.ts'],
    description: 'graduationPlans (a resource no hand-written test writes) answers DELETE of an item with 405: it cannot be written with DELETE',
    request: (req) => {
      const p = isData(req) ? dataPath(req) : undefined;
      if (req.method === 'DELETE' && p?.resource.toLowerCase() === 'graduationplans' && p.rest.length === 1) return problem('method-not-allowed');
    },
  },
  {
    name: 'resource-paths-case-sensitive', family: 'data.discovery', suites: ['discovery'],
    description: 'resource path segments in another casing (AcademicWeeks) answer 404',
    request: (req) => { if (/^[A-Z]/.test(dataPath(req)?.resource ?? '')) return problem('not-found'); },
  },
  // Conforming deviations: the seed allows them, so the verdict must stay conformant.
  {
    name: 'descriptor-unique-key-flagged-identity', family: 'data.discovery', suites: ['discovery/interface-description.spec.ts', 'descriptors/shape.spec.ts'], expect: 'conformant',
    description: 'the interface description also flags each descriptor\'s codeValue and namespace with the identity flag (x-Core-isIdentity on the seed\'s names), as upstream\'s does (the descriptor\'s unique key)',
    response: (res, req) => {
      if (!section(req, 'descriptors') || res.status !== 200) return;
      editJson(res, (doc) => {
        const flag = identityFlagOf(doc);
        for (const s of Object.values(schemasOf(doc))) for (const k of ['codeValue', 'namespace']) if (s.properties?.[k]) s.properties[k][flag] = true;
      });
    },
  },
];
