/**
 * Bodies nesting arrays and objects deeper than MAX_JSON_DEPTH are refused before parsing
 * (body.ts): at the bound and one past it, however many brackets a shallow body has, and
 * whatever brackets its strings hold.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MAX_JSON_DEPTH, parseJson } from './body.js';
import { Problem } from './problems.js';

const nested = (depth: number) => '{"a":'.repeat(depth - 1) + '[]' + '}'.repeat(depth - 1);
const refusedForDepth = (text: string) => {
  try {
    parseJson(text);
    return false;
  } catch (err) {
    return err instanceof Problem && JSON.stringify(err).includes('deeper than');
  }
};

test('a body nesting to the bound is read; one level deeper is refused, objects or arrays', () => {
  assert.equal(refusedForDepth(nested(MAX_JSON_DEPTH)), false);
  assert.equal(refusedForDepth(nested(MAX_JSON_DEPTH + 1)), true);
  assert.equal(refusedForDepth('['.repeat(MAX_JSON_DEPTH) + ']'.repeat(MAX_JSON_DEPTH)), false);
  assert.equal(refusedForDepth('['.repeat(MAX_JSON_DEPTH + 1) + ']'.repeat(MAX_JSON_DEPTH + 1)), true);
});

test('many brackets side by side are no depth, nor are brackets inside strings', () => {
  const wide = `[${Array.from({ length: 500 }, () => '{"x":[1]}').join(',')}]`;
  assert.equal(refusedForDepth(wide), false);
  assert.deepEqual((parseJson(wide) as unknown[]).length, 500);
  const quoted = JSON.stringify({ text: '{['.repeat(200), more: ['\\"[[[['] });
  assert.equal(refusedForDepth(quoted), false);
  assert.equal(refusedForDepth(`{"t":"${'['.repeat(70)}","deep":${nested(MAX_JSON_DEPTH)}}`), true, 'one level more than the bound, beside a string of brackets');
});
