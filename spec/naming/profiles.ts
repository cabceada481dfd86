import registry from '../errors/problem-types.json' with { type: 'json' };

/**
 * The names a deployment gives the same API. The seed speaks in neutral names (`core`,
 * `urn:core:api:`, `x-Core-`); upstream deployments say `ed-fi`, `urn:ed-fi:api:`, `x-Ed-Fi-`
 * and scope their rostering tokens under OneRoster's base (research ods-server-details.md,
 * rostering.md). Nothing else about the API differs between the two.
 */
export interface NamingProfile {
  /** Namespace segment of the core data model: `{base_url}/data/v3/<segment>/<resource>`. */
  namespaceSegment: string;
  /** Prefix of every problem-details `type`. */
  problemTypePrefix: string;
  /** Vendor word of profile media types: `application/vnd.<vendor>.<resource>.<profile>.readable+json`. */
  mediaTypeVendor: string;
  /** Prefix of the interface descriptions' extensions (`<prefix>isIdentity`). */
  extensionPrefix: string;
  /** Name of the data model in the discovery document's `dataModels`. */
  dataModelName: string;
  /** `{scope_base}` of the rostering scopes; empty: bare scope names. */
  rosteringScopeBase: string;
}

export const NEUTRAL_NAMES: NamingProfile = {
  namespaceSegment: 'core',
  problemTypePrefix: registry.prefix,
  mediaTypeVendor: 'core',
  extensionPrefix: 'x-Core-',
  dataModelName: 'Core',
  rosteringScopeBase: '',
};

export const UPSTREAM_NAMES: NamingProfile = {
  namespaceSegment: 'ed-fi',
  problemTypePrefix: 'urn:ed-fi:api:',
  mediaTypeVendor: 'ed-fi',
  extensionPrefix: 'x-Ed-Fi-',
  dataModelName: 'Ed-Fi',
  rosteringScopeBase: 'https://purl.imsglobal.org/spec/or/v1p2/scope',
};

export const NAMING_PROFILES = { neutral: NEUTRAL_NAMES, upstream: UPSTREAM_NAMES } as const;

/** Component-schema prefix upstream derives from the data model's name: `Ed-Fi` → `edFi_`, `Core` → `core_`. */
export function schemaPrefixOf(dataModelName: string): string {
  const word = dataModelName.replace(/[^A-Za-z0-9]/g, '');
  return `${word.charAt(0).toLowerCase()}${word.slice(1)}_`;
}

/** The model's schema word in type discriminators, as upstream's token_info writes them: `Ed-Fi` → `edfi` (`edfi.School`). */
export const discriminatorPrefixOf = (dataModelName: string): string => dataModelName.replace(/[^A-Za-z0-9]/g, '').toLowerCase();

/**
 * A generated interface description (written in neutral names) as a deployment with other names
 * serves it: path keys under the namespace segment, component-schema names and their `$ref`s, and
 * extension keys are renamed. Text is left alone apart from those names.
 */
export function renameDocument<T>(document: T, names: NamingProfile): T {
  const from = NEUTRAL_NAMES;
  if (names.namespaceSegment === from.namespaceSegment && names.extensionPrefix === from.extensionPrefix && names.dataModelName === from.dataModelName) return document;
  const rewrites: [string, string][] = [
    [`/${from.namespaceSegment}/`, `/${names.namespaceSegment}/`],
    [`#/components/schemas/${schemaPrefixOf(from.dataModelName)}`, `#/components/schemas/${schemaPrefixOf(names.dataModelName)}`],
    [schemaPrefixOf(from.dataModelName), schemaPrefixOf(names.dataModelName)],
    [from.extensionPrefix, names.extensionPrefix],
  ];
  const rename = (s: string) => {
    for (const [a, b] of rewrites) if (s.startsWith(a)) return b + s.slice(a.length);
    return s;
  };
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return rename(v);
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [rename(k), walk(x)]));
    return v;
  };
  return walk(document) as T;
}
