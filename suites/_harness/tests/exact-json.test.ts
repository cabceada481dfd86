/** exact-json.ts: integers past 2^53 written and read by their digits; everything else as JSON does. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { parseExact, stringifyExact } from '../exact-json.js';

/** What parseExact should give back for a value holding bigints: one a double holds is a plain number. */
const expected = (v: unknown): unknown => {
  if (typeof v === 'bigint') return BigInt(Number(v)) === v ? Number(v) : v;
  if (Array.isArray(v)) return v.map(expected);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, expected(x)]));
  return JSON.parse(JSON.stringify(v)); // -0 is written 0
};
/** A parsed value with each bigint as the double JSON.parse would have read. */
const asDoubles = (v: unknown): unknown => {
  if (typeof v === 'bigint') return Number(v);
  if (Array.isArray(v)) return v.map(asDoubles);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, asDoubles(x)]));
  return v;
};
const bigintsOf = (v: unknown): bigint[] =>
  typeof v === 'bigint' ? [v] : v && typeof v === 'object' ? Object.values(v).flatMap(bigintsOf) : [];

const withBigints = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }), fc.string({ maxLength: 6 }), fc.boolean(), fc.constant(null), fc.double({ noNaN: true, min: -1e15, max: 1e15 }), fc.array(tie('value'), { maxLength: 3 }), fc.dictionary(fc.string({ maxLength: 4 }), tie('value'), { maxKeys: 3 })),
})).value;

test('a value with bigints at any depth reads back exactly: unsafe integers as bigints, the rest as JSON.parse gives', () => {
  fc.assert(fc.property(withBigints, (v) => {
    assert.deepStrictEqual(parseExact(stringifyExact(v)), expected(v));
  }), { numRuns: 2000 });
});

test('without bigints, stringifyExact is JSON.stringify; parseExact is JSON.parse but for integers no double holds', () => {
  fc.assert(fc.property(fc.jsonValue(), (v) => {
    const text = JSON.stringify(v);
    assert.equal(stringifyExact(v), text);
    const parsed = parseExact(text);
    assert.deepStrictEqual(asDoubles(parsed), JSON.parse(text));
    // A double's shortest text may name an integer the double is not (-38954353821861450): that integer, exactly.
    for (const b of bigintsOf(parsed)) assert.notEqual(BigInt(Number(b)), b);
  }), { numRuns: 2000 });
});

test('digits inside strings, escaped quotes included, stay strings', () => {
  const text = '{"a":"12345678901234567890","b\\"":"x\\"9007199254740993","c":[9007199254740993,-9223372036854775808,1.5e300,9007199254740993.5]}';
  assert.deepStrictEqual(parseExact(text), { a: '12345678901234567890', 'b"': 'x"9007199254740993', c: [9007199254740993n, -9223372036854775808, 1.5e300, 9007199254740993.5] });
});

test('the largest and smallest int64 values and their neighbours past 2^53 are written as digits', () => {
  for (const n of [2n ** 63n - 1n, -(2n ** 63n) + 1n, 2n ** 53n + 1n]) {
    assert.equal(stringifyExact({ n }), `{"n":${n}}`);
    assert.deepStrictEqual(parseExact(`{"n":${n}}`), { n });
  }
  // A double holds these: JSON.parse's number, as a deployment may write the same value.
  for (const n of [2n ** 53n, -(2n ** 63n), 2n ** 63n]) assert.deepStrictEqual(parseExact(`[${n}]`), [Number(n)]);
});

test('bad JSON throws as JSON.parse does', () => {
  assert.throws(() => parseExact('{"a":9007199254740993'), SyntaxError);
  assert.throws(() => parseExact('{"a":1'), SyntaxError);
});
