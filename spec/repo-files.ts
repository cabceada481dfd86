/**
 * Files of the repository read at run time (the pinned extracts, the interface descriptions,
 * package.json), found from this module whether it runs as TypeScript (`spec/…`, through tsx) or
 * compiled (`dist/spec/…`, what `npm start` runs): both read the same files, never copies.
 */
const moduleRoot = new URL('../', import.meta.url);

/** The repository's root directory (with its trailing slash). */
export const REPO_ROOT: URL = moduleRoot.pathname.endsWith('/dist/') ? new URL('../', moduleRoot) : moduleRoot;

/** A file of the repository by its path from the root (`spec/openapi/other.json`). */
export const repoFile = (path: string): URL => new URL(path, REPO_ROOT);

/** True when this code runs compiled, from `dist/` (`npm start`), rather than from its sources. */
export const COMPILED: boolean = REPO_ROOT.href !== moduleRoot.href;
