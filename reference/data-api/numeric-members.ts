import { INT64_MAX, INT64_MIN } from '../http/exact-json.js';
import { compareExact, exactOf, isInteger, isZero, magnitude, readJsonNumber, toBigInt, type ExactNumber } from '../http/json-number.js';

/**
 * A number member's value judged by its exact value against the member's type (decisions #28):
 * int32 and int64 take integers in their range whatever the spelling (`12`, `12.0`, `1.2e1`),
 * a double takes what a double can hold, within the data standard's bounds (a decimal's digits),
 * compared exactly. Numeric text is read in the same forms as a number literal: JSON's grammar.
 * Never more work than linear in the text: an integer is built only once its digits fit the
 * type (`1e999999999` is refused by its length, not computed).
 */
export type NumberKind = 'int32' | 'int64' | 'double';

/** The value to store, or the message that refuses it (worded as validation words the same failure). */
export type NumberReading = { value: number | bigint } | { refused: string };

export interface Bounds {
  minimum?: number;
  maximum?: number;
}

const INTEGER_RANGE: Record<'int32' | 'int64', { min: bigint; max: bigint; digits: number }> = {
  int32: { min: -(2n ** 31n), max: 2n ** 31n - 1n, digits: 10 },
  int64: { min: INT64_MIN, max: INT64_MAX, digits: 19 },
};
const SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * Reads the member `prop` sent as `sent`: numeric text, or a number whose source literal
 * (`source`, kept by exact-json.ts when its JavaScript number could mislead) is judged instead
 * of that number. Undefined when there is nothing to read exactly (text that is no number, a
 * number that is what it says, any other value): validation judges those as sent.
 */
export function readNumberMember(kind: NumberKind, prop: string, sent: unknown, source: string | undefined, bounds: Bounds = {}): NumberReading | undefined {
  const literal = typeof sent === 'string' ? sent : source;
  if (literal === undefined) return undefined;
  const x = readJsonNumber(literal);
  if (!x) return undefined;
  if (kind === 'double') return readDouble(x, literal, prop, bounds);
  return readInteger(INTEGER_RANGE[kind], kind, x, typeof sent === 'string' ? JSON.stringify(sent) : literal, prop);
}

function readInteger(range: { min: bigint; max: bigint; digits: number }, kind: string, x: ExactNumber, shown: string, prop: string): NumberReading {
  if (!isInteger(x)) return { refused: `The value ${shown} is not valid for ${prop}; expected integer.` };
  const outside = { refused: `${prop} Value is outside the range of ${kind}.` };
  if (magnitude(x) > range.digits) return outside;
  const n = toBigInt(x);
  if (n < range.min || n > range.max) return outside;
  return { value: n > SAFE || n < -SAFE ? n : Number(n) };
}

function readDouble(x: ExactNumber, literal: string, prop: string, bounds: Bounds): NumberReading {
  const value = Number(literal);
  // Past the largest double it reads as Infinity; below the smallest, as 0.
  if (!Number.isFinite(value) || (value === 0 && !isZero(x))) return { refused: `${prop} Value is outside the range of double.` };
  if (bounds.maximum !== undefined && compareExact(x, exactOf(bounds.maximum)) > 0) return { refused: `${prop} must be <= ${bounds.maximum}.` };
  if (bounds.minimum !== undefined && compareExact(x, exactOf(bounds.minimum)) < 0) return { refused: `${prop} must be >= ${bounds.minimum}.` };
  return { value };
}
