/** Compiles the model and prints what it derived; exits non-zero on a model error. */
import { model } from './index.js';

const only = process.argv[2];
for (const r of model.resources) {
  if (r.isDescriptor && !only) continue;
  if (only && r.name !== only && r.endpoint !== only) continue;
  console.log(`${r.endpoint}  key: ${r.identity.map((k) => k.name).join(', ')}${r.updatable ? '  (updatable)' : ''}`);
  for (const ref of r.references) console.log(`  ref ${ref.path} -> ${ref.target} {${ref.fields.map((f) => (f.queryName === f.property ? f.property : `${f.property} as ${f.queryName}`)).join(', ')}}`);
  for (const e of r.equalities) console.log(`  unify ${e.name}: ${e.paths.join(' = ')}`);
  if (only) console.log(`  query: ${Object.keys(r.queryFields).join(', ')}`);
}
console.log(`${model.resources.length} resources (${model.resources.filter((r) => r.isDescriptor).length} descriptors), ${model.abstracts.length} abstract`);
