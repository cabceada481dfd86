/**
 * The test files StrykerJS sees in suites mode: one manifest per suite family,
 * `tools/mutation/suites/families/<family>.txt`, listing a digest of every file the family's run
 * depends on (its folder, the harness, the target, the Playwright configuration, the embedded
 * deployments it starts and the reference's conformance configuration). A family is a folder, which Stryker cannot read as a
 * test file; through its manifest, a change to the family makes Stryker's incremental mode re-run
 * the mutants that family reaches, as a changed test file does.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../../', import.meta.url));
export const MANIFEST_DIR = 'tools/mutation/suites/families';
const SHARED = ['suites/_harness', 'suites/targets/reference.json', 'suites/targets/types.ts', 'playwright.config.ts', 'tools/embedded', 'reference/config/conformance.json'];

const filesUnder = (path: string): string[] => statSync(join(root, path)).isDirectory()
  ? readdirSync(join(root, path)).filter((n) => n !== 'tests').flatMap((n) => filesUnder(join(path, n)))
  : [path];

/** The manifest's path (relative to the repository) for `family`. */
export const manifestFor = (family: string) => `${MANIFEST_DIR}/${family}.txt`;

/** Writes the manifests of `families`; returns their paths. */
export function writeManifests(families: string[]): string[] {
  mkdirSync(join(root, MANIFEST_DIR), { recursive: true });
  return families.map((family) => {
    const lines = [`suites/${family}`, ...SHARED].flatMap(filesUnder).sort().map((file) =>
      `${createHash('sha256').update(readFileSync(join(root, file))).digest('hex').slice(0, 16)} ${relative(root, join(root, file))}`);
    writeFileSync(join(root, manifestFor(family)), `${lines.join('\n')}\n`);
    return manifestFor(family);
  });
}
