import { parseExact } from '../http/exact-json.js';
import { checksummedLine, isChecksummedLine, readChecksummedLine, salvage } from './checksummed-lines.js';
import { isDeleteEvent, isKeyChangeEvent, isStoredRecord } from './journal-entries.js';
import type { DeleteEvent, KeyChangeEvent, StoredRecord } from './store.js';

/**
 * The compacted state of a durable store: one checksummed line per record and change event
 * after a header line with the counters, the journal generation it includes and the number of
 * lines that follow. A changed byte is caught at start-up in the line it hit; recovery can drop
 * that one record and say which resource lost it, and a truncated file is told by its count.
 * A state file of an earlier version (one JSON document, no checksums) is still read.
 */
export interface PersistedState {
  generation: number;
  /** The data standard of the deployment that wrote it; absent in files written before it was recorded. */
  standard?: string;
  version: number;
  descriptorIds: number;
  collections: Record<string, { records: StoredRecord[]; deletes: DeleteEvent[]; keyChanges: KeyChangeEvent[] }>;
}

/** A data store file that cannot be loaded: one line naming the file and where, never its content. */
export class StoreFileError extends Error {}

const FORMAT = 2;
type Header = { format: number; generation: number; standard?: string; version: number; descriptorIds: number; lines: number };
type Line = { r: string; rec: StoredRecord } | { r: string; del: DeleteEvent } | { r: string; kc: KeyChangeEvent };

export function encodeState(state: PersistedState): string {
  const lines: string[] = [];
  for (const [r, c] of Object.entries(state.collections)) {
    for (const rec of c.records) lines.push(checksummedLine({ r, rec }));
    for (const del of c.deletes) lines.push(checksummedLine({ r, del }));
    for (const kc of c.keyChanges) lines.push(checksummedLine({ r, kc }));
  }
  const header: Header = { format: FORMAT, generation: state.generation, ...(state.standard ? { standard: state.standard } : {}), version: state.version, descriptorIds: state.descriptorIds, lines: lines.length };
  return checksummedLine(header) + lines.join('');
}

/** Records and change events a recovery dropped, by resource. */
export type Lost = Map<string, number>;

/**
 * The state a file holds. A damaged line stops start-up naming it, unless `recover`: then it is
 * left out and counted in `lost`. A damaged header is never recovered (it says which journals
 * follow the state).
 */
export function decodeState(file: string, text: string, recover: boolean): { state: PersistedState; lost: Lost; legacy: boolean } {
  if (!text.trim()) throw new StoreFileError(`data store file ${file} cannot be loaded: it is empty; restore it from a backup or move it away`);
  if (!isChecksummedLine(firstLine(text))) return { state: decodeLegacy(file, text), lost: new Map(), legacy: true };
  const lines = text.split('\n');
  // A line cut short fails its checksum; a missing final newline alone loses nothing.
  if (lines[lines.length - 1] === '') lines.pop();
  const header = readChecksummedLine(lines[0]) as Header | undefined;
  if (!header || header.format !== FORMAT || ![header.generation, header.version, header.descriptorIds, header.lines].every((n) => Number.isSafeInteger(n) && n >= 0)
    || (header.standard !== undefined && typeof header.standard !== 'string')) {
    throw new StoreFileError(`data store file ${file} cannot be loaded: its first line (the header) is damaged; restore it from a backup or move it away`);
  }
  const state: PersistedState = { generation: header.generation, ...(header.standard ? { standard: header.standard } : {}), version: header.version, descriptorIds: header.descriptorIds, collections: Object.create(null) as PersistedState['collections'] };
  const lost: Lost = new Map();
  const damaged = (i: number, offset: number, line: string) => {
    if (!recover) throw new StoreFileError(`data store file ${file} is damaged at line ${i + 1} (byte ${offset}): restore it from a backup, or start with --recover to drop the damaged records`);
    const resource = resourceOf(line);
    lost.set(resource, (lost.get(resource) ?? 0) + 1);
  };
  let offset = Buffer.byteLength(lines[0]) + 1;
  for (let i = 1; i < lines.length; i++) {
    const line = readChecksummedLine(lines[i]) as Line | undefined;
    if (!line || typeof line.r !== 'string' || !add(state, line)) damaged(i, offset, lines[i]);
    offset += Buffer.byteLength(lines[i]) + 1;
  }
  const missing = header.lines - (lines.length - 1);
  if (missing > 0) {
    if (!recover) throw new StoreFileError(`data store file ${file} is truncated: ${missing} of its ${header.lines} records are missing; restore it from a backup, or start with --recover to start without them`);
    lost.set('unknown', (lost.get('unknown') ?? 0) + missing);
  }
  return { state, lost, legacy: false };
}

/** Adds one line to the state; false when its content is not a record or event. */
function add(state: PersistedState, line: Line): boolean {
  const c = (state.collections[line.r] ??= { records: [], deletes: [], keyChanges: [] });
  if ('rec' in line && isStoredRecord(line.rec)) c.records.push(line.rec);
  else if ('del' in line && isDeleteEvent(line.del)) c.deletes.push(line.del);
  else if ('kc' in line && isKeyChangeEvent(line.kc)) c.keyChanges.push(line.kc);
  else return false;
  return true;
}

/** The resource a damaged line was about: lines start with it, so a cut or garbled line still tells. */
function resourceOf(line: string): string {
  const r = (salvage(line) as { r?: unknown } | undefined)?.r;
  if (typeof r === 'string') return r;
  const start = line.indexOf('"e":{"r":"');
  const end = start < 0 ? -1 : line.indexOf('"', start + 10);
  return end > start ? line.slice(start + 10, end) : 'unknown';
}

function firstLine(text: string): string {
  const end = text.indexOf('\n');
  return end < 0 ? text : text.slice(0, end);
}

/** The one JSON document an earlier version wrote; its form is all that can be checked. */
function decodeLegacy(file: string, text: string): PersistedState {
  let s: Partial<PersistedState> | null;
  try {
    s = parseExact(text) as Partial<PersistedState> | null;
  } catch {
    // The parser's message quotes the file's content: say only what and where.
    throw new StoreFileError(`data store file ${file} cannot be loaded: it is not valid JSON (damaged or truncated); restore it from a backup or move it away`);
  }
  if (!s || typeof s !== 'object' || typeof s.generation !== 'number' || typeof s.version !== 'number' || typeof s.collections !== 'object' || s.collections === null) {
    throw new StoreFileError(`data store file ${file} cannot be loaded: it is not a data store state (generation, version, collections); restore it from a backup or move it away`);
  }
  s.descriptorIds ??= 0;
  return s as PersistedState;
}

/** "3 records (gradeLevelDescriptor 2, school 1)"; not exact: "at least …" (unreadable lines hide some). */
export function describeLost(lost: Lost, exact = true): string {
  const total = [...lost.values()].reduce((a, b) => a + b, 0);
  const parts = [...lost].map(([r, n]) => `${r} ${n}`).join(', ');
  if (!exact && !total) return 'an unknown number of records';
  return `${exact ? '' : 'at least '}${total} record${total === 1 ? '' : 's'}${parts ? ` (${parts})` : ''}`;
}
