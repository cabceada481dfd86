import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SERVED } from '../../../spec/model/served.js';
import { dataStandards } from '../../../spec/model/upstream.js';
import { declaredStandard, judgedFor, judgedLine, standardFromDiscovery, standardProblem } from '../data-standard.js';

/**
 * The data standard a target serves, read from discovery's `dataModels` as upstream writes them
 * (research/upstream-shapes/versions.md: `{ name, version, informationalVersion }`, one entry per
 * schema), which model the suites judge by, and the preflight's refusal of a standard they have no model of.
 */
const entry = (name: string, version: string) => ({ name, version, informationalVersion: `The ${name} Data Model ${version}` });

test('the core model\'s entry gives the standard: upstream\'s Ed-Fi among TPDM and extensions, or the only entry', () => {
  assert.equal(standardFromDiscovery({ dataModels: [entry('TPDM', '1.1.0'), entry('Ed-Fi', '4.0.0'), entry('Sample', '1.0.0')] }).standard, '4.0');
  assert.equal(standardFromDiscovery({ dataModels: [entry('Core', '5.2.0')] }).standard, '5.2');
  assert.equal(standardFromDiscovery({ dataModels: [entry('Ed-Fi', '6.1')] }).standard, '6.1');
  assert.equal(standardFromDiscovery({ dataModels: [entry('Ed-Fi', '05.02.0-pre')] }).standard, '5.2');
});

test('nothing is told when discovery names no core model or no usable version, and the suites then judge the seed\'s standard, 4.0', () => {
  for (const discovery of [undefined, {}, { dataModels: [] }, { dataModels: [entry('TPDM', '1.1.0'), entry('Sample', '1.0.0')] }, { dataModels: [{ name: 'Ed-Fi' }] }, { dataModels: [entry('Ed-Fi', 'v5')] }, { dataModels: [entry('Ed-Fi', '5.x.0')] }]) {
    const found = standardFromDiscovery(discovery);
    assert.equal(found.standard, undefined, JSON.stringify(discovery));
    assert.equal(standardProblem(found), undefined);
    assert.equal(judgedFor(found), '4.0');
    assert.match(judgedLine(found), /^data standard: not told \(.+\); judged by Data Standard 4\.0, the seed's$/);
  }
});

test('a deployment of 4.0, 5.2 or 6.1 is judged by that standard, declared or found in discovery', () => {
  for (const v of ['4.0', '5.2', '6.1'] as const) {
    assert.equal(judgedFor(standardFromDiscovery({ dataModels: [entry('Ed-Fi', `${v}.0`)] })), v);
    assert.equal(judgedFor(declaredStandard(v)), v);
    assert.equal(standardProblem(declaredStandard(v)), undefined);
  }
  assert.match(judgedLine(standardFromDiscovery({ dataModels: [entry('Ed-Fi', '6.1.0')] })), /^data standard: 6\.1 \(discovery's dataModels: Ed-Fi 6\.1\.0\); judged by Data Standard 6\.1$/);
  assert.match(judgedLine(declaredStandard('4.0')), /^data standard: 4\.0 \(declared in the target file \(dataApi\.dataStandard\)\); judged by Data Standard 4\.0$/);
});

test('the reference\'s own discovery entry for each standard reads back as that standard', () => {
  for (const v of dataStandards) assert.equal(judgedFor(standardFromDiscovery({ dataModels: [{ name: 'Ed-Fi', ...SERVED[v].dataModel }] })), v);
  assert.equal(judgedFor(undefined), '4.0', 'outside a run (nothing decided) the seed\'s standard');
});

test('a standard that is none of 4.0, 5.2 and 6.1 is a preflight problem naming it and where it was found', () => {
  assert.match(standardProblem({ standard: '3.3', from: "discovery's dataModels: Ed-Fi 3.3.0" }) ?? '', /serves Data Standard 3\.3 \(discovery's dataModels: Ed-Fi 3\.3\.0\), not one of the standards upstream ships \(4\.0, 5\.2, 6\.1\)/);
  // The preflight stops on it; the model listed meanwhile is the seed's.
  assert.equal(judgedFor({ standard: '3.3', from: 'd' }), '4.0');
});
