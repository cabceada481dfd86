import assert from 'node:assert/strict';
import { test } from 'node:test';
import { declares, lockedLines, needsOf, unlockLines } from '../reporter/unlock.js';
import type { ConformanceReport } from '../reporter/types.js';

/** The console's list of what to declare for a complete verdict (issue #24 point 4). */
const rule = (id: string, level: 'MUST' | 'SHOULD', verdict: string, lacking: (string | undefined)[], untestable?: string) =>
  ({ id, level, verdict, ...(untestable ? { untestable } : {}), tests: lacking.map((l) => ({ notApplicable: l ? `needs ${l} in the target file` : 'other', ...(l ? { lacking: l } : {}) })) }) as unknown as ConformanceReport['rules'][number];

test('MUST rules not applicable for want of a declaration are grouped by what their tests lacked, most first; other reasons are counted apart', () => {
  const lines = unlockLines({ rules: [
    rule('a', 'MUST', 'not-applicable', ['capabilities.snapshotAdmin']),
    rule('b', 'MUST', 'not-applicable', ['capabilities.snapshotAdmin', 'clients.schoolLimited']),
    rule('c', 'MUST', 'not-applicable', ['clients.schoolLimited']),
    rule('d', 'MUST', 'not-applicable', ['capabilities.snapshotAdmin']),
    rule('e', 'MUST', 'not-applicable', [undefined]),
    rule('f', 'SHOULD', 'not-applicable', ['capabilities.profile']),
    rule('g', 'MUST', 'pass', []),
    rule('h', 'MUST', 'not-applicable', ['capabilities.x'], 'client guidance'),
  ] });
  assert.deepEqual(lines, [
    'conformance: to reach a complete verdict, declare in the target file (README, "Providing each capability"):',
    '  capabilities.snapshotAdmin: 3 MUST rule(s) (a, b, d)',
    '  clients.schoolLimited: 2 MUST rule(s) (b, c)',
    '  1 MUST rule(s) not applicable for other reasons (the report says why for each)',
  ]);
  assert.deepEqual(unlockLines({ rules: [rule('g', 'MUST', 'pass', [])] }), []);
});

const ran = (id: string, level: 'MUST' | 'SHOULD', tests: [string, string[]][]) =>
  ({ id, level, tests: tests.map(([title, needs]) => ({ title, ...(needs.length ? { needs } : {}) })) }) as unknown as ConformanceReport['rules'][number];

test('needsOf: per rule, the distinct needs of its tests across reports (a test seen in two merged by title); rules needing nothing left out', () => {
  const needs = needsOf([
    { rules: [ran('r1', 'MUST', [['t1', ['rostering']], ['t2', []]]), ran('r2', 'MUST', [['t3', []]]), ran('r3', 'SHOULD', [['t4', ['clients.x']]])] },
    { rules: [ran('r1', 'MUST', [['t1', ['rostering.organizations']], ['t2', ['rostering']]])] },
  ]);
  assert.deepEqual(needs, {
    r1: { level: 'MUST', tests: [['rostering'], ['rostering', 'rostering.organizations']] },
    r3: { level: 'SHOULD', tests: [['clients.x']] },
  });
});

test('declares: a path through the target file, `a or b`, any key but one; null, false and empty lists are not declared', () => {
  const file = { clients: { primary: {}, other: { key: 'k' } }, capabilities: { snapshotAdmin: { url: 'x' }, off: null, no: false }, rostering: { neighbours: [] } };
  assert.equal(declares(file, 'capabilities.snapshotAdmin'), true);
  assert.equal(declares(file, 'capabilities.off'), false);
  assert.equal(declares(file, 'capabilities.no'), false);
  assert.equal(declares(file, 'rostering.neighbours'), false);
  assert.equal(declares(file, 'rostering.flows.tenant'), false);
  assert.equal(declares(file, 'capabilities.testIssuer or capabilities.snapshotAdmin'), true);
  assert.equal(declares(file, 'clients.<another than primary>'), true);
  assert.equal(declares({ clients: { primary: {} } }, 'clients.<another than primary>'), false);
});

test('lockedLines: the MUST rules out of reach (every test lacks something), and per lacking path how many it makes applicable alone and with others', () => {
  const needs = {
    a: { level: 'MUST' as const, tests: [['rostering'], ['rostering', 'rostering.organizations']] },
    b: { level: 'MUST' as const, tests: [['rostering', 'rostering.organizations']] },
    c: { level: 'MUST' as const, tests: [['capabilities.issuerSigningKey'], ['clients.shortLived']] },
    d: { level: 'MUST' as const, tests: [['clients.primary']] },
    e: { level: 'SHOULD' as const, tests: [['rostering']] },
    f: { level: 'MUST' as const, tests: [['rostering.clients or capabilities.testIssuer', 'rostering']] },
  };
  assert.deepEqual(lockedLines(needs, { clients: { primary: {} } }), [
    '  4 MUST rule(s) out of reach',
    '  rostering: alone makes 1 applicable (a); with others 2 (b, f)',
    '  capabilities.issuerSigningKey: alone makes 1 applicable (c); with others 0',
    '  clients.shortLived: alone makes 1 applicable (c); with others 0',
    '  capabilities.testIssuer: alone makes 0 applicable; with others 1 (f)',
    '  rostering.clients: alone makes 0 applicable; with others 1 (f)',
    '  rostering.organizations: alone makes 0 applicable; with others 1 (b)',
  ]);
  assert.deepEqual(lockedLines(needs, { clients: { primary: {}, shortLived: {} }, rostering: { organizations: {} }, capabilities: { testIssuer: {} } }), []);
});
