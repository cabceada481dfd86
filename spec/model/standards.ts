import type { AbstractDef, Field, Fields, ResourceDef } from './dsl.js';
import type { CompiledModel } from './compiled.js';
import { compileModel, type CompileOptions } from './compile.js';
import { importUpstream, readExtract, type DataStandard } from './upstream.js';
import { applyOverlay, type OverlayEntry } from './overlay.js';
import { annotationsFor, type StandardAnnotations } from './annotations.js';

/**
 * The registry of data standards: any pinned standard (spec/upstream/ds-<version>.json) compiled
 * on demand. A standard's model is its extract (upstream.ts), the overlay rows asked for laid over
 * it (overlay.ts), the facts its extract does not carry (annotations.ts, per standard), compiled
 * (compile.ts). Nothing is compiled at import: a caller pays only for the standard it asks for.
 */
export interface StandardOptions {
  /** Seed rows laid over the standard (none: the standard exactly as upstream serves it). */
  overlay?: readonly OverlayEntry[];
}

export interface StandardDefinitions {
  defs: ResourceDef[];
  abstracts: AbstractDef[];
  descriptorNames: string[];
  /** What compileModel needs beside the definitions (the standard's descriptor minimum lengths). */
  compileOptions: CompileOptions;
}

/** The definitions a standard compiles from, annotated and sorted by name (the model's resource order). */
export function defineStandard(standard: DataStandard, options: StandardOptions = {}): StandardDefinitions {
  const extract = readExtract(standard);
  const annotations = annotationsFor(standard);
  const imported = importUpstream(extract);
  const defs = annotate(applyOverlay(imported.defs, options.overlay ?? []), annotations).sort((a, b) => a.name.localeCompare(b.name));
  for (const a of imported.abstracts) if (a.fields) nameKeys(a.name, a.fields, '$', annotations);
  // The shared descriptor shape is the seed's; a standard's own minimum lengths are kept, but
  // for the namespace's (decision 45) and codeValue's (1 already).
  const descriptorMinLengths: Record<string, number> = {};
  for (const [name, p] of Object.entries(extract.descriptorShape)) {
    if (p.minLength !== undefined && name !== 'namespace' && name !== 'codeValue') descriptorMinLengths[name] = p.minLength;
  }
  return {
    defs,
    abstracts: imported.abstracts,
    descriptorNames: imported.descriptorNames,
    compileOptions: Object.keys(descriptorMinLengths).length ? { descriptorMinLengths } : {},
  };
}

/** A standard's compiled model (e.g. `compileStandard('6.1')`, or `compileStandard('4.0', { overlay })`). */
export function compileStandard(standard: DataStandard, options: StandardOptions = {}): CompiledModel {
  return compileDefinitions(defineStandard(standard, options));
}

export function compileDefinitions(d: StandardDefinitions): CompiledModel {
  return compileModel(d.defs, d.abstracts, d.descriptorNames, d.compileOptions);
}

/** Lays a standard's annotations on its definitions (in place). */
function annotate(defs: ResourceDef[], a: StandardAnnotations): ResourceDef[] {
  for (const def of defs) {
    if (a.updatable.includes(def.name)) def.updatable = true;
    if (def.name === a.schoolYearEnumeration) def.schoolYearEnumeration = true;
    if (a.persons[def.name]) def.person = a.persons[def.name];
    if (a.relationships[def.name]) def.relationship = a.relationships[def.name];
    if (def.base === 'educationOrganization') {
      const idField = Object.entries(def.fields).find(([, f]) => f.identity)![0];
      def.educationOrganization = { idField, parents: a.educationOrganizationParents[def.name] ?? [] };
    }
    nameKeys(def.name, def.fields, '$', a);
  }
  return defs;
}

