import { readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { REPO_ROOT } from '../spec/repo-files.js';

/**
 * `npm start` runs the compiled reference (`dist/`, written by `npm run build`, which `npm ci`
 * runs). Compiled code older than its source would serve what the repository no longer says, so
 * start-up checks every compiled file against its source (a few milliseconds for ~100 files)
 * and names the first that changed since the build.
 */
export function staleCompiledFile(root: string = fileURLToPath(REPO_ROOT)): string | undefined {
  const dist = `${root}dist/`;
  const files = readdirSync(dist, { recursive: true, encoding: 'utf8' });
  for (const file of files) {
    const source = file.endsWith('.js') ? `${file.slice(0, -3)}.ts` : file.endsWith('.json') ? file : undefined;
    if (!source) continue;
    const sourceTime = mtimeOf(`${root}${source}`);
    if (sourceTime !== undefined && sourceTime > statSync(`${dist}${file}`).mtimeMs) return source;
  }
  return undefined;
}

const mtimeOf = (path: string): number | undefined => {
  try { return statSync(path).mtimeMs; } catch { return undefined; }
};
