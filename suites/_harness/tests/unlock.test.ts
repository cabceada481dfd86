import assert from 'node:assert/strict';
import { test } from 'node:test';
import { unlockLines } from '../reporter/unlock.js';
import type { ConformanceReport } from '../reporter/types.js';

/** The console's list of what to declare for a complete verdict (issue #24 point 4). */
const rule = (id: string, level: 'MUST' | 'SHOULD', verdict: string, reasons: string[], untestable?: string) =>
  ({ id, level, verdict, ...(untestable ? { untestable } : {}), tests: reasons.map((notApplicable) => ({ notApplicable })) }) as unknown as ConformanceReport['rules'][number];

test('MUST rules not applicable for want of a capability or client are grouped by what they need, most first; other reasons are counted apart', () => {
  const lines = unlockLines({ rules: [
    rule('a', 'MUST', 'not-applicable', ['needs capability snapshotAdmin in the target file']),
    rule('b', 'MUST', 'not-applicable', ['needs capability snapshotAdmin in the target file', 'needs client \'schoolLimited\' in the target file']),
    rule('c', 'MUST', 'not-applicable', ['needs client \'schoolLimited\' in the target file']),
    rule('d', 'MUST', 'not-applicable', ['needs capability snapshotAdmin in the target file']),
    rule('e', 'MUST', 'not-applicable', ['Data Standard 5.2 has no parents']),
    rule('f', 'SHOULD', 'not-applicable', ['needs capability profile in the target file']),
    rule('g', 'MUST', 'pass', []),
    rule('h', 'MUST', 'not-applicable', ['needs capability x in the target file'], 'client guidance'),
  ] });
  assert.deepEqual(lines, [
    'conformance: to reach a complete verdict, declare in the target file (README, "Providing each capability"):',
    '  capability snapshotAdmin: 3 MUST rule(s) (a, b, d)',
    '  client \'schoolLimited\': 2 MUST rule(s) (b, c)',
    '  1 MUST rule(s) not applicable for other reasons (the report says why for each)',
  ]);
  assert.deepEqual(unlockLines({ rules: [rule('g', 'MUST', 'pass', [])] }), []);
});

test('a MUST rule not applicable because the judged standard lacks what it is about does not leave the verdict incomplete; one lacking a declaration does', async () => {
  const { verdictOf } = await import('../reporter/conformance-reporter.js');
  const passing = { level: 'MUST' as const, verdict: 'pass' as const };
  assert.equal(verdictOf([passing, { level: 'MUST', verdict: 'not-applicable', notInStandard: 'Data Standard 4.0 has no int64 member' }]), 'conformant');
  assert.equal(verdictOf([passing, { level: 'MUST', verdict: 'not-applicable', untestable: 'client guidance' }]), 'conformant');
  assert.equal(verdictOf([passing, { level: 'MUST', verdict: 'not-applicable' }]), 'incomplete');
  assert.equal(verdictOf([passing, { level: 'MUST', verdict: 'untested' }]), 'incomplete');
  assert.equal(verdictOf([passing, { level: 'MUST', verdict: 'known-deviation' }]), 'incomplete');
  assert.equal(verdictOf([{ level: 'MUST', verdict: 'fail' }, { level: 'MUST', verdict: 'not-applicable', notInStandard: 'x' }]), 'not-conformant');
  assert.equal(verdictOf([passing, { level: 'SHOULD', verdict: 'fail' }]), 'conformant');
  assert.deepEqual(unlockLines({ rules: [rule('i', 'MUST', 'not-applicable', ['Data Standard 4.0 has no int64 member']), { ...rule('j', 'MUST', 'not-applicable', []), notInStandard: 'x' }] }).slice(1), ['  1 MUST rule(s) not applicable for other reasons (the report says why for each)'], 'only the rule without notInStandard is counted');
});
