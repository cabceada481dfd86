import assert from 'node:assert/strict';
import { test } from 'node:test';
import { JUDGED_STANDARD, standardFromDiscovery, standardProblem } from '../data-standard.js';

/**
 * The data standard a target serves, read from discovery's `dataModels` as upstream writes them
 * (research/upstream-shapes/versions.md: `{ name, version, informationalVersion }`, one entry per
 * schema), and the preflight's refusal of a standard the suites do not judge.
 */
const entry = (name: string, version: string) => ({ name, version, informationalVersion: `The ${name} Data Model ${version}` });

test('the core model\'s entry gives the standard: upstream\'s Ed-Fi among TPDM and extensions, or the only entry', () => {
  assert.equal(standardFromDiscovery({ dataModels: [entry('TPDM', '1.1.0'), entry('Ed-Fi', '4.0.0'), entry('Sample', '1.0.0')] }).standard, '4.0');
  assert.equal(standardFromDiscovery({ dataModels: [entry('Core', '5.2.0')] }).standard, '5.2');
  assert.equal(standardFromDiscovery({ dataModels: [entry('Ed-Fi', '6.1')] }).standard, '6.1');
  assert.equal(standardFromDiscovery({ dataModels: [entry('Ed-Fi', '05.02.0-pre')] }).standard, '5.2');
});

test('nothing is told when discovery names no core model or no usable version, and the suites then judge their own standard', () => {
  for (const discovery of [undefined, {}, { dataModels: [] }, { dataModels: [entry('TPDM', '1.1.0'), entry('Sample', '1.0.0')] }, { dataModels: [{ name: 'Ed-Fi' }] }, { dataModels: [entry('Ed-Fi', 'v5')] }, { dataModels: [entry('Ed-Fi', '5.x.0')] }]) {
    const found = standardFromDiscovery(discovery);
    assert.equal(found.standard, undefined, JSON.stringify(discovery));
    assert.equal(standardProblem(found), undefined);
  }
});

test('a standard other than the judged one is a preflight problem naming both; the judged one is none', () => {
  assert.equal(JUDGED_STANDARD, '5.2');
  assert.equal(standardProblem({ standard: '5.2', from: 'x' }), undefined);
  assert.match(standardProblem({ standard: '4.0', from: "discovery's dataModels: Ed-Fi 4.0.0" }) ?? '', /serves Data Standard 4\.0 \(discovery's dataModels: Ed-Fi 4\.0\.0\); these suites build and judge Data Standard 5\.2 bodies only/);
  assert.match(standardProblem({ standard: '3.3', from: 'd' }) ?? '', /not one of the standards upstream ships/);
});
