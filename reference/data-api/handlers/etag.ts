import type { Context } from 'koa';
import { Problem } from '../../http/problems.js';
import type { StoredRecord } from '../../store/store.js';

/** ETag values compare with or without their quotes; `*` matches any (decisions #14). */
export function etagMatches(header: string, etag: string): boolean {
  return !!header && matches(header, etag);
}

function matches(header: string, etag: string): boolean {
  return header.split(',').map((v) => v.trim().replace(/^W\//, '').replace(/^"|"$/g, '')).some((v) => v === '*' || v === etag);
}

export const quoted = (etag: string) => `"${etag}"`;

/** 412 when If-Match is present and does not match the current `_etag` (seed rule 3). */
export function checkIfMatch(ctx: Context, record: StoredRecord): void {
  const header = ctx.get('if-match');
  if (header && !matches(header, record.etag)) {
    throw new Problem('optimistic-lock-failed', {
      errors: ["The resource item's etag value does not match what was specified in the 'If-Match' request header indicating that it has been modified by another client since it was last retrieved."],
    });
  }
}

export function ifNoneMatchHits(ctx: Context, record: StoredRecord): boolean {
  const header = ctx.get('if-none-match');
  return !!header && matches(header, record.etag);
}
