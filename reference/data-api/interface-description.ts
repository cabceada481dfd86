import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Context } from 'koa';
import { etagMatches } from './handlers/etag.js';

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

/**
 * The interface description (over a megabyte of JSON) as served: serialised and hashed once per
 * start-up; per origin it names in `servers` only spliced, and compressed (off the event loop) on
 * first demand. Only the origins the deployment serves at its own port are kept (the public
 * origin, or the names the Host check accepts, a bounded set): a request naming an origin outside
 * them (an accepted name at another port, through a proxy) gets the spliced document uncompressed
 * and nothing is kept, so varying the Host costs neither compressions nor memory.
 */
interface Built { etag: string; identity: Buffer; gzip?: Promise<Buffer>; br?: Promise<Buffer> }

export class InterfaceDescriptions {
  private readonly built = new Map<string, Built>();
  /** The document without `servers`, as JSON text, and its hash. */
  private readonly rest: string;
  private readonly restHash: string;
  /** How many times the whole document was serialised (for tests: once per start-up). */
  serialisations = 0;
  /** How many compressions were started (for tests: at most one per kept origin and encoding). */
  compressions = 0;

  constructor(document: Record<string, unknown>, private readonly basePath: string, private readonly maxOrigins = 64) {
    this.rest = JSON.stringify({ ...document, servers: undefined });
    this.serialisations++;
    this.restHash = createHash('sha256').update(this.rest).digest('base64url');
  }

  /** The document naming this origin in `servers` (first member); kept when `keep` and there is room. */
  get(origin: string, keep = true): Built {
    const known = this.built.get(origin);
    if (known) return known;
    const servers = JSON.stringify([{ url: `${origin}${this.basePath}` }]);
    const identity = Buffer.from(this.rest === '{}' ? `{"servers":${servers}}` : `{"servers":${servers},${this.rest.slice(1)}`);
    const entry = { etag: `"${createHash('sha256').update(this.restHash).update(servers).digest('base64url').slice(0, 27)}"`, identity };
    // The kept origins are bounded by the Host check; the bound here only guards against a policy that is not.
    if (keep && this.built.size < this.maxOrigins) this.built.set(origin, entry);
    return entry;
  }

  /**
   * Answers the request: 304 when its If-None-Match names the document's ETag (whatever its
   * Cache-Control says: `no-cache` asks to revalidate, which is what a matching ETag does), else
   * the body in the best encoding it accepts, compressed only for a kept origin.
   */
  async serve(ctx: Context, origin: string, keep: boolean): Promise<void> {
    const entry = this.get(origin, keep);
    const kept = this.built.get(origin) === entry;
    ctx.vary('Accept-Encoding');
    ctx.etag = entry.etag;
    ctx.set('Cache-Control', 'no-cache');
    ctx.type = 'application/json; charset=utf-8';
    if (etagMatches(ctx.get('if-none-match'), entry.etag.slice(1, -1))) {
      ctx.status = 304;
      return;
    }
    ctx.status = 200;
    const encoding = kept ? ctx.acceptsEncodings('br', 'gzip', 'identity') : 'identity';
    if (encoding === 'br') {
      entry.br ??= this.compress(() => brotliAsync(entry.identity, { params: { [constants.BROTLI_PARAM_QUALITY]: 6, [constants.BROTLI_PARAM_SIZE_HINT]: entry.identity.length } }));
      ctx.body = await entry.br;
      ctx.set('Content-Encoding', 'br');
    } else if (encoding === 'gzip') {
      entry.gzip ??= this.compress(() => gzipAsync(entry.identity, { level: 9 }));
      ctx.body = await entry.gzip;
      ctx.set('Content-Encoding', 'gzip');
    } else {
      ctx.body = entry.identity;
    }
  }

  private compress(work: () => Promise<Buffer>): Promise<Buffer> {
    this.compressions++;
    return work();
  }
}
