import { createHash } from 'node:crypto';
import { parseExact, stringifyExact } from '../http/exact-json.js';

/**
 * The line form both store files use (journal and state file): `{"c":"<checksum>","e":<json>}`,
 * the checksum (16 hex digits of SHA-256) taken over the text of `e`, so that a changed byte is
 * seen, never loaded in silence. Read by position, not by pattern: a line may be megabytes long.
 */
const PREFIX = '{"c":"';
const MIDDLE = '","e":';
const CHECKSUM_LENGTH = 16;
const BODY_START = PREFIX.length + CHECKSUM_LENGTH + MIDDLE.length;

export const checksum = (text: string): string => createHash('sha256').update(text).digest('hex').slice(0, CHECKSUM_LENGTH);

/** One line, newline included. */
export function checksummedLine(value: unknown): string {
  const text = stringifyExact(value);
  return `${PREFIX}${checksum(text)}${MIDDLE}${text}}\n`;
}

/** Whether a line has the checksummed form at all (else it may be an earlier version's). */
export function isChecksummedLine(line: string): boolean {
  return line.startsWith(PREFIX) && line.startsWith(MIDDLE, PREFIX.length + CHECKSUM_LENGTH) && line.endsWith('}');
}

/** The value of a line (without its newline), or undefined when its form or checksum is wrong. */
export function readChecksummedLine(line: string): unknown {
  if (!isChecksummedLine(line)) return undefined;
  const body = line.slice(BODY_START, -1);
  if (checksum(body) !== line.slice(PREFIX.length, PREFIX.length + CHECKSUM_LENGTH)) return undefined;
  try { return parseExact(body); } catch { return undefined; }
}

/**
 * What a damaged line still shows of its content, for recovery's report: its value when the
 * text still parses (a changed byte inside a string), else nothing.
 */
export function salvage(line: string): unknown {
  const body = isChecksummedLine(line) ? line.slice(BODY_START, -1) : line;
  try { return parseExact(body); } catch { return undefined; }
}
