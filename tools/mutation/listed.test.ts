import assert from 'node:assert/strict';
import { test } from 'node:test';
import { unusedEntries, type Equivalent, type Mutant, type Report } from './listed.js';

const mutant = (line: number, column: number, status: string, replacement = 'true'): Mutant => ({ id: `${line}:${column}`, mutatorName: 'ConditionalExpression', replacement, status, location: { start: { line, column } } });
const entry = (line: number, more: Partial<Equivalent> = {}): Equivalent => ({ file: 'a.ts', line, mutator: 'ConditionalExpression', replacement: 'true', reason: 'r', ...more });
const report = (mutants: Mutant[], source?: string): Report => ({ files: { 'a.ts': { mutants, ...(source !== undefined ? { source } : {}) } } });
const today = () => 'one\ntwo\nthree\n';

test('unusedEntries: an entry naming a survivor or an uncovered mutant is used; one naming a killed mutant or nothing is not', () => {
  const entries = [entry(1), entry(2), entry(3), entry(9)];
  const r = report([mutant(1, 5, 'Survived'), mutant(2, 5, 'NoCoverage'), mutant(3, 5, 'Killed')]);
  assert.deepEqual(unusedEntries(entries, [{ kind: 'unit', report: r }], today), [entry(3), entry(9)]);
});

test('unusedEntries: column and replacement narrow what an entry names', () => {
  const r = report([mutant(1, 5, 'Survived')]);
  assert.deepEqual(unusedEntries([entry(1, { column: 6 }), entry(1, { replacement: 'false' }), entry(1, { column: 5 })], [{ kind: 'unit', report: r }], today),
    [entry(1, { column: 6 }), entry(1, { replacement: 'false' })]);
});

test('unusedEntries: a suites-only entry is used by the suites kind alone; a plain entry by either kind', () => {
  const suitesOnly = entry(1, { only: 'suites' });
  const plain = entry(1);
  const survivor = report([mutant(1, 5, 'Survived')]);
  const killed = report([mutant(1, 5, 'Killed')]);
  assert.deepEqual(unusedEntries([suitesOnly, plain], [{ kind: 'unit', report: survivor }, { kind: 'suites', report: killed }], today), [suitesOnly]);
  assert.deepEqual(unusedEntries([suitesOnly, plain], [{ kind: 'unit', report: killed }, { kind: 'suites', report: survivor }], today), []);
});

test('unusedEntries: a report judged on an older version matches entries at today\'s lines', () => {
  // Line 1 of the report is line 2 today: an entry written at either line is used.
  const r = report([mutant(1, 5, 'Survived')], 'two\nthree\n');
  assert.deepEqual(unusedEntries([entry(2), entry(1)], [{ kind: 'unit', report: r }], today), []);
  assert.deepEqual(unusedEntries([entry(3)], [{ kind: 'unit', report: r }], today), [entry(3)]);
});

test('unusedEntries: entries of a file no report holds are not judged', () => {
  assert.deepEqual(unusedEntries([entry(1, { file: 'b.ts' })], [{ kind: 'unit', report: report([]) }], today), []);
});
