import type { AbstractDef, ResourceDef } from './dsl.js';
import type { CompiledModel } from './compiled.js';
import { compileDefinitions, defineStandard } from './standards.js';
import { defaultStandard } from './upstream.js';
import { overlay } from './overlay.js';

/**
 * The module-level model: the default data standard (upstream.ts's `defaultStandard`) with the
 * seed's differences laid over it (overlay.ts), built through the registry of standards
 * (standards.ts: `compileStandard` is `defineStandard` then `compileDefinitions`). Any other
 * standard is compiled on demand there. The default standard is the seed's, 4.0 (decision 44):
 * this is what an unconfigured reference serves, and what the unit tests, tools and strength
 * faults use. The reference itself compiles only the standard it serves (served-standard.ts) and
 * never imports this module.
 */
const defined = defineStandard(defaultStandard, { overlay });

/** The definitions the model compiles, for tools that derive other models (bench/trimmed-model.ts). */
export const definitions: { defs: ResourceDef[]; abstracts: AbstractDef[]; descriptorNames: string[] } = {
  defs: defined.defs,
  abstracts: defined.abstracts,
  descriptorNames: defined.descriptorNames,
};

export const model: CompiledModel = compileDefinitions(defined);
export { compileStandard, defineStandard } from './standards.js';
export { dataStandards, defaultStandard, type DataStandard } from './upstream.js';
export type * from './compiled.js';
