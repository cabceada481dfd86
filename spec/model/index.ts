import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { AbstractDef, ResourceDef } from './dsl.js';
import type { CompiledModel } from './compiled.js';
import { compileModel } from './compile.js';
import { descriptorNames } from './descriptors.js';

/**
 * The one model: every file under resources/ contributes the resources (and abstract
 * supertypes) it exports, so adding a resource means adding an entry there and nothing else.
 */
const dir = fileURLToPath(new URL('./resources/', import.meta.url));
const files = readdirSync(dir).filter((f) => /\.ts$/.test(f) && !f.endsWith('.d.ts')).sort();

const defs: ResourceDef[] = [];
const abstracts: AbstractDef[] = [];
for (const file of files) {
  // The file itself (.ts): both tsx and Playwright's loader import TypeScript directly.
  const mod = (await import(new URL(`./resources/${file}`, import.meta.url).href)) as Record<string, unknown>;
  for (const value of Object.values(mod)) {
    if (isAbstract(value)) abstracts.push(value);
    else if (isResource(value)) defs.push(value);
  }
}
defs.sort((a, b) => a.name.localeCompare(b.name));

function isResource(v: unknown): v is ResourceDef {
  return typeof v === 'object' && v !== null && typeof (v as ResourceDef).name === 'string' && typeof (v as ResourceDef).fields === 'object';
}
function isAbstract(v: unknown): v is AbstractDef {
  return typeof v === 'object' && v !== null && typeof (v as AbstractDef).name === 'string' && Array.isArray((v as AbstractDef).identity);
}

export const model: CompiledModel = compileModel(defs, abstracts, descriptorNames);
export type * from './compiled.js';
