import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readNumberMember } from './numeric-members.js';

/** A number member judged by its exact value against its type (issue 23 finding 8, decisions #28). */

const read = (kind: 'int32' | 'int64' | 'double', sent: unknown, source?: string, bounds = {}) => readNumberMember(kind, 'm', sent, source, bounds);

test('nothing to read: a number that is what it says, text that is no number, other values', () => {
  for (const sent of [5, 1.5, 2 ** 31, true, null, {}, ['5']]) assert.equal(read('int32', sent), undefined, JSON.stringify(sent));
  for (const sent of ['5x', '.5', '5.', '+5', '007', ' 5', '', 'NaN']) assert.equal(read('double', sent), undefined, sent);
});

test('integers at both ends of each range, in every spelling', () => {
  assert.deepEqual(read('int32', '2.147483647e9'), { value: 2147483647 });
  assert.deepEqual(read('int32', '-2147483648.000'), { value: -2147483648 });
  assert.deepEqual(read('int32', '2147483648'), { refused: 'm Value is outside the range of int32.' });
  assert.deepEqual(read('int32', -2147483649, '-2.147483649e9'), { refused: 'm Value is outside the range of int32.' });
  assert.deepEqual(read('int64', '9223372036854775807.0'), { value: 9223372036854775807n });
  assert.deepEqual(read('int64', '-9.223372036854775808e18'), { value: -9223372036854775808n });
  assert.deepEqual(read('int64', '9007199254740992'), { value: 9007199254740992n });
  assert.deepEqual(read('int64', '9007199254740991'), { value: 9007199254740991 });
  assert.deepEqual(read('int64', '-9007199254740991'), { value: -9007199254740991 });
  assert.deepEqual(read('int64', '-9223372036854775809'), { refused: 'm Value is outside the range of int64.' });
  // More integer digits than the type has is refused by length, before any integer is built.
  assert.deepEqual(read('int64', `1${'0'.repeat(19)}`), { refused: 'm Value is outside the range of int64.' });
  assert.deepEqual(read('int32', '1e10'), { refused: 'm Value is outside the range of int32.' });
  assert.deepEqual(read('int32', '0.0e999999999999'), { value: 0 });
});

test('a fraction is no integer, shown as it was sent', () => {
  assert.deepEqual(read('int32', '12.5'), { refused: 'The value "12.5" is not valid for m; expected integer.' });
  assert.deepEqual(read('int32', 1, '1.0000000000000001'), { refused: 'The value 1.0000000000000001 is not valid for m; expected integer.' });
});

test('doubles: what a double can hold, within the bounds by exact value', () => {
  assert.deepEqual(read('double', '12.5'), { value: 12.5 });
  assert.deepEqual(read('double', 10n ** 21n, '1e21'), { value: 1e21 });
  assert.deepEqual(read('double', '0e-400'), { value: 0 });
  for (const text of ['1e-400', '-1e-400', '1e309', '-1e309']) assert.deepEqual(read('double', text), { refused: 'm Value is outside the range of double.' }, text);
  const bounds = { minimum: -999.99, maximum: 999.99 };
  assert.deepEqual(read('double', '999.99', undefined, bounds), { value: 999.99 });
  assert.deepEqual(read('double', '-999.99', undefined, bounds), { value: -999.99 });
  assert.deepEqual(read('double', '999.99000000000000001', undefined, bounds), { refused: 'm must be <= 999.99.' });
  assert.deepEqual(read('double', '-999.99000000000000001', undefined, bounds), { refused: 'm must be >= -999.99.' });
  assert.deepEqual(read('double', 1000, '1e3', { maximum: 999.99 }), { refused: 'm must be <= 999.99.' });
  assert.deepEqual(read('double', -1000, '-1e3', { minimum: 0 }), { refused: 'm must be >= 0.' });
});
