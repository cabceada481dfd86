import assert from 'node:assert/strict';
import { test } from 'node:test';
import { numberSource, parseExact, stringifyExact } from './exact-json.js';

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
