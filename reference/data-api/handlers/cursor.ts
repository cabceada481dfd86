/**
 * Release 7.3's cursor paging (decisions #29; research ods-server-details.md §6): a page token
 * names a position in a collection's creation order (and, from /partitions, where its range
 * ends), so paging by token while others write neither skips nor repeats a record that existed
 * when paging began: records keep their creation position when they change, new ones come
 * after every position handed out, and deleted ones simply are not there.
 */
export interface Cursor {
  /** Records created after this creation version… */
  after: number;
  /** …up to and including this one (a partition's end), or to the end of the collection. */
  until?: number;
}

const PREFIX = 'c1';

/** Opaque to clients: base64url of `c1:<after>:<until>`. */
export function encodeToken(c: Cursor): string {
  return Buffer.from(`${PREFIX}:${c.after}:${c.until ?? ''}`).toString('base64url');
}

export function decodeToken(token: string): Cursor | undefined {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(token)) return undefined;
  const m = /^c1:(\d{1,15}):(\d{0,15})$/.exec(Buffer.from(token, 'base64url').toString('utf8'));
  if (!m) return undefined;
  const after = Number(m[1]);
  const until = m[2] === '' ? undefined : Number(m[2]);
  if (until !== undefined && until < after) return undefined;
  return until === undefined ? { after } : { after, until };
}

/** Whether a record created at `created` comes after the cursor's range (never, without an end). */
export const pastCursor = (created: number, c: Cursor) => created > (c.until ?? Infinity);

/** Which paging parameters were sent (names already canonical). */
export interface PagingParameters { offset: boolean; limit: boolean; totalCount: boolean; pageToken: boolean; pageSize: boolean }

/** Upstream's refusals of mixed paging modes, word for word. */
export function pagingModeProblems(p: PagingParameters): string[] {
  const out: string[] = [];
  if (p.pageToken) {
    if (p.offset) out.push('Both offset and pageToken parameters were provided, but they support alternative paging approaches and cannot be used together.');
    if (p.limit) out.push('Use pageSize instead of limit when using cursor paging with pageToken.');
    if (p.totalCount) out.push('Total count cannot be determined while using cursor paging (when pageToken is specified).');
  } else if (p.pageSize) {
    out.push(p.offset || p.limit ? 'Use limit instead of pageSize when using limit/offset paging.' : 'PageToken is required when pageSize is specified.');
  }
  return out;
}

/**
 * Page tokens splitting records (their creation versions, ascending) into at most `n` ranges of
 * near-equal size; none for no records.
 */
export function partitionTokens(created: number[], n: number): string[] {
  const parts = Math.min(n, created.length);
  const tokens: string[] = [];
  let after = 0;
  for (let i = 0; i < parts; i++) {
    const end = Math.ceil(((i + 1) * created.length) / parts) - 1;
    // Every range is closed, the last one too: the partitions cover what matched when they
    // were made, so a client paging them ends even while others keep creating records.
    const until = created[end];
    tokens.push(encodeToken({ after, until }));
    after = until;
  }
  return tokens;
}
