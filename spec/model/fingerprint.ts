/**
 * Prints a fingerprint of a compiled model: the sha256 of its canonical JSON (every resource,
 * abstract and descriptor name in the model's own order, the lookups as name lists) and of the
 * definitions it was compiled from. Run it on two checkouts to prove that a refactoring changed
 * nothing the model serves:
 *
 *   npx tsx spec/model/fingerprint.ts                                  # this checkout's default model
 *   npx tsx spec/model/fingerprint.ts /work/main/spec/model/index.ts   # another checkout's
 *   npx tsx spec/model/fingerprint.ts --standard 6.1                   # a standard as a deployment serves it (served.ts)
 */
import { createHash } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';

const replacer = (_key: string, v: unknown): unknown =>
  v instanceof Map ? { lookup: [...v.entries()].map(([k, x]) => [k, (x as { name?: string }).name ?? x]) } : v;

/** The canonical text of a model and its definitions (Maps as [key, name] lists). */
export function modelText(model: unknown, definitions?: unknown): string {
  return JSON.stringify({ model, definitions }, replacer);
}

export const fingerprint = (text: string): string => createHash('sha256').update(text).digest('hex');

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const at = process.argv.indexOf('--standard');
  if (at > 0) {
    const { defineStandard } = await import('./standards.js');
    const { SERVED, compileServed } = await import('./served.js');
    const standard = process.argv[at + 1] as import('./upstream.js').DataStandard;
    // What a deployment of the standard serves (served.ts: the seed overlay on 4.0 only).
    const text = modelText(compileServed(standard), defineStandard(standard, { overlay: SERVED[standard].overlay }));
    console.log(`${fingerprint(text)}  ${text.length} chars  DS ${standard}`);
  } else {
    const path = process.argv[2] ? resolve(process.argv[2]) : new URL('./index.ts', import.meta.url).pathname;
    const { model, definitions } = (await import(pathToFileURL(path).href)) as { model: unknown; definitions: unknown };
    const text = modelText(model, definitions);
    console.log(`${fingerprint(text)}  ${text.length} chars  ${path}`);
  }
}
