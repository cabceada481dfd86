import type { HttpClient } from './http.js';
import { expect } from './expect.js';
import { target } from './target.js';

/**
 * The deployment's interface description (OpenAPI), found the way a client finds it: the
 * discovery document at `{base_url}/` names `urls.openApiMetadata`, which is either the document
 * itself or (as upstream serves it) a list of sections `{name, endpointUri}` whose documents are
 * merged here.
 */
export interface OpenApiDocument {
  openapi?: string;
  swagger?: string;
  info: { version: string; title?: string };
  paths: Record<string, Record<string, { responses?: Record<string, unknown>; requestBody?: { content?: Record<string, { schema?: Schema }> } }>>;
  components?: { schemas?: Record<string, Schema> };
}
export interface Schema {
  $ref?: string;
  allOf?: Schema[];
  properties?: Record<string, Schema>;
  items?: Schema;
  [extension: string]: unknown;
}

const cache = new Map<string, OpenApiDocument>();

export async function discoveryDocument(request: HttpClient): Promise<{ version?: string; dataModels?: unknown[]; urls?: Record<string, string> }> {
  const res = await request.get(`${target.dataApi.baseUrl}/`);
  expect(res.status(), 'GET {base_url}/').toBe(200);
  return (await res.json()) as { urls?: Record<string, string> };
}

/**
 * The interface description: from the capability `interfaceDescription` when the target names
 * one, else through the discovery document (`discovered: true` forces that way, for the rule that
 * the discovery document leads to it).
 */
export async function interfaceDescription(request: HttpClient, opts: { discovered?: boolean } = {}): Promise<OpenApiDocument> {
  const named = target.capabilities?.interfaceDescription?.url;
  const key = opts.discovered || !named ? 'discovered' : 'named';
  const hit = cache.get(key);
  if (hit) return hit;
  if (key === 'named') {
    const url = /^https?:/i.test(named!) ? named! : `${target.dataApi.baseUrl}/${named!.replace(/^\//, '')}`;
    const res = await request.get(url);
    expect(res.status(), `GET ${url}`).toBe(200);
    const doc = (await res.json()) as OpenApiDocument;
    cache.set(key, doc);
    return doc;
  }
  const { urls } = await discoveryDocument(request);
  expect(urls?.openApiMetadata, 'urls.openApiMetadata of the discovery document').toBeTruthy();
  const res = await request.get(urls!.openApiMetadata);
  expect(res.status(), `GET ${urls!.openApiMetadata}`).toBe(200);
  const body = (await res.json()) as OpenApiDocument | { name?: string; endpointUri: string }[];
  let doc: OpenApiDocument;
  if (Array.isArray(body)) {
    const parts: OpenApiDocument[] = [];
    for (const section of body) {
      const r = await request.get(section.endpointUri);
      expect(r.status(), `GET ${section.endpointUri}`).toBe(200);
      parts.push((await r.json()) as OpenApiDocument);
    }
    doc = {
      ...parts[0],
      paths: Object.assign({}, ...parts.map((p) => p.paths ?? {})),
      components: { schemas: Object.assign({}, ...parts.map((p) => p.components?.schemas ?? {})) },
    };
  } else doc = body;
  cache.set(key, doc);
  return doc;
}

/** The extension prefix of the target's brand: `x-Core-` for `core`, `x-Ed-Fi-` for `ed-fi`. */
export const extensionPrefix = (): string => `x-${target.dataApi.mediaTypeVendor.split('-').map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('-')}-`;

/**
 * The path entry of a resource's collection (`.../<segment>/<endpoint>`) or item (`.../{id}`):
 * the first path, in the document's order, that ends with it, without case.
 */
export function pathOf(doc: OpenApiDocument, endpoint: string, suffix = ''): Record<string, { responses?: Record<string, unknown> }> | undefined {
  const key = pathsByEnding(doc).get(`/${target.dataApi.namespaceSegment}/${endpoint}${suffix}`.toLowerCase());
  return key ? doc.paths[key] : undefined;
}

/**
 * Each path by every ending of it that starts at the namespace segment (in lower case), the
 * first path kept for an ending. An ending asked for starts there, so a path ends with it
 * exactly when it is one of these: one lookup, where a scan of the 600-odd paths for each
 * resource was about 2 % of a worker's CPU.
 */
const endings = new WeakMap<OpenApiDocument, Map<string, string>>();
function pathsByEnding(doc: OpenApiDocument): Map<string, string> {
  let index = endings.get(doc);
  if (index) return index;
  index = new Map();
  const segment = `/${target.dataApi.namespaceSegment}/`.toLowerCase();
  for (const key of Object.keys(doc.paths)) {
    const lower = key.toLowerCase();
    for (let at = lower.indexOf(segment); at >= 0; at = lower.indexOf(segment, at + 1)) {
      if (!index.has(lower.slice(at))) index.set(lower.slice(at), key);
    }
  }
  endings.set(doc, index);
  return index;
}

export function resolve(doc: OpenApiDocument, schema: Schema | undefined): Schema | undefined {
  if (!schema) return undefined;
  if (schema.$ref) return resolve(doc, doc.components?.schemas?.[schema.$ref.split('/').pop()!]);
  return schema;
}

/** A schema with its `allOf` parts merged (their properties together), `$ref`s resolved. */
export function flatten(doc: OpenApiDocument, schema: Schema | undefined): Schema | undefined {
  const s = resolve(doc, schema);
  if (!s?.allOf) return s;
  return s.allOf.map((part) => flatten(doc, part)).reduce<Schema>((acc, part) => ({ ...acc, ...part, properties: { ...(acc.properties ?? {}), ...(part?.properties ?? {}) } }), { ...s, allOf: undefined });
}

/** The schema of a resource: the body of its POST. */
export function resourceSchema(doc: OpenApiDocument, endpoint: string): Schema | undefined {
  const post = (pathOf(doc, endpoint)?.post ?? {}) as { requestBody?: { content?: Record<string, { schema?: Schema }> } };
  const content = post.requestBody?.content ?? {};
  const media = content['application/json'] ?? Object.values(content)[0];
  return resolve(doc, media?.schema);
}

/** A property's declaration with allOf wrappers looked through for extensions. */
export function extensionsOf(doc: OpenApiDocument, property: Schema | undefined): Record<string, unknown> {
  if (!property) return {};
  const own = Object.fromEntries(Object.entries(property).filter(([k]) => k.startsWith('x-')));
  const inner = property.$ref ? resolve(doc, property) : undefined;
  return { ...(inner ? Object.fromEntries(Object.entries(inner).filter(([k]) => k.startsWith('x-'))) : {}), ...own };
}
