import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { mayMislead, numberSource, parseExact, stringifyExact } from './exact-json.js';

/**
 * JSON read with exact numbers (issue 23 finding 8): an integer value beyond ±(2^53−1) is a
 * BigInt in any spelling, and the source of every literal whose number could mislead is kept.
 */

test('integers beyond 2^53 are BigInt whatever their spelling; within it, numbers', () => {
  const v = parseExact('{"a": 9223372036854775807, "b": 1e21, "c": 9.3e18, "d": 12.0e20, "e": -1e19, "f": 9007199254740991, "g": 1.2e1, "h": 1e15}') as Record<string, unknown>;
  assert.deepEqual(v, { a: 9223372036854775807n, b: 10n ** 21n, c: 9300000000000000000n, d: 12n * 10n ** 20n, e: -(10n ** 19n), f: 9007199254740991, g: 12, h: 1e15 });
  assert.equal(stringifyExact(v), '{"a":9223372036854775807,"b":1000000000000000000000,"c":9300000000000000000,"d":1200000000000000000000,"e":-10000000000000000000,"f":9007199254740991,"g":12,"h":1000000000000000}');
});

test('the source of a literal is kept where its number could mislead, and only there', () => {
  const text = '{"big": 1e21, "close": 1.0000000000000001, "tiny": 1e-400, "huge": 1e400, "plain": 12.5, "exp": 1.5e1, "list": [1, 99999999999999999999], "s": "1e21"}';
  const v = parseExact(text, { keepSources: true }) as Record<string, unknown> & { list: unknown[] };
  assert.deepEqual([v.close, v.tiny, v.huge, v.plain, v.exp], [1, 0, Infinity, 12.5, 15]);
  assert.deepEqual(['big', 'close', 'tiny', 'huge', 'plain', 'exp', 's'].map((k) => numberSource(v, k)), ['1e21', '1.0000000000000001', '1e-400', '1e400', undefined, undefined, undefined]);
  assert.deepEqual([numberSource(v.list, 0), numberSource(v.list, 1), numberSource(v.list, '1')], [undefined, '99999999999999999999', '99999999999999999999']);
  assert.equal(v.s, '1e21', 'text stays text');
  // Without keepSources (stored state) the values are the same and no source is kept.
  const stored = parseExact(text) as Record<string, unknown>;
  assert.deepEqual([stored.big, numberSource(stored, 'big')], [10n ** 21n, undefined]);
  // A whole document that is one number, and a document with nothing misleading: JSON.parse's.
  assert.equal(parseExact('1e21'), 10n ** 21n);
  assert.deepEqual(parseExact('{"a": "12345678901234567", "b": 0.25, "c": 1e2}'), { a: '12345678901234567', b: 0.25, c: 100 });
});

test('a 4 MB literal is read, and an integer is built only within the BigInt bound (1e999999999999 is never computed)', () => {
  const digits = '1'.repeat(4_000_000);
  const v = parseExact(`{"n": ${digits}, "m": 1e999999999999}`, { keepSources: true }) as Record<string, unknown>;
  assert.deepEqual([v.n, v.m, numberSource(v, 'n')?.length], [Infinity, Infinity, 4_000_000]);
});

test('text that is not JSON is refused with JSON’s own message, even where a rewritten literal would parse', () => {
  for (const text of ['{1e21: 1}', '{"a": 1e21 1e21}', '[1e21', '{"a": 99999999999999999999,}']) {
    let own = '';
    try { JSON.parse(text); } catch (err) { own = (err as Error).message; }
    assert.throws(() => parseExact(text), (err: Error) => err.message === own, text);
  }
});

test('strings with escapes and markers are text, and a member named __proto__ is data', () => {
  const v = parseExact('{"a": "x\\" 1e21 \\\\", "__proto__": 1e21, "b": "\\u0001num-000000000000:0"}') as Record<string, unknown>;
  assert.equal(v.a, 'x" 1e21 \\');
  assert.equal(Object.getPrototypeOf(v), Object.prototype);
  assert.ok(Object.hasOwn(v, '__proto__'));
  assert.equal(Object.getOwnPropertyDescriptor(v, '__proto__')!.value, 10n ** 21n);
  assert.equal(v.b, '\u0001num-000000000000:0');
});

test('the pre-test sends every literal with an exponent or 16 digits or more to the exact reading, in any member', () => {
  const digits = (min: number, max: number) => fc.array(fc.constantFrom(...'0123456789'), { minLength: min, maxLength: max }).map((d) => d.join(''));
  const literal = fc.record({ minus: fc.boolean(), int: fc.oneof(fc.constant('0'), fc.tuple(fc.constantFrom(...'123456789'), digits(0, 25)).map(([a, b]) => a + b)), frac: fc.option(digits(1, 25)), exp: fc.option(fc.tuple(fc.constantFrom('e', 'E'), fc.constantFrom('', '+', '-'), digits(1, 3)).map((p) => p.join(''))) })
    .map(({ minus, int, frac, exp }) => ({ text: `${minus ? '-' : ''}${int}${frac === null ? '' : `.${frac}`}${exp ?? ''}`, count: int.length + (frac?.length ?? 0), exp: exp !== null }));
  fc.assert(fc.property(literal, fc.constantFrom((l: string) => l, (l: string) => `{"a":[1,{"b":${l}}]}`, (l: string) => `{"s":"x9","n":${l},"t":true}`), ({ text, count, exp }, embed) => {
    if (exp || count >= 16) assert.ok(mayMislead(embed(text)), embed(text));
  }), { numRuns: 5_000 });
  // At the bound, every spelling: n digits, with the point after each of them or none, signed or not.
  for (let n = 14; n <= 18; n++) {
    const all = '9876543210123456789'.slice(0, n);
    for (let at = 1; at <= n; at++) {
      for (const sign of ['', '-']) {
        const text = `${sign}${at === n ? all : `${all.slice(0, at)}.${all.slice(at)}`}`;
        if (n >= 16) assert.ok(mayMislead(text), text);
      }
    }
  }
  for (const plain of ['{"schoolId":255901001,"d":"2024-08-21","f":1.5}', '123456789012345', '-1234567890123.5']) assert.equal(mayMislead(plain), false, plain);
});
