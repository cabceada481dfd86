import { parseExact } from '../http/exact-json.js';
import { checksummedLine, isChecksummedLine, readChecksummedLine, salvage } from './checksummed-lines.js';
import type { DeleteEvent, KeyChangeEvent, StoredRecord } from './store.js';

/**
 * What the store files hold: journal entries (one operation's entries per journal line) and the
 * records and change events of a compacted state, each checked for its whole shape before it is
 * loaded, so that a line of an unexpected form stops start-up naming its place (or is dropped by
 * recovery) instead of failing somewhere inside the store.
 */
export type JournalEntry =
  | { t: 'put'; r: string; rec: StoredRecord; v: number; d: number }
  | { t: 'del'; r: string; ev: DeleteEvent; v: number; d: number }
  | { t: 'kc'; r: string; ev: KeyChangeEvent; v: number; d: number }
  | { t: 'undel'; r: string; key: string; v: number; d: number };

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

export function isStoredRecord(v: unknown): v is StoredRecord {
  return isObject(v) && typeof v.id === 'string' && typeof v.resource === 'string' && typeof v.key === 'string' && isObject(v.doc)
    && typeof v.etag === 'string' && typeof v.lastModified === 'string' && isCount(v.changeVersion) && (v.created === undefined || isCount(v.created)) && (v.owner === undefined || typeof v.owner === 'string');
}

export function isDeleteEvent(v: unknown): v is DeleteEvent {
  return isObject(v) && typeof v.id === 'string' && isCount(v.changeVersion) && typeof v.key === 'string' && isObject(v.keyValues) && (v.doc === undefined || isObject(v.doc));
}

export function isKeyChangeEvent(v: unknown): v is KeyChangeEvent {
  return isObject(v) && typeof v.id === 'string' && isCount(v.changeVersion) && isObject(v.oldKeyValues) && isObject(v.newKeyValues);
}

function isJournalEntry(v: unknown): v is JournalEntry {
  if (!isObject(v) || typeof v.r !== 'string' || !isCount(v.v) || !isCount(v.d)) return false;
  switch (v.t) {
    case 'put': return isStoredRecord(v.rec);
    case 'del': return isDeleteEvent(v.ev);
    case 'kc': return isKeyChangeEvent(v.ev);
    case 'undel': return typeof v.key === 'string';
    default: return false;
  }
}

/**
 * The entries of a journal line, or undefined when it is damaged or of a form this version
 * cannot load. Lines written before lines carried a checksum (an entry, or an array of them)
 * are still read, so that a store left by an earlier version opens; only their form is checked.
 */
export function readJournalLine(line: string): JournalEntry[] | undefined {
  let value: unknown;
  if (isChecksummedLine(line)) value = readChecksummedLine(line);
  else try { value = parseExact(line); } catch { return undefined; }
  const entries = Array.isArray(value) ? value : [value];
  return entries.length && entries.every(isJournalEntry) ? entries : undefined;
}

/** The first line of a journal: the data standard of the deployment that writes it. */
export interface JournalHeader { standard: string }

export const journalHeaderLine = (standard: string): string => checksummedLine({ standard } satisfies JournalHeader);

/** A journal's header line, or undefined for any other line (journals written before it have none). */
export function readJournalHeader(line: string): JournalHeader | undefined {
  if (!isChecksummedLine(line)) return undefined;
  const value = readChecksummedLine(line);
  return isObject(value) && !('t' in value) && typeof value.standard === 'string' ? { standard: value.standard } : undefined;
}

/**
 * The records whose writes a damaged journal line held (put and delete entries), by resource, as
 * far as its text still shows them: exactly when it still parses (a changed byte inside a
 * string), else counted from its text (`exact` false: a changed byte may hide one).
 */
export function recordsIn(line: string): { byResource: Map<string, number>; exact: boolean } {
  const byResource = new Map<string, number>();
  const value = salvage(line);
  if (value !== undefined) {
    for (const e of (Array.isArray(value) ? value : [value]) as unknown[]) {
      if (!isObject(e) || (e.t !== 'put' && e.t !== 'del')) continue;
      const resource = typeof e.r === 'string' ? e.r : 'unknown';
      byResource.set(resource, (byResource.get(resource) ?? 0) + 1);
    }
    return { byResource, exact: true };
  }
  const count = occurrences(line, '"t":"put"') + occurrences(line, '"t":"del"');
  if (count) byResource.set('unknown', count);
  return { byResource, exact: false };
}

function occurrences(text: string, part: string): number {
  let n = 0;
  for (let i = text.indexOf(part); i >= 0; i = text.indexOf(part, i + part.length)) n++;
  return n;
}
