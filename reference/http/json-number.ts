/**
 * JSON number literals read exactly, in linear time and without regular expressions: client
 * text reaches this code (a backtracking pattern on 40,000 digits once stalled every service
 * for seconds, issue 23). One grammar, JSON's, serves both number literals in a body and
 * numeric text in a number member (decisions #28: the same forms).
 */

/** What the scanner reads: a string, or (in tests) anything that counts its reads. */
export interface CharSource {
  readonly length: number;
  charCodeAt(index: number): number;
}

const ZERO = 0x30;
const NINE = 0x39;
const isDigit = (c: number) => c >= ZERO && c <= NINE;

/** Where a literal's parts lie in its text (indexes; a missing part has start === end). */
export interface NumberParts {
  /** Index just past the literal. */
  end: number;
  negative: boolean;
  intStart: number;
  intEnd: number;
  fracStart: number;
  fracEnd: number;
  expNegative: boolean;
  expStart: number;
  expEnd: number;
}

/**
 * The JSON number literal starting at `start` (`-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`),
 * or undefined when none starts there. Reads each character once.
 */
export function scanNumber(text: CharSource, start: number): NumberParts | undefined {
  const n = text.length;
  let i = start;
  let c = i < n ? text.charCodeAt(i) : -1;
  const negative = c === 0x2d;
  if (negative) c = ++i < n ? text.charCodeAt(i) : -1;
  if (!isDigit(c)) return undefined;
  const intStart = i;
  if (c === ZERO) c = ++i < n ? text.charCodeAt(i) : -1;
  else while (isDigit(c)) c = ++i < n ? text.charCodeAt(i) : -1;
  const intEnd = i;
  let fracStart = i;
  let fracEnd = i;
  if (c === 0x2e) {
    c = ++i < n ? text.charCodeAt(i) : -1;
    fracStart = i;
    while (isDigit(c)) c = ++i < n ? text.charCodeAt(i) : -1;
    fracEnd = i;
    if (fracEnd === fracStart) return undefined;
  }
  let expNegative = false;
  let expStart = i;
  let expEnd = i;
  if (c === 0x65 || c === 0x45) {
    c = ++i < n ? text.charCodeAt(i) : -1;
    if (c === 0x2b || c === 0x2d) {
      expNegative = c === 0x2d;
      c = ++i < n ? text.charCodeAt(i) : -1;
    }
    expStart = i;
    while (isDigit(c)) c = ++i < n ? text.charCodeAt(i) : -1;
    expEnd = i;
    if (expEnd === expStart) return undefined;
  }
  return { end: i, negative, intStart, intEnd, fracStart, fracEnd, expNegative, expStart, expEnd };
}

/**
 * A number's exact value: (−1)^negative × digits × 10^exponent, `digits` without leading or
 * trailing zeros (empty for zero). Exponents past ±1e15 are clamped there: no type comes near.
 */
export interface ExactNumber {
  negative: boolean;
  digits: string;
  exponent: number;
}

const EXPONENT_CLAMP = 1e15;

/** The exact value of `text` when the whole of it is one JSON number literal, else undefined. */
export function readJsonNumber(text: string): ExactNumber | undefined {
  const p = scanNumber(text, 0);
  return p && p.end === text.length ? exactValue(text, p) : undefined;
}

/** The exact value of a scanned literal. Linear in its length. */
export function exactValue(text: string, p: NumberParts): ExactNumber {
  let written = 0;
  for (let i = p.expStart; i < p.expEnd; i++) {
    written = written * 10 + (text.charCodeAt(i) - ZERO);
    if (written > EXPONENT_CLAMP) { written = EXPONENT_CLAMP; break; }
  }
  const mantissa = text.slice(p.intStart, p.intEnd) + text.slice(p.fracStart, p.fracEnd);
  let first = 0;
  while (first < mantissa.length && mantissa.charCodeAt(first) === ZERO) first++;
  let last = mantissa.length;
  while (last > first && mantissa.charCodeAt(last - 1) === ZERO) last--;
  const digits = mantissa.slice(first, last);
  const exponent = digits ? (p.expNegative ? -written : written) - (p.fracEnd - p.fracStart) + (mantissa.length - last) : 0;
  return { negative: p.negative && digits !== '', digits, exponent };
}

export const isZero = (x: ExactNumber) => x.digits === '';
export const isInteger = (x: ExactNumber) => x.exponent >= 0;

/** The place of the leading digit, counted from the decimal point: 3 for 123, 0 for 0.5, −2 for 0.001 (0 for zero). */
export const magnitude = (x: ExactNumber) => (isZero(x) ? 0 : x.digits.length + x.exponent);

/**
 * An integer value as a BigInt. The caller bounds `magnitude(x)` first (a type's digits, or
 * BIGINT_MAX_DIGITS): building the BigInt of 1e999999999 would take the process down.
 */
export function toBigInt(x: ExactNumber): bigint {
  if (!isInteger(x)) throw new RangeError('not an integer');
  if (magnitude(x) > BIGINT_MAX_DIGITS) throw new RangeError('integer too large to build');
  const n = BigInt(x.digits + '0'.repeat(x.exponent));
  return x.negative ? -n : n;
}

/** The most digits an integer is built with (any number member's range ends far below). */
export const BIGINT_MAX_DIGITS = 400;

/** The exact decimal a JavaScript number stands for, as written by the shortest round trip. */
export function exactOf(n: number): ExactNumber {
  const x = readJsonNumber(String(n));
  if (!x) throw new RangeError(`not a finite number: ${n}`);
  return x;
}

/** −1, 0 or 1 as a is less than, equal to or greater than b, exactly. Linear in their digits. */
export function compareExact(a: ExactNumber, b: ExactNumber): number {
  const sa = isZero(a) ? 0 : a.negative ? -1 : 1;
  const sb = isZero(b) ? 0 : b.negative ? -1 : 1;
  if (sa !== sb || sa === 0) return Math.sign(sa - sb);
  return sa * compareMagnitudes(a, b);
}

function compareMagnitudes(a: ExactNumber, b: ExactNumber): number {
  const ma = magnitude(a);
  const mb = magnitude(b);
  if (ma !== mb) return ma < mb ? -1 : 1;
  // Same leading place: digit strings compare from the left (neither has trailing zeros).
  const n = Math.max(a.digits.length, b.digits.length);
  for (let i = 0; i < n; i++) {
    const da = i < a.digits.length ? a.digits.charCodeAt(i) : ZERO - 1;
    const db = i < b.digits.length ? b.digits.charCodeAt(i) : ZERO - 1;
    if (da !== db) return da < db ? -1 : 1;
  }
  return 0;
}