/** Explicit key names of references (annotations.queryNamesBy*), at any depth. */
function nameKeys(resource: string, fields: Fields, base: string, a: StandardAnnotations): void {
  for (const [name, f] of Object.entries(fields) as [string, Field][]) {
    const path = `${base}.${name}`;
    if (f.kind === 'reference') {
      const names = { ...a.queryNamesByTarget[f.target], ...a.queryNamesByReference[`${resource} ${path}`] };
      if (Object.keys(names).length) f.queryNames = names;
    } else if (f.kind === 'collection') nameKeys(resource, f.item, `${path}[*]`, a);
    else if (f.kind === 'object') nameKeys(resource, f.fields, path, a);
  }
}

/**
 * Every annotation of `a` that names something the standard does not have: a resource, a member
 * path, a reference, an abstract target, a corrected member. Annotating is by name, so such an
 * annotation would otherwise be ignored without a word (a renamed resource's relationship, a
 * key name on a member that became a collection). One line per annotation, `<kind> <name>: why`.
 */
export function unresolvedAnnotations(standard: DataStandard, a: StandardAnnotations = annotationsFor(standard)): string[] {
  const { defs, abstracts, descriptorNames } = importUpstream(readExtract(standard));
  const byName = new Map<string, Fields>([...defs.map((d) => [d.name, d.fields] as const), ...abstracts.flatMap((x) => (x.fields ? [[x.name, x.fields] as const] : []))]);
  const targets = new Set([...defs.map((d) => d.name), ...abstracts.map((x) => x.name)]);
  const out: string[] = [];
  const resource = (kind: string, name: string): Fields | undefined => {
    const fields = byName.get(name);
    if (!fields) out.push(`${kind} ${name}: no such resource`);
    return fields;
  };
  const reference = (kind: string, name: string, fields: Fields, path: string) => {
    const f = memberAt(fields, path);
    if (!f) out.push(`${kind} ${name}: no member ${path}`);
    else if (f.kind !== 'reference') out.push(`${kind} ${name}: ${path} is no reference`);
  };
  for (const n of a.updatable) resource('updatable', n);
  for (const n of Object.keys(a.persons)) resource('person', n);
  if (!byName.has(a.schoolYearEnumeration)) out.push(`schoolYearEnumeration ${a.schoolYearEnumeration}: no such resource`);
  for (const [n, r] of Object.entries(a.relationships)) {
    const fields = resource('relationship', n);
    if (fields) reference('relationship', n, fields, `$.${r.via}`);
  }
  for (const [n, parents] of Object.entries(a.educationOrganizationParents)) {
    const fields = resource('educationOrganizationParents', n);
    if (fields) for (const p of parents) reference('educationOrganizationParents', n, fields, `$.${p}`);
  }
  for (const t of Object.keys(a.queryNamesByTarget)) if (!targets.has(t)) out.push(`queryNamesByTarget ${t}: no such resource`);
  for (const key of Object.keys(a.queryNamesByReference)) {
    const [n, path] = key.split(' ');
    const fields = byName.get(n);
    if (!fields) out.push(`queryNamesByReference ${key}: no such resource`);
    else reference('queryNamesByReference', key, fields, path);
  }
  for (const c of a.extractCorrections) {
    const [n, path] = c.at.split(' ');
    if (n === 'descriptors') { if (!descriptorNames.length) out.push(`extractCorrections ${c.at}: no descriptors`); continue; }
    const fields = byName.get(n);
    // A correction adds a reference field: the reference holding it must exist.
    const holder = path.slice(0, path.lastIndexOf('.'));
    if (!fields) out.push(`extractCorrections ${c.at}: no such resource`);
    else reference('extractCorrections', c.at, fields, holder);
  }
  return out;
}

/** The member at a `$.a[*].b` path (collections entered through their items). */
function memberAt(fields: Fields, path: string): Field | undefined {
  let current: Field | undefined;
  let level: Fields | undefined = fields;
  for (const segment of path.replace(/^\$\./, '').split('.')) {
    const name = segment.replace(/\[\*\]$/, '');
    current = level?.[name];
    if (!current) return undefined;
    level = current.kind === 'collection' ? current.item : current.kind === 'object' ? current.fields : undefined;
  }
  return current;
}
