import assert from 'node:assert/strict';
import { test } from 'node:test';
import { rule } from '../rules.js';

test('rule() tags a test with its rules and levels', () => {
  const details = rule('data.token.response-shape', 'data.token.invalid-client-401');
  assert.deepEqual(details.annotation, [
    { type: 'rule', description: 'data.token.response-shape' },
    { type: 'rule', description: 'data.token.invalid-client-401' },
  ]);
  assert.ok((details.tag as string[]).includes('@must'));
  assert.ok((details.tag as string[]).includes('@should'));
});

test('rule() refuses an id that is not in the catalog', () => {
  assert.throws(() => rule('data.token.no-such-rule'), /unknown rule id/);
});
