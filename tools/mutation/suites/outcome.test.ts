/** outcome.ts: a taken port is no verdict on a mutant, and a start failure's reason says why. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { firstFailure, portTaken } from './outcome.js';

// As Playwright printed it when another process held the rostering port (seen by hand).
const notStarted = [
  '[WebServer] cannot listen on 127.0.0.1:24001 (in use): choose other ports with REFERENCE_PORT and ROSTERING_PORT, or port and rosteringPort in the configuration',
  '[WebServer] embedded reference exited (code 2); stopping the others',
  '',
  'Error: Process from config.webServer was not able to start. Exit code: 1',
].join('\n');

test('portTaken: the reference\'s own line, Node\'s code and Playwright\'s message each say a port was taken', () => {
  assert.ok(portTaken(notStarted));
  assert.ok(portTaken('Error: listen EADDRINUSE: address already in use 127.0.0.1:24000'));
  assert.ok(portTaken('Error: http://127.0.0.1:24000 is already used, make sure that nothing is running on the port/url'));
});

test('portTaken: a start failure for any other reason, and a failed test, are the mutant\'s', () => {
  assert.equal(portTaken(notStarted.replace('(in use)', '(not permitted)')), false);
  assert.equal(portTaken('[WebServer] the reference could not start: x is not a function\nError: Process from config.webServer was not able to start. Exit code: 1'), false);
  assert.equal(portTaken('  1) suites/errors/x.spec.ts:3:1 › answers 400\n    expected "in use"'), false);
});

test('firstFailure: a failed test is named first', () => {
  assert.equal(firstFailure('Running 3 tests\n  1) suites/errors/x.spec.ts:3:1 › answers 400\n\nError: expect(received)'), '1) suites/errors/x.spec.ts:3:1 › answers 400');
});

test('firstFailure: a start failure names the deployments\' first line, which says why', () => {
  const reason = firstFailure(notStarted.replace('cannot listen on 127.0.0.1:24001 (in use): choose other ports with REFERENCE_PORT and ROSTERING_PORT, or port and rosteringPort in the configuration', 'the reference could not start: x is not a function (REFERENCE_DEBUG=1 shows the stack)'));
  assert.equal(reason, 'Error: Process from config.webServer was not able to start. Exit code: 1: [WebServer] the reference could not start: x is not a function (REFERENCE_DEBUG=1 shows the stack)');
});

test('firstFailure: otherwise the first error line, or the first line', () => {
  assert.equal(firstFailure('setup\nError: global setup failed\nError: later'), 'Error: global setup failed');
  assert.equal(firstFailure('\n  something odd  \n'), 'something odd');
  assert.equal(firstFailure(''), 'failed without output');
});
