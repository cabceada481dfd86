import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assertRangeable, forgetTimeouts, mergeModules, type IncrementalReport } from './merge-incremental.js';

// tests('x0', 'y1'): family x is test 0, family y test 1.
const tests = (...names: string[]) => Object.fromEntries(names.map(([n, id]) => [`families/${n}.txt`, { tests: [{ id, name: `families/${n}.txt` }], source: n }]));

test('mergeModules: the narrowed module replaces its own entry, every other module keeps its results', () => {
  const group: IncrementalReport = {
    files: {
      'a.ts': { source: 'a1', mutants: [{ id: '1', killedBy: ['0'], coveredBy: ['0', '1'] }] },
      'b.ts': { source: 'b1', mutants: [{ id: '2', killedBy: ['1'], coveredBy: ['1'] }] },
    },
    testFiles: tests('x0', 'y1'),
    schemaVersion: '2',
  };
  // The narrowed run numbered its tests the other way round, and knows a new family z.
  const narrowed: IncrementalReport = {
    files: { 'b.ts': { source: 'b2', mutants: [{ id: '9', killedBy: ['0'], coveredBy: ['0', '2'] }] } },
    testFiles: tests('y0', 'x1', 'z2'),
  };
  const merged = mergeModules(group, narrowed, ['b.ts']);
  assert.deepEqual(merged.files['a.ts'], group.files['a.ts']);
  assert.equal(merged.files['b.ts'].source, 'b2');
  // y is test 1 in the group's numbering, z a fresh 2.
  assert.deepEqual(merged.files['b.ts'].mutants, [{ id: '9', killedBy: ['1'], coveredBy: ['1', '2'] }]);
  assert.deepEqual(Object.values(merged.testFiles!).map((f) => f.tests[0].id).sort(), ['0', '1', '2']);
  assert.equal(merged.testFiles!['families/z.txt'].tests[0].id, '2');
  assert.equal(merged.schemaVersion, '2');
});

test('mergeModules: without a group file the narrowed report is the group file; a module missing from the run is an error', () => {
  const narrowed: IncrementalReport = { files: { 'b.ts': { mutants: [] } }, testFiles: tests('x0') };
  assert.equal(mergeModules(undefined, narrowed, ['b.ts']), narrowed);
  assert.throws(() => mergeModules({ files: {} }, narrowed, ['c.ts']), /no results for c\.ts/);
  assert.throws(() => mergeModules({ files: {} }, { files: { 'b.ts': { mutants: [{ id: '1', killedBy: ['7'] }] } }, testFiles: {} }, ['b.ts']), /test 7/);
});

test('forgetTimeouts: only the named modules\' timed-out mutants are dropped, so Stryker judges them again', () => {
  const dir = mkdtempSync(join(tmpdir(), 'timeouts-'));
  const path = join(dir, 'group.json');
  const mutants = [{ id: '1', status: 'Timeout' }, { id: '2', status: 'Killed' }, { id: '3', status: 'Survived' }];
  writeFileSync(path, JSON.stringify({ files: { 'a.ts': { mutants }, 'b.ts': { mutants } } }));
  assert.equal(forgetTimeouts(path, ['a.ts', 'c.ts']), 1);
  const after = JSON.parse(readFileSync(path, 'utf8')) as IncrementalReport;
  assert.deepEqual(after.files['a.ts'].mutants.map((m) => m.id), ['2', '3']);
  assert.deepEqual(after.files['b.ts'].mutants.map((m) => m.id), ['1', '2', '3']);
  rmSync(dir, { recursive: true });
});

test('mergeModules, ranged: the judged mutants replace their namesakes, the module\'s others are kept, ids stay unique; a changed source is refused', () => {
  const at = (line: number) => ({ start: { line, column: 1 } });
  const group: IncrementalReport = {
    files: { 'a.ts': { source: 's', mutants: [
      { id: '1', mutatorName: 'M', replacement: 'x', location: at(1), status: 'Survived' },
      { id: '2', mutatorName: 'M', replacement: 'x', location: at(2), status: 'Killed', killedBy: ['0'] },
    ] } },
    testFiles: tests('x0'),
  };
  const narrowed: IncrementalReport = {
    files: { 'a.ts': { source: 's', mutants: [{ id: '1', mutatorName: 'M', replacement: 'x', location: at(1), status: 'Killed', killedBy: ['0'] }] } },
    testFiles: tests('x0'),
  };
  const merged = mergeModules(group, narrowed, ['a.ts'], true).files['a.ts'].mutants;
  assert.deepEqual(merged.map((m) => [m.location?.start.line, m.status]), [[2, 'Killed'], [1, 'Killed']]);
  assert.equal(new Set(merged.map((m) => m.id)).size, 2);
  assert.throws(() => mergeModules(group, { ...narrowed, files: { 'a.ts': { ...narrowed.files['a.ts'], source: 't' } } }, ['a.ts'], true), /changed since/);
});

test('assertRangeable: a ranged run is refused before it starts when the module\'s code differs from the recorded results; unrecorded modules and unchanged code pass', () => {
  const group: IncrementalReport = { files: { 'a.ts': { source: 's', mutants: [] } }, testFiles: {} };
  assert.throws(() => assertRangeable(group, 'a.ts', 't'), /a\.ts changed since its results were recorded/);
  assert.doesNotThrow(() => assertRangeable(group, 'a.ts', 's'));
  assert.doesNotThrow(() => assertRangeable(group, 'b.ts', 't'));
  assert.doesNotThrow(() => assertRangeable(undefined, 'a.ts', 't'));
});
