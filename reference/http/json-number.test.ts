import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BIGINT_MAX_DIGITS, compareExact, exactOf, isInteger, magnitude, readJsonNumber, scanNumber, toBigInt, type CharSource } from './json-number.js';

/**
 * JSON number literals read exactly and in linear time (issue 23 findings 1 and 8). Linearity is
 * checked by counting the characters the scanner reads, never by a clock.
 */

/** A string that counts how often its characters are read. */
function counted(text: string): CharSource & { reads: number } {
  const source = { reads: 0, length: text.length, charCodeAt: (i: number) => { source.reads++; return text.charCodeAt(i); } };
  return source;
}

test('the scanner takes exactly JSON’s number grammar', () => {
  for (const ok of ['0', '-0', '7', '12', '-12', '12.5', '0.5', '1e3', '1E3', '1e+3', '1e-3', '-1.25E-10', '9223372036854775807']) {
    assert.equal(scanNumber(ok, 0)?.end, ok.length, ok);
  }
  // Not a number at all, or a broken part.
  for (const bad of ['', '-', '.5', '+5', 'x1', '1.', '1e', '1e+', '-.5', ' 5', 'e5']) {
    const p = scanNumber(bad, 0);
    assert.ok(p === undefined || p.end < bad.length, bad);
  }
  // A literal ends where the grammar does: the rest is for the caller to judge.
  for (const [text, end] of [['007', 1], ['5.', undefined], ['12x', 2], ['1e3.5', 3], ['1.5.5', 3], ['12 ', 2]] as const) assert.equal(scanNumber(text, 0)?.end, end, text);
  assert.equal(scanNumber('[12,-3]', 4)?.end, 6, 'from an offset');
});

test('exact values: digits without leading or trailing zeros, and where the point is', () => {
  const exact = (text: string) => { const x = readJsonNumber(text)!; return [x.negative, x.digits, x.exponent]; };
  assert.deepEqual(exact('12'), [false, '12', 0]);
  assert.deepEqual(exact('1200'), [false, '12', 2]);
  assert.deepEqual(exact('12.0'), [false, '12', 0]);
  assert.deepEqual(exact('0.0012'), [false, '12', -4]);
  assert.deepEqual(exact('-1.5e1'), [true, '15', 0]);
  assert.deepEqual(exact('1e21'), [false, '1', 21]);
  assert.deepEqual(exact('9.3e18'), [false, '93', 17]);
  assert.deepEqual(exact('1e-400'), [false, '1', -400]);
  assert.deepEqual(exact('-0.000'), [false, '', 0], 'zero has no sign and no digits');
  assert.deepEqual(exact('1.0000000000000001'), [false, '10000000000000001', -16]);
  assert.equal(readJsonNumber('12x'), undefined);
  assert.equal(readJsonNumber('.5'), undefined);
  // An exponent too long to matter is clamped, never computed.
  assert.ok(readJsonNumber(`1e${'9'.repeat(100_000)}`)!.exponent >= 1e15);
  assert.ok(readJsonNumber(`1e-${'9'.repeat(100_000)}`)!.exponent <= -1e15);
  assert.deepEqual([isInteger(readJsonNumber('1.5e1')!), isInteger(readJsonNumber('1.55e1')!)], [true, false]);
  assert.deepEqual(['123', '0.5', '0.001', '0', '1e21'].map((t) => magnitude(readJsonNumber(t)!)), [3, 0, -2, 0, 22]);
});

test('integers are built as BigInt only within a bound', () => {
  assert.equal(toBigInt(readJsonNumber('9.223372036854775807e18')!), 9223372036854775807n);
  assert.equal(toBigInt(readJsonNumber('-12.0e1')!), -120n);
  assert.throws(() => toBigInt(readJsonNumber('1.5')!), RangeError);
  assert.throws(() => toBigInt(readJsonNumber(`1e${BIGINT_MAX_DIGITS}`)!), RangeError);
  assert.throws(() => toBigInt(readJsonNumber('1e999999999999')!), RangeError);
});

test('exact comparison, including values a double cannot tell apart', () => {
  const cmp = (a: string, b: string) => compareExact(readJsonNumber(a)!, readJsonNumber(b)!);
  assert.equal(cmp('999.99', '999.99'), 0);
  assert.equal(cmp('999.9900', '9.9999e2'), 0);
  assert.equal(cmp('999.99000000000000001', '999.99'), 1);
  assert.equal(cmp('999.98999999999999999', '999.99'), -1);
  assert.equal(cmp('-999.99000000000000001', '-999.99'), -1);
  assert.equal(cmp('0', '-0.0'), 0);
  assert.equal(cmp('0', '1e-400'), -1);
  assert.equal(cmp('-1e-400', '0'), -1);
  assert.equal(cmp('12', '120'), -1);
  assert.equal(cmp('12', '1.25e1'), -1);
  assert.equal(cmp('1e21', '999999999999999999999'), 1);
  assert.equal(compareExact(exactOf(999999.999), readJsonNumber('999999.999')!), 0);
  assert.equal(compareExact(exactOf(1e21), readJsonNumber('1e21')!), 0);
  assert.throws(() => exactOf(Infinity), RangeError);
});

test('the scanner reads each character of a 4 MB literal at most once (linear, whatever follows it)', () => {
  const digits = '1'.repeat(4_000_000);
  for (const text of [digits, `${digits}x`, `${digits}.${digits.slice(0, 100)}x`, `0.${digits}e`, `${digits.slice(0, 10)}e${digits}`]) {
    const source = counted(text);
    scanNumber(source, 0);
    assert.ok(source.reads <= text.length + 1, `${source.reads} reads of ${text.length} characters`);
  }
  // The exact value of a 4 MB literal is its digits, read once more by slicing: no conversion.
  const x = readJsonNumber(`${digits}.5`)!;
  assert.deepEqual([x.digits.length, x.exponent], [4_000_001, -1]);
});
