import type { IncomingMessage } from 'node:http';
import type { Context } from 'koa';
import { parseExact } from './exact-json.js';
import { Problem } from './problems.js';

/** Largest request body read when the host configures none (larger ones are refused, never buffered). */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The media type of a body request, or a 415 when it is missing or not JSON. */
export function requireJsonContentType(ctx: Context, accepts: (mediaType: string) => boolean = (t) => t === 'application/json'): string {
  const header = ctx.get('content-type');
  if (!header) throw new Problem('unsupported-media-type', { errors: ["The 'Content-Type' header is missing."] });
  const [type, ...params] = header.split(';').map((s) => s.trim());
  const mediaType = type.toLowerCase();
  if (!accepts(mediaType)) {
    throw new Problem('unsupported-media-type', { errors: ["The value specified in the 'Content-Type' header is not supported by this host."] });
  }
  const charset = params.map((p) => p.split('=')).find(([k]) => k.trim().toLowerCase() === 'charset')?.[1]?.trim().replace(/^"|"$/g, '');
  if (charset && !/^utf-?8$/i.test(charset)) {
    throw new Problem('bad-request', { errors: [`The request body character encoding '${charset}' is not supported; send UTF-8.`] });
  }
  return mediaType;
}

/** Reads the raw body as UTF-8 text; empty, oversized or undecodable bodies are 400/413-class problems. */
export async function readText(ctx: Context, max: number = (ctx.state.maxBodyBytes as number | undefined) ?? MAX_BODY_BYTES): Promise<string> {
  const tooLarge = () => new Problem('request-entity-too-large', { errors: [`The request body is larger than ${max} bytes.`] }, { Connection: 'close' });
  if (Number(ctx.get('content-length') || 0) > max) throw tooLarge();
  const bytes = await (ctx.get('content-length') ? declaredLengthBody(ctx.req) : streamedBody(ctx.req, max, tooLarge));
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    throw new Problem('bad-request', { errors: ['The request body is not valid UTF-8.'] });
  }
  if (text.trim() === '') throw new Problem('bad-request', { errors: ['A non-empty request body is required.'] });
  return text;
}

/**
 * A body of a declared length (at most the maximum, checked before): the parser delivers
 * exactly that many bytes, so no chunk can pass the maximum, and the body is collected from the
 * stream's events, cheaper per request than an async iterator. A connection closed before the
 * end rejects, as the iterator does.
 */
function declaredLengthBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const settle = (err?: Error) => {
      req.off('data', onData).off('end', onEnd).off('error', settle).off('close', onClose);
      if (err) reject(err);
      else resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
    };
    const onData = (chunk: Buffer) => { chunks.push(chunk); };
    const onEnd = () => settle();
    const onClose = () => settle(Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' }));
    req.on('data', onData).once('end', onEnd).once('error', settle).once('close', onClose);
  });
}

/** The body as it streams in (no declared length), refused once it passes `max` bytes. */
async function streamedBody(req: IncomingMessage, max: number, tooLarge: () => Problem): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > max) throw tooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** Deeper bodies are refused (400) before parsing: every later step walks the document recursively. */
export const MAX_JSON_DEPTH = 64;

/** The deepest nesting of arrays and objects in JSON text (strings skipped), without recursion. */
function jsonDepth(text: string): number {
  let depth = 0;
  let max = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) { for (i++; i < text.length && text.charCodeAt(i) !== 0x22; i++) if (text.charCodeAt(i) === 0x5c) i++; }
    else if (c === 0x5b || c === 0x7b) { if (++depth > max) max = depth; }
    else if (c === 0x5d || c === 0x7d) depth--;
  }
  return max;
}

/**
 * Whether the text has at most `limit` opening brackets in all (strings included): then nothing
 * nests deeper. Found by native searches, so the usual body skips jsonDepth's walk over every
 * character (2.4 µs for a 400-byte body, more than parsing it).
 */
function fewBrackets(text: string, limit: number): boolean {
  let n = 0;
  for (const bracket of ['{', '[']) {
    for (let i = text.indexOf(bracket); i >= 0; i = text.indexOf(bracket, i + 1)) if (++n > limit) return false;
  }
  return true;
}

/**
 * Parses JSON text (integers exact, see exact-json.ts). Text that is not JSON at all is a bad
 * request; a JSON document broken inside (truncated, a stray comma) is reported under
 * validationErrors, as the seed's data-validation row lists malformed JSON.
 */
export function parseJson(text: string): unknown {
  if (!fewBrackets(text, MAX_JSON_DEPTH) && jsonDepth(text) > MAX_JSON_DEPTH) {
    throw new Problem('bad-request:data-validation-failed', { validationErrors: { $: [`The request body nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels.`] } });
  }
  try {
    return parseExact(text, { keepSources: true });
  } catch (err) {
    const message = `The request body could not be parsed as JSON: ${(err as Error).message}`;
    if (/^\s*[[{]/.test(text)) throw new Problem('bad-request:data-validation-failed', { validationErrors: { $: [message] } });
    throw new Problem('bad-request', { errors: [message] });
  }
}
