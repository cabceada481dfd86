import type { CharSource } from './json-number.js';

/**
 * Where a path's run of trailing slashes starts (its length when it has none), read from the end:
 * each character of that run and the one before it, once. Request paths are client text; the
 * pattern `/\/+$/` this replaces retries from every slash of the path, quadratic in a run of
 * slashes that does not end it (16 KB of them, the request line Node allows: 75 ms a request).
 */
export function trailingSlashesStart(path: CharSource): number {
  let end = path.length;
  while (end > 0 && path.charCodeAt(end - 1) === 47) end--; // '/'
  return end;
}

/** The path without its trailing slashes (`/a/b//` → `/a/b`, `//` → ``). */
export function withoutTrailingSlashes(path: string): string {
  const end = trailingSlashesStart(path);
  return end === path.length ? path : path.slice(0, end);
}
