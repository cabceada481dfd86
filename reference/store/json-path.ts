/** Reads a simple JSON path (`$.a.b`, no wildcards) from a document. */
export function getPath(doc: unknown, path: string): unknown {
  let cur: unknown = doc;
  for (const seg of path.slice(2).split('.')) {
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

/** Every value a path with `[*]` wildcards reaches in a document, with its concrete path. */
export function expandPaths(doc: unknown, path: string): Located[] {
  const segments = path.slice(2).split('.');
  const out: Located[] = [];
  const walk = (node: unknown, i: number, at: string, parent: Record<string, unknown> | unknown[] | null, key: string | number) => {
    if (i === segments.length) {
      if (node !== undefined) out.push({ path: at, value: node, set: (v) => { (parent as Record<string | number, unknown>)[key] = v; } });
      return;
    }
    if (node === null || typeof node !== 'object') return;
    const seg = segments[i];
    const wildcard = seg.endsWith('[*]');
    const name = wildcard ? seg.slice(0, -3) : seg;
    const child = (node as Record<string, unknown>)[name];
    if (!wildcard) return walk(child, i + 1, `${at}.${name}`, node as Record<string, unknown>, name);
    if (!Array.isArray(child)) return;
    child.forEach((item, idx) => walk(item, i + 1, `${at}.${name}[${idx}]`, child, idx));
  };
  walk(doc, 0, '$', null, '');
  return out;
}
