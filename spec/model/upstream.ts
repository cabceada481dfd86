import { readFileSync } from 'node:fs';
import type { AbstractDef, Field, Fields, ResourceDef, ScalarKind } from './dsl.js';
import { repoFile } from '../repo-files.js';

/**
 * The pinned upstream extracts (spec/upstream/ds-<version>.json: Ed-Fi Data Standards 4.0, 5.2
 * and 6.1 as API JSON) written in the model's vocabulary. Everything the seeds do not state
 * follows the standard compiled; what they state differently is applied afterwards by overlay.ts,
 * and facts the extracts do not carry (hierarchy, persons, updatable keys, merged key names) come
 * from annotations.ts. standards.ts puts the three together.
 */

/** The data standards upstream builds a deployment for, each pinned in spec/upstream/. */
export const dataStandards = ['4.0', '5.2', '6.1'] as const;
export type DataStandard = (typeof dataStandards)[number];

/**
 * The seed's standard (decision 44: "the seed's resource tables describe Ed-Fi Data Standard
 * 4.0"): what the reference serves when no `dataStandard` is configured, what the suites judge
 * a target by when nothing tells, and what the module-level model (index.ts) compiles.
 */
export const defaultStandard: DataStandard = '4.0';
export interface UpstreamProperty {
  type: 'string' | 'integer' | 'number' | 'boolean' | 'date' | 'date-time' | 'time' | 'descriptor' | 'reference' | 'collection' | 'object';
  format?: 'int32' | 'int64';
  maxLength?: number;
  minLength?: number;
  totalDigits?: number;
  fractionDigits?: number;
  minInclusive?: number;
  maxInclusive?: number;
  required?: boolean;
  identity?: boolean;
  descriptor?: string;
  target?: string;
  fields?: Record<string, UpstreamProperty>;
  item?: Record<string, UpstreamProperty>;
  properties?: Record<string, UpstreamProperty>;
}

export interface UpstreamResource {
  endpoint: string;
  resourceName: string;
  group: string;
  base?: string;
  abstract?: boolean;
  properties: Record<string, UpstreamProperty>;
}

export interface UpstreamExtract {
  source: string;
  descriptorShape: Record<string, UpstreamProperty>;
  descriptors: { resourceName: string; endpoint: string }[];
  resources: Record<string, UpstreamResource>;
}

const extracts = new Map<DataStandard, UpstreamExtract>();

/** The pinned extract of a standard, read once (never changed by the model: imports copy it). */
export function readExtract(standard: DataStandard): UpstreamExtract {
  let extract = extracts.get(standard);
  if (!extract) {
    if (!dataStandards.includes(standard)) throw new Error(`unknown data standard '${String(standard)}' (known: ${dataStandards.join(', ')})`);
    extract = JSON.parse(readFileSync(repoFile(`spec/upstream/ds-${standard}.json`), 'utf8')) as UpstreamExtract;
    extracts.set(standard, extract);
  }
  return extract;
}

/** The default standard's extract (the one the module-level model follows). */
export const upstream: UpstreamExtract = readExtract(defaultStandard);

/** `GradeLevel` → `gradeLevel`, `CourseGPAApplicability` → `courseGPAApplicability`. */
export const camel = (s: string): string => s.charAt(0).toLowerCase() + s.slice(1);

export function importField(p: UpstreamProperty): Field {
  const flags = {
    ...(p.required || p.identity ? { required: true } : {}),
    ...(p.identity ? { identity: true } : {}),
  };
  // Optional members that hold a value may be null (the seed's N); structures may be absent.
  const nullable = p.required || p.identity ? {} : { nullable: true };
  switch (p.type) {
    case 'descriptor':
      return { kind: 'descriptor', descriptor: camel(p.descriptor!), ...flags, ...nullable };
    case 'reference': {
      return { kind: 'reference', target: camel(p.target!), ...flags };
    }
    case 'collection':
      return { kind: 'collection', item: importFields(p.item!), ...flags };
    case 'object':
      return { kind: 'object', fields: importFields(p.properties!), ...flags };
    default: {
      const kind: ScalarKind = p.type === 'integer' ? (p.format ?? 'int32') : p.type === 'number' ? 'double' : p.type;
      return {
        kind,
        ...(p.maxLength !== undefined ? { maxLength: p.maxLength } : {}),
        ...(p.minLength !== undefined ? { minLength: p.minLength } : {}),
        ...(p.minInclusive !== undefined ? { minimum: p.minInclusive } : {}),
        ...(p.maxInclusive !== undefined ? { maximum: p.maxInclusive } : {}),
        ...(p.totalDigits !== undefined ? { totalDigits: p.totalDigits } : {}),
        ...(p.fractionDigits !== undefined ? { fractionDigits: p.fractionDigits } : {}),
        ...flags,
        ...nullable,
      };
    }
  }
}

export function importFields(props: Record<string, UpstreamProperty>): Fields {
  const out: Fields = {};
  for (const [name, p] of Object.entries(props)) out[name] = importField(p);
  return out;
}

/** Abstract upstream: flagged, or the base of another resource (GeneralStudentProgramAssociation is not flagged). */
export function isAbstract(extract: UpstreamExtract, name: string): boolean {
  const r = extract.resources[name];
  return !!r?.abstract || Object.values(extract.resources).some((x) => x.base === name);
}

export interface ImportedModel {
  defs: ResourceDef[];
  abstracts: AbstractDef[];
  /** Descriptor names without the `Descriptor` suffix. */
  descriptorNames: string[];
}

/** The integer width of the id every member of an abstract resource plays its identity with. */
function memberIdKind(extract: UpstreamExtract, abstract: string): 'int32' | 'int64' {
  const kinds = new Set(Object.values(extract.resources)
    .filter((r) => r.base === abstract)
    .flatMap((r) => Object.values(r.properties).filter((p) => p.identity && p.type === 'integer').map((p) => p.format ?? 'int32')));
  if (kinds.size !== 1) throw new Error(`upstream: the members of ${abstract} play its id with ${kinds.size ? [...kinds].join(' and ') : 'no integer'}`);
  return [...kinds][0];
}

export function importUpstream(extract: UpstreamExtract = upstream): ImportedModel {
  const defs: ResourceDef[] = [];
  const abstracts: AbstractDef[] = [];
  for (const [name, r] of Object.entries(extract.resources)) {
    const fields = importFields(r.properties);
    if (isAbstract(extract, name)) {
      const own = Object.entries(r.properties).filter(([, p]) => p.identity);
      // EducationOrganization names its identity only through its members (schoolId plays
      // educationOrganizationId), so its id has their ids' width (int32 in DS 4.0, int64 later).
      abstracts.push(own.length
        ? { name: camel(name), identity: [], identityKinds: {}, fields }
        : { name: camel(name), identity: [`${camel(name)}Id`], identityKinds: { [`${camel(name)}Id`]: memberIdKind(extract, name) } });
      continue;
    }
    defs.push({
      name: camel(name),
      plural: r.endpoint,
      fields,
      ...(r.base ? { base: camel(r.base) } : {}),
    });
  }
  const descriptorNames = extract.descriptors.map((d) => camel(d.resourceName.replace(/Descriptor$/, '')));
  return { defs, abstracts, descriptorNames };
}
