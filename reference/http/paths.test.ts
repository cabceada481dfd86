/**
 * Trailing slashes are cut from request paths in linear time (client text: issue 23's rule). The
 * cut equals the pattern it replaces on every path; its cost is counted in characters read,
 * never timed.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { trailingSlashesStart, withoutTrailingSlashes } from './paths.js';

test('the cut is the one /\\/+$/ made, on any path of slashes and letters', () => {
  assert.equal(withoutTrailingSlashes('/data/v3/ed-fi/schools//'), '/data/v3/ed-fi/schools');
  assert.equal(withoutTrailingSlashes('//'), '');
  assert.equal(withoutTrailingSlashes('/a/b'), '/a/b');
  fc.assert(fc.property(fc.stringMatching(/^[/ab%]{0,12}$/), (path) => withoutTrailingSlashes(path) === path.replace(/\/+$/, '')), { numRuns: 2000 });
});

test('a 16 KB run of slashes is read once, whatever follows it', () => {
  const run = '/'.repeat(16_384);
  for (const path of [run, `${run}x`, `x${run}`, `${run}x${run}`]) {
    let reads = 0;
    const start = trailingSlashesStart({ length: path.length, charCodeAt: (i) => { reads++; return path.charCodeAt(i); } });
    assert.equal(start, path.replace(/\/+$/, '').length);
    assert.ok(reads <= path.length - start + 1, `${reads} reads for a run of ${path.length - start}`);
  }
});
