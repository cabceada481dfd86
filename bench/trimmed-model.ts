/**
 * A model trimmed to five resources, for the spec-size comparison: studentSchoolAssociation and
 * the four resources it references (student, school, calendar, schoolYearType), each with every
 * optional member that points outside the set removed (the benchmark's bodies use none of them,
 * so its per-request work is the full model's), plus the descriptors that remain in use.
 */
import type { AbstractDef, Field, Fields, ResourceDef } from '../spec/model/dsl.js';
import type { CompiledModel } from '../spec/model/compiled.js';
import { compileModel } from '../spec/model/compile.js';
import { definitions } from '../spec/model/index.js';

export const TRIMMED_RESOURCES = ['studentSchoolAssociation', 'student', 'school', 'calendar', 'schoolYearType'];

function descriptorsOf(fields: Fields, into: Set<string>): Set<string> {
  for (const f of Object.values(fields)) {
    if (f.kind === 'descriptor') into.add(f.descriptor);
    else if (f.kind === 'collection') descriptorsOf(f.item, into);
    else if (f.kind === 'object') descriptorsOf(f.fields, into);
  }
  return into;
}

function pointsOutside(f: Field, keep: Set<string>, descriptors: Set<string>): boolean {
  switch (f.kind) {
    case 'reference': return !keep.has(f.target);
    case 'descriptor': return !descriptors.has(f.descriptor);
    case 'collection': return Object.values(f.item).some((x) => pointsOutside(x, keep, descriptors));
    case 'object': return Object.values(f.fields).some((x) => pointsOutside(x, keep, descriptors));
    default: return false;
  }
}

/** Drops optional members pointing outside; a required member keeps its descriptor in the set. */
function trimFields(fields: Fields, keep: Set<string>, descriptors: Set<string>, owner: string): Fields {
  const out: Fields = {};
  for (const [name, f] of Object.entries(fields)) {
    const required = !!(f.required || f.identity);
    if (!pointsOutside(f, keep, descriptors)) { out[name] = f; continue; }
    if (!required) continue;
    if (f.kind === 'reference') throw new Error(`${owner}.${name} is required and references ${f.target}, outside the trimmed set`);
    if (f.kind === 'descriptor') { descriptors.add(f.descriptor); out[name] = f; continue; }
    if (f.kind === 'collection') out[name] = { ...f, item: trimFields(f.item, keep, descriptors, `${owner}.${name}[]`) };
    else if (f.kind === 'object') out[name] = { ...f, fields: trimFields(f.fields, keep, descriptors, `${owner}.${name}`) };
  }
  return out;
}

export function trimmedModel(): { model: CompiledModel; defs: ResourceDef[]; descriptorNames: string[] } {
  const keep = new Set(TRIMMED_RESOURCES);
  const def = (name: string) => definitions.defs.find((d) => d.name === name)!;
  // Every descriptor the association uses stays, so its bodies are checked as in the full model.
  const descriptors = descriptorsOf(def('studentSchoolAssociation').fields, new Set());
  const trimmed = TRIMMED_RESOURCES.map(def).map((def): ResourceDef => {
    const fields = trimFields(def.fields, keep, descriptors, def.name);
    const trimmed: ResourceDef = { ...def, fields };
    if (def.educationOrganization) {
      trimmed.educationOrganization = { ...def.educationOrganization, parents: (def.educationOrganization.parents ?? []).filter((p) => p in fields) };
    }
    return trimmed;
  });
  const defs = trimmed.sort((a, b) => a.name.localeCompare(b.name));
  const abstracts: AbstractDef[] = definitions.abstracts.filter((a) => a.name === 'educationOrganization');
  const descriptorNames = [...descriptors].sort();
  return { model: compileModel(defs, abstracts, descriptorNames), defs, descriptorNames };
}
