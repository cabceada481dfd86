import type { AbstractDef, Field, Fields, ResourceDef } from './dsl.js';
import type { CompiledModel } from './compiled.js';
import { compileModel } from './compile.js';
import { importUpstream } from './upstream.js';
import { applyOverlay } from './overlay.js';
import {
  educationOrganizationParents, persons, queryNamesByReference, queryNamesByTarget, relationships, schoolYearEnumeration, updatable,
} from './annotations.js';

/**
 * The one model: the pinned upstream data standard (upstream.ts), the seed's differences laid
 * over it (overlay.ts), the upstream facts the extract does not carry (annotations.ts), compiled
 * into everything a generic implementation needs (compile.ts).
 */
function annotate(defs: ResourceDef[]): ResourceDef[] {
  for (const def of defs) {
    if (updatable.includes(def.name)) def.updatable = true;
    if (def.name === schoolYearEnumeration) def.schoolYearEnumeration = true;
    if (persons[def.name]) def.person = persons[def.name];
    if (relationships[def.name]) def.relationship = relationships[def.name];
    if (def.base === 'educationOrganization') {
      const idField = Object.entries(def.fields).find(([, f]) => f.identity)![0];
      def.educationOrganization = { idField, parents: educationOrganizationParents[def.name] ?? [] };
    }
    nameKeys(def.name, def.fields, '$');
  }
  return defs;
}

/** Explicit key names of references (annotations.queryNamesBy*), at any depth. */
function nameKeys(resource: string, fields: Fields, base: string): void {
  for (const [name, f] of Object.entries(fields) as [string, Field][]) {
    const path = `${base}.${name}`;
    if (f.kind === 'reference') {
      const names = { ...queryNamesByTarget[f.target], ...queryNamesByReference[`${resource} ${path}`] };
      if (Object.keys(names).length) f.queryNames = names;
    } else if (f.kind === 'collection') nameKeys(resource, f.item, `${path}[*]`);
    else if (f.kind === 'object') nameKeys(resource, f.fields, path);
  }
}

const imported = importUpstream();

/** The definitions the model compiles, for tools that derive other models (bench/trimmed-model.ts). */
export const definitions: { defs: ResourceDef[]; abstracts: AbstractDef[]; descriptorNames: string[] } = {
  defs: annotate(applyOverlay(imported.defs)).sort((a, b) => a.name.localeCompare(b.name)),
  abstracts: imported.abstracts,
  descriptorNames: imported.descriptorNames,
};
for (const a of definitions.abstracts) if (a.fields) nameKeys(a.name, a.fields, '$');

export const model: CompiledModel = compileModel(definitions.defs, definitions.abstracts, definitions.descriptorNames);
export type * from './compiled.js';
