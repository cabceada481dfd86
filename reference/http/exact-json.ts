import { randomBytes } from 'node:crypto';
import { BIGINT_MAX_DIGITS, exactValue, isInteger, magnitude, scanNumber, toBigInt, type NumberParts } from './json-number.js';

/**
 * JSON with exact numbers. `JSON.parse` rounds: an int64 key such as 9223372036854775807 would be
 * stored as another number (lost data), `1e21` would pass as an integer no int64 holds, `1e-400`
 * would read as 0 and `1.0000000000000001` as the integer 1. So a literal whose JavaScript number
 * could mislead is read exactly: an integer value beyond ±(2^53−1) becomes a BigInt, whatever
 * its spelling (`9223372036854775807`, `1e21`, `12.0e20`), written back digit for digit; and the
 * source text of every such literal is kept beside the parsed document (numberSource) for a
 * member's type to judge (decisions #28, reference/data-api/normalize.ts).
 */
const SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * A cheap pre-test (bounded repeats, linear): without a digit followed by an exponent or by 15
 * more digits or points, every literal has at most 15 digits and no exponent (a literal starts
 * with a digit after its sign and holds one point at most), and its number is exactly what it
 * says. Text that passes may still hold no misleading literal (15 digits and a point): the exact
 * reading then finds none.
 */
const MAY_MISLEAD = /\d(?:[eE]|[\d.]{15})/;

/** Whether JSON text may hold a literal whose JavaScript number could mislead (then it is read exactly). */
export const mayMislead = (text: string): boolean => MAY_MISLEAD.test(text);

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Source text of the misleading literals, per parsed container and key. */
const sources = new WeakMap<object, Map<string, string>>();

/** The source text of the number at `container[key]` when its number could mislead, else undefined. */
export function numberSource(container: object, key: string | number): string | undefined {
  return sources.get(container)?.get(String(key));
}

/**
 * Parses JSON text; numbers whose JavaScript number could mislead are read as above, and with
 * `keepSources` (request bodies; not stored state, whose sources would live as long as the
 * store) their source text is kept for numberSource.
 */
export function parseExact(text: string, { keepSources = false } = {}): unknown {
  if (!mayMislead(text)) return JSON.parse(text);
  // Parsed as is first: it refuses text that is not JSON with JSON's own message, before a
  // rewritten literal could make it JSON (a number where a key belongs turned into a string).
  const plain = JSON.parse(text) as unknown;
  const marker = `\u0001num-${randomBytes(6).toString('hex')}:`;
  const literals: string[] = [];
  let out = '';
  let copied = 0;
  for (let i = 0; i < text.length;) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i = stringEnd(text, i);
      continue;
    }
    const p = c === 0x2d || (c >= 0x30 && c <= 0x39) ? scanNumber(text, i) : undefined;
    if (!p) {
      i++;
      continue;
    }
    if (misleads(text, p)) {
      out += text.slice(copied, i) + JSON.stringify(`${marker}${literals.length}`);
      literals.push(text.slice(i, p.end));
      copied = p.end;
    }
    i = p.end;
  }
  if (!literals.length) return plain;
  const holder = { value: JSON.parse(out + text.slice(copied)) as unknown };
  revive(holder, marker, literals, keepSources);
  return holder.value;
}

/** Index just past the string literal opening at `i` (escapes skipped). */
function stringEnd(text: string, i: number): number {
  for (i++; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === BACKSLASH) i++;
    else if (c === QUOTE) return i + 1;
  }
  return text.length;
}

/**
 * Whether a literal's number may differ from its exact value in a way a type can tell: more
 * than 15 significant digits (up to 15, distinct values stay distinct numbers, in order), an
 * integer beyond ±(2^53−1), or a fraction so small it would read as 0.
 */
function misleads(text: string, p: NumberParts): boolean {
  if (p.end - p.intStart <= 15 && p.expStart === p.expEnd) return false;
  const x = exactValue(text, p);
  return x.digits.length > 15 || (isInteger(x) ? magnitude(x) > 15 : magnitude(x) <= -300);
}

/** A misleading literal's value: a BigInt for an integer beyond ±(2^53−1) that can be built, else its number. */
function readLiteral(literal: string): number | bigint {
  const x = exactValue(literal, scanNumber(literal, 0)!);
  if (!isInteger(x) || magnitude(x) > BIGINT_MAX_DIGITS) return Number(literal);
  const n = toBigInt(x);
  return n > SAFE || n < -SAFE ? n : Number(n);
}

/** Replaces the markers under `container` by their literals' values and keeps their sources. */
function revive(container: Record<string, unknown>, marker: string, literals: string[], keepSources: boolean): void {
  for (const key of Object.keys(container)) {
    const v = container[key];
    if (v && typeof v === 'object') revive(v as Record<string, unknown>, marker, literals, keepSources);
    else if (typeof v === 'string' && v.startsWith(marker)) {
      const literal = literals[Number(v.slice(marker.length))];
      // defineProperty: a member named __proto__ is data here, not the prototype.
      Object.defineProperty(container, key, { value: readLiteral(literal), writable: true, enumerable: true, configurable: true });
      if (!keepSources) continue;
      let kept = sources.get(container);
      if (!kept) sources.set(container, (kept = new Map()));
      kept.set(key, literal);
    }
  }
}

/** JSON text of a value that may hold BigInt integers, written as plain JSON numbers. */
export function stringifyExact(value: unknown): string {
  // Fast path: JSON.stringify without a replacer stays on V8's fast serializer; it throws a
  // TypeError only when a BigInt is present, and then the replacer path below handles it.
  try {
    return JSON.stringify(value);
  } catch (err) {
    if (!(err instanceof TypeError)) throw err;
  }
  let big = false;
  const text = JSON.stringify(value, (_k, v: unknown) => {
    if (typeof v !== 'bigint') return v;
    big = true;
    return `\u0001bigint:${v.toString()}`;
  });
  return big ? text.replace(/"\\u0001bigint:(-?\d+)"/g, '$1') : text;
}

/** Every BigInt in a document, with its JSON path (built only for those: most documents have none). */
export function bigIntegers(v: unknown): { path: string; value: bigint }[] {
  const out: { path: string; value: bigint }[] = [];
  const keys: (string | number)[] = [];
  const visit = (x: unknown): void => {
    if (typeof x === 'bigint') out.push({ path: keys.reduce<string>((p, k) => (typeof k === 'number' ? `${p}[${k}]` : `${p}.${k}`), '$'), value: x });
    else if (Array.isArray(x)) for (let i = 0; i < x.length; i++) { keys.push(i); visit(x[i]); keys.pop(); }
    else if (x && typeof x === 'object') for (const k of Object.keys(x)) { keys.push(k); visit((x as Record<string, unknown>)[k]); keys.pop(); }
  };
  visit(v);
  return out;
}

export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;
