import { randomBytes } from 'node:crypto';

/**
 * JSON with exact integers. `JSON.parse` silently rounds integers past 2^53, so an int64 key
 * such as 9223372036854775807 would be stored as another number (lost data). Integer literals
 * beyond the safe range are read as BigInt and written back digit for digit.
 */
const SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** Parses JSON text; integers outside ±(2^53−1) become BigInt. */
export function parseExact(text: string): unknown {
  if (!/\d{16}/.test(text)) return JSON.parse(text);
  const nonce = randomBytes(6).toString('hex');
  const marker = `\u0001int-${nonce}:`;
  let out = '';
  let i = 0;
  let big = false;
  while (i < text.length) {
    const c = text[i];
    if (c === '"') {
      // Copy the string literal through, escapes included.
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
      continue;
    }
    if (c === '-' || (c >= '0' && c <= '9')) {
      const m = /^-?\d+(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
      if (m) {
        const literal = m[0];
        if (!m[1] && !m[2] && (BigInt(literal) > SAFE || BigInt(literal) < -SAFE)) {
          out += JSON.stringify(`${marker}${literal}`);
          big = true;
        } else out += literal;
        i += literal.length;
        continue;
      }
    }
    out += c;
    i++;
  }
  const parsed = JSON.parse(out) as unknown;
  return big ? revive(parsed, marker) : parsed;
}

function revive(v: unknown, marker: string): unknown {
  if (typeof v === 'string' && v.startsWith(marker)) return BigInt(v.slice(marker.length));
  if (Array.isArray(v)) return v.map((x) => revive(x, marker));
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    for (const k of Object.keys(o)) o[k] = revive(o[k], marker);
  }
  return v;
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

/** Every BigInt in a document, with its JSON path. */
export function bigIntegers(v: unknown, path = '$', out: { path: string; value: bigint }[] = []): { path: string; value: bigint }[] {
  if (typeof v === 'bigint') out.push({ path, value: v });
  else if (Array.isArray(v)) v.forEach((x, i) => bigIntegers(x, `${path}[${i}]`, out));
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) bigIntegers(x, `${path}.${k}`, out);
  return out;
}

export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;
