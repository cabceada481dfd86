/**
 * Writes every generated file of spec/ from its single source; with --check, writes nothing and
 * fails when a committed file differs from what the sources produce (a stale generated file).
 */
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { model } from '../model/index.js';
import { buildDataApiDocuments } from './openapi-data.js';
import { buildRosteringDocument } from './openapi-rostering.js';
import { generateTypeSchemas } from './type-schemas.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const check = process.argv.includes('--check');
const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;

const data = buildDataApiDocuments(model, version);
const outputs: Record<string, unknown> = {
  'spec/openapi/resources.json': data.resources,
  'spec/openapi/descriptors.json': data.descriptors,
  'spec/openapi/other.json': data.other,
  'spec/openapi/rostering.json': buildRosteringDocument(),
  ...generateTypeSchemas(root),
};

let stale = 0;
for (const [file, doc] of Object.entries(outputs)) {
  const text = `${JSON.stringify(doc, null, 2)}\n`;
  const path = join(root, file);
  let current: string | undefined;
  try { current = readFileSync(path, 'utf8'); } catch { current = undefined; }
  if (current === text) continue;
  if (check) {
    stale++;
    console.error(`stale: ${relative(root, path)} differs from what its source generates (run npm run generate)`);
  } else {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
    console.log(`wrote ${file}`);
  }
}
if (check && stale) process.exit(1);
if (check) console.log(`spec: ${Object.keys(outputs).length} generated files are fresh`);
