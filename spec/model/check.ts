/**
 * Compiles a model and prints what it derived; exits non-zero on a model error.
 *   npx tsx spec/model/check.ts [resource]                     # the default model
 *   npx tsx spec/model/check.ts --standard 6.1 [resource]      # a data standard as upstream serves it
 */
import type { CompiledModel } from './compiled.js';
import { dataStandards, type DataStandard } from './upstream.js';

const args = process.argv.slice(2);
const at = args.indexOf('--standard');
let model: CompiledModel;
if (at >= 0) {
  const standard = args.splice(at, 2)[1] as DataStandard;
  if (!dataStandards.includes(standard)) throw new Error(`--standard takes one of ${dataStandards.join(', ')}`);
  model = (await import('./standards.js')).compileStandard(standard);
} else {
  model = (await import('./index.js')).model;
}
const only = args[0];
for (const r of model.resources) {
  if (r.isDescriptor && !only) continue;
  if (only && r.name !== only && r.endpoint !== only) continue;
  console.log(`${r.endpoint}  key: ${r.identity.map((k) => k.name).join(', ')}${r.updatable ? '  (updatable)' : ''}`);
  for (const ref of r.references) console.log(`  ref ${ref.path} -> ${ref.target} {${ref.fields.map((f) => (f.queryName === f.property ? f.property : `${f.property} as ${f.queryName}`)).join(', ')}}`);
  for (const e of r.equalities) console.log(`  unify ${e.name}: ${e.paths.join(' = ')}`);
  if (only) console.log(`  query: ${Object.keys(r.queryFields).join(', ')}`);
}
console.log(`${model.resources.length} resources (${model.resources.filter((r) => r.isDescriptor).length} descriptors), ${model.abstracts.length} abstract`);
