/**
 * JSON with exact integers: an int64 value past 2^53 has no JavaScript number, so a test that
 * writes one holds it as a bigint and reads the answer back without rounding it. Both directions
 * are linear in the text (a backtracking pattern on a deployment's answer would not be).
 */

// A marker JSON.stringify leaves as it is (no escape), and no body the suites build carries.
const MARK = '\u2063bigint:';
const MARKED = /"\u2063bigint:(-?\d+)"/g;

/** JSON text of `value`, each bigint written as its digits (a JSON number). */
export function stringifyExact(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch (e) {
    // Only a bigint makes JSON.stringify throw a TypeError on the suites' plain bodies.
    if (!(e instanceof TypeError)) throw e;
  }
  return JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? `${MARK}${v}` : v)).replace(MARKED, '$1');
}

const isDigit = (c: number) => c >= 48 && c <= 57;
/** Whether a double holds the integer literal `digits` exactly (as JSON.parse would read it). */
const exactDouble = (digits: string) => {
  const n = Number(digits);
  return Number.isSafeInteger(n) || (Number.isFinite(n) && BigInt(n) === BigInt(digits));
};
const inNumber = (c: number) => isDigit(c) || c === 46 || c === 101 || c === 69 || c === 43 || c === 45; // . e E + -

/**
 * Parses JSON text; an integer literal no double holds exactly (2^53 + 1, say) becomes a bigint of
 * its digits, every other value is JSON.parse's. Throws as JSON.parse does.
 */
export function parseExact(text: string): unknown {
  let marked = '';
  let last = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      // Skip the string, escapes included.
      for (i++; i < text.length && text.charCodeAt(i) !== 34; i++) if (text.charCodeAt(i) === 92) i++;
    } else if (c === 45 || isDigit(c)) {
      let end = i + 1;
      while (end < text.length && isDigit(text.charCodeAt(end))) end++;
      const integer = end === text.length || !inNumber(text.charCodeAt(end));
      // Fifteen digits or fewer always fit a double.
      if (integer && end - i > 15 && !exactDouble(text.slice(i, end))) {
        marked += `${text.slice(last, i)}"${MARK}${text.slice(i, end)}"`;
        last = end;
      }
      while (end < text.length && inNumber(text.charCodeAt(end))) end++;
      i = end - 1;
    }
  }
  if (!last) return JSON.parse(text);
  return JSON.parse(marked + text.slice(last), (_k, v: unknown) => (typeof v === 'string' && v.startsWith(MARK) ? BigInt(v.slice(MARK.length)) : v));
}
