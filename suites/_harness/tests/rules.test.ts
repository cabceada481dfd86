import assert from 'node:assert/strict';
import { test } from 'node:test';
import { rule } from '../rules.js';

test('rule() tags a test with every rule id and family, the level of its primary rule only, and the others as exercised', () => {
  // A MUST rule tested beside a SHOULD one (its wording).
  const details = rule('data.authentication.missing-authorization-401', 'data.authentication.errors-entry-wording');
  assert.deepEqual(details.annotation, [
    { type: 'level', description: 'MUST' },
    { type: 'rule', description: 'data.authentication.missing-authorization-401' },
    { type: 'exercises', description: 'data.authentication.errors-entry-wording' },
  ]);
  const tags = details.tag as string[];
  for (const t of ['@must', '@data.authentication', '@data.authentication.missing-authorization-401', '@data.authentication.errors-entry-wording']) assert.ok(tags.includes(t), t);
  assert.ok(!tags.includes('@should'), 'the secondary rule\'s level is not the test\'s');
  assert.ok((rule('data.authentication.errors-entry-wording').tag as string[]).includes('@should'));
  assert.deepEqual((rule('data.authentication.errors-entry-wording').annotation as { type: string }[])[0], { type: 'level', description: 'SHOULD' });
});

test('rule() refuses an id that is not in the catalog', () => {
  assert.throws(() => rule('data.token.no-such-rule'), /unknown rule id/);
});

test('rule() refuses a rule named twice', () => {
  assert.throws(() => rule('data.token.endpoint-path', 'data.token.endpoint-path'), /names a rule twice/);
});
