/** Path segments, split once per distinct path (paths come from the compiled model). */
const segmentCache = new Map<string, string[]>();
function segmentsOf(path: string): string[] {
  let segments = segmentCache.get(path);
  if (!segments) segmentCache.set(path, (segments = path.slice(2).split('.')));
  return segments;
}

/** Reads a simple JSON path (`$.a.b`, no wildcards) from a document. */
export function getPath(doc: unknown, path: string): unknown {
  let cur: unknown = doc;
  for (const seg of segmentsOf(path)) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[seg];
  }
  return cur;
}

/** Writes a value at a concrete JSON path (`$.a[1].b`), creating no missing parents. */
export function setPath(doc: unknown, path: string, value: unknown): void {
  const segments = path.slice(2).split(/\.|(?=\[)/).map((s) => (s.startsWith('[') ? Number(s.slice(1, -1)) : s));
  let cur = doc as Record<string | number, unknown>;
  for (const seg of segments.slice(0, -1)) {
    cur = cur?.[seg] as Record<string | number, unknown>;
    if (cur === null || typeof cur !== 'object') return;
  }
  cur[segments[segments.length - 1]] = value;
}

export interface Located {
  /** Concrete JSON path, wildcards replaced by indexes: `$.classPeriods[1].classPeriodReference`. */
  path: string;
  value: unknown;
  /** Replaces the value in the document. */
  set: (value: unknown) => void;
}

/** A located value; `set` is a method, so locating creates no closures. */
class At implements Located {
  constructor(readonly path: string, readonly value: unknown, private readonly parent: Record<string | number, unknown>, private readonly key: string | number) {}
  set(value: unknown): void { this.parent[this.key] = value; }
}

function walk(segments: string[], out: Located[], node: unknown, i: number, at: string, parent: Record<string | number, unknown> | null, key: string | number): void {
  if (i === segments.length) {
    if (node !== undefined) out.push(new At(at, node, parent!, key));
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const seg = segments[i];
  const wildcard = seg.endsWith('[*]');
  const name = wildcard ? seg.slice(0, -3) : seg;
  const child = (node as Record<string, unknown>)[name];
  if (!wildcard) return walk(segments, out, child, i + 1, `${at}.${name}`, node as Record<string, unknown>, name);
  if (!Array.isArray(child)) return;
  for (let idx = 0; idx < child.length; idx++) walk(segments, out, child[idx], i + 1, `${at}.${name}[${idx}]`, child as unknown as Record<number, unknown>, idx);
}

/** Every value a path with `[*]` wildcards reaches in a document, with its concrete path. */
export function expandPaths(doc: unknown, path: string): Located[] {
  const segments = segmentsOf(path);
  const out: Located[] = [];
  if (!path.includes('[*]')) {
    // No wildcard: the concrete path is the path itself, and there is at most one value.
    let parent: unknown = null;
    let cur: unknown = doc;
    for (const seg of segments) {
      if (cur === null || typeof cur !== 'object') return out;
      parent = cur;
      cur = (cur as Record<string, unknown>)[seg];
    }
    if (cur !== undefined) out.push(new At(path, cur, parent as Record<string, unknown>, segments[segments.length - 1]));
    return out;
  }
  walk(segments, out, doc, 0, '$', null, '');
  return out;
}
