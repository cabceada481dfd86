/** judged-on.ts: a kill only another configuration made is judged there again, not lost. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { demotedKills, judgedOn, targetName } from './judged-on.js';
import type { IncrementalReport } from './merge-incremental.js';

const at = (line: number, column: number, endColumn = column + 5) => ({ start: { line, column }, end: { line, column: endColumn } });
const mutant = (id: string, line: number, status: string, statusReason?: string, replacement = 'false') =>
  ({ id, mutatorName: 'ConditionalExpression', replacement, status, ...(statusReason ? { statusReason } : {}), location: at(line, 7) });
const on52 = 'suites/query-paging on reference-upstream.json: 1) suites/query-paging/query.spec.ts:59:3 › …';
const onDefault = 'suites/query-paging: 1) suites/query-paging/query.spec.ts:59:3 › …';
const report = (source: string, ...mutants: object[]): IncrementalReport => ({ files: { 'c.ts': { source, mutants: mutants as never } } });

test('judgedOn reads the target file family.ts names, and none for the default', () => {
  assert.equal(judgedOn(on52), 'reference-upstream.json');
  assert.equal(judgedOn('suites/token on reference-6.1.json: Error: …'), 'reference-6.1.json');
  assert.equal(judgedOn(onDefault), '');
  assert.equal(judgedOn(undefined), '');
  // A test title that happens to say "on x.json" is not the family's configuration.
  assert.equal(judgedOn('suites/items: 1) suites/items/a.spec.ts:3:1 › as suites/upsert on other.json: reads it'), '');
  assert.equal(targetName('suites/targets/reference-upstream.json'), 'reference-upstream.json');
  assert.equal(targetName(undefined), '');
});

test('a kill made on 5.2 that a run on the default target does not make is named, with its range', () => {
  const before = report('v1', mutant('1', 3, 'Killed', on52), mutant('2', 4, 'Killed', onDefault), mutant('3', 5, 'Survived'));
  const after = report('v1', mutant('7', 3, 'Survived'), mutant('8', 4, 'Survived'), mutant('9', 5, 'Survived'));
  const found = demotedKills(before, after, ['c.ts'], '');
  assert.deepEqual([...found.keys()], ['reference-upstream.json']);
  assert.deepEqual(found.get('reference-upstream.json')!.get('c.ts'), ['3:7-3:12']);
});

test('a kill made on the default target and lost on 5.2 is named for the default', () => {
  const before = report('v1', mutant('1', 4, 'Killed', onDefault));
  const after = report('v1', mutant('2', 4, 'NoCoverage'));
  assert.deepEqual(demotedKills(before, after, ['c.ts'], 'reference-upstream.json').get('')!.get('c.ts'), ['4:7-4:12']);
});

test('nothing is named when the run kills it too, when it ran on the same target, or when the module was not judged', () => {
  const before = report('v1', mutant('1', 3, 'Killed', on52), mutant('2', 4, 'Timeout', on52));
  assert.equal(demotedKills(before, report('v1', mutant('7', 3, 'Killed', onDefault), mutant('8', 4, 'Timeout', onDefault)), ['c.ts'], '').size, 0);
  assert.equal(demotedKills(before, report('v1', mutant('7', 3, 'Survived')), ['c.ts'], 'reference-upstream.json').size, 0);
  assert.equal(demotedKills(before, report('v1', mutant('7', 3, 'Survived')), ['d.ts'], '').size, 0);
  assert.equal(demotedKills(undefined, report('v1', mutant('7', 3, 'Survived')), ['c.ts'], '').size, 0);
  // Another replacement at the same place is another mutant.
  assert.equal(demotedKills(before, report('v1', mutant('7', 3, 'Survived', undefined, 'true')), ['c.ts'], '').size, 0);
});

test('a kill on a line that moved is followed to its new line; one on a changed line is a new mutant', () => {
  const before = report('a\nb\nif (x) y\nd', mutant('1', 3, 'Killed', on52));
  const moved = report('new\na\nb\nif (x) y\nd', mutant('7', 4, 'Survived'));
  assert.deepEqual(demotedKills(before, moved, ['c.ts'], '').get('reference-upstream.json')!.get('c.ts'), ['4:7-4:12']);
  const changed = report('a\nb\nif (x) z\nd', mutant('7', 3, 'Survived'));
  assert.equal(demotedKills(before, changed, ['c.ts'], '').size, 0);
});
