import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Context } from 'koa';

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

/**
 * The interface description (over a megabyte of JSON) as served: serialised and hashed once
 * per start-up, and per origin it names in `servers` only spliced, and compressed (off the event
 * loop) on first demand; so an anonymous request costs a lookup, not a rebuild. Without a
 * configured public base URL the origin follows the Host header, so the entries are bounded and
 * a caller varying Host costs a splice and a compression on the thread pool, not memory.
 */
interface Built { etag: string; identity: Buffer; gzip?: Promise<Buffer>; br?: Promise<Buffer> }

export class InterfaceDescriptions {
  private readonly built = new Map<string, Built>();
  /** The document without `servers`, as JSON text, and its hash. */
  private readonly rest: string;
  private readonly restHash: string;
  /** How many times the whole document was serialised (for tests: once per start-up). */
  serialisations = 0;

  constructor(document: Record<string, unknown>, private readonly basePath: string, private readonly maxOrigins = 8) {
    this.rest = JSON.stringify({ ...document, servers: undefined });
    this.serialisations++;
    this.restHash = createHash('sha256').update(this.rest).digest('base64url');
  }

  /** The document naming this origin in `servers` (first member), built on first use. */
  get(origin: string): Built {
    let entry = this.built.get(origin);
    if (!entry) {
      const servers = JSON.stringify([{ url: `${origin}${this.basePath}` }]);
      const identity = Buffer.from(this.rest === '{}' ? `{"servers":${servers}}` : `{"servers":${servers},${this.rest.slice(1)}`);
      entry = { etag: `"${createHash('sha256').update(this.restHash).update(servers).digest('base64url').slice(0, 27)}"`, identity };
      if (this.built.size >= this.maxOrigins) this.built.delete(this.built.keys().next().value as string);
      this.built.set(origin, entry);
    }
    return entry;
  }

  /** Answers the request: 304 when the client has it, else the body in the best encoding it accepts. */
  async serve(ctx: Context, origin: string): Promise<void> {
    const entry = this.get(origin);
    ctx.vary('Accept-Encoding');
    ctx.etag = entry.etag;
    ctx.set('Cache-Control', 'no-cache');
    ctx.type = 'application/json; charset=utf-8';
    // Koa judges freshness only for a 2xx status, and it is still the default 404 here.
    ctx.status = 200;
    if (ctx.fresh) {
      ctx.status = 304;
      return;
    }
    const encoding = ctx.acceptsEncodings('br', 'gzip', 'identity');
    if (encoding === 'br') {
      entry.br ??= brotliAsync(entry.identity, { params: { [constants.BROTLI_PARAM_QUALITY]: 6, [constants.BROTLI_PARAM_SIZE_HINT]: entry.identity.length } });
      ctx.body = await entry.br;
      ctx.set('Content-Encoding', 'br');
    } else if (encoding === 'gzip') {
      entry.gzip ??= gzipAsync(entry.identity, { level: 9 });
      ctx.body = await entry.gzip;
      ctx.set('Content-Encoding', 'gzip');
    } else {
      ctx.body = entry.identity;
    }
  }
}
