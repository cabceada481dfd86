/**
 * Local `$ref`s (`#/components/schemas/X`) of an interface description, resolved on demand into
 * copies: what an operation's request validator needs (its parameters and body), when the
 * operation is first compiled. openapi-backend's own `init()` clones and dereferences the whole
 * document before the first request (7 MB with 6.1's responses and descriptions, ~120 ms of
 * start-up); the served document keeps its references either way.
 */
export class RefResolver {
  /** Each reference resolved once, shared by every operation that names it. */
  private readonly resolved = new Map<string, unknown>();
  /** References being resolved: one met again is recursive, which the generated documents never are. */
  private readonly resolving = new Set<string>();

  constructor(private readonly root: Record<string, unknown>) {}

  /** `node` with every reference in it replaced by what it names (a copy; `node` is left as it is). */
  resolve<T>(node: T): T {
    if (Array.isArray(node)) return node.map((item) => this.resolve(item)) as T;
    if (node === null || typeof node !== 'object') return node;
    const ref = (node as { $ref?: unknown }).$ref;
    if (typeof ref === 'string') return this.target(ref) as T;
    const copy: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node)) copy[key] = this.resolve(value);
    return copy as T;
  }

  private target(ref: string): unknown {
    if (this.resolved.has(ref)) return this.resolved.get(ref);
    if (this.resolving.has(ref)) throw new Error(`recursive $ref ${ref}: the request validator resolves none`);
    this.resolving.add(ref);
    const value = this.resolve(pointer(this.root, ref));
    this.resolving.delete(ref);
    this.resolved.set(ref, value);
    return value;
  }
}

/** The value a local JSON pointer (`#/a/b~1c`) names in `root`. */
function pointer(root: Record<string, unknown>, ref: string): unknown {
  if (!ref.startsWith('#/')) throw new Error(`$ref ${ref}: only references within the document are resolved`);
  let value: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    const key = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~');
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, key)) throw new Error(`$ref ${ref} names nothing in the document`);
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}
