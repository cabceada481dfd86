import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startChildReference } from '../../../tools/child-reference.js';
import { freePort } from '../../../tools/ports.js';

/**
 * A request that reaches the reference while it is still starting (its port already listens:
 * the issuer's URL needs the port, so the app is built after listen) is answered once the app
 * is ready, never left hanging. A readiness probe such as Playwright's webServer check polls
 * exactly then; a hanging first request made it time out.
 */
test('the first request, sent as soon as the port listens, is answered', async () => {
  const port = await freePort();
  // No issuer key in the configuration: generating one widens the start-up window.
  const starting = startChildReference({ config: { port, clients: [{ key: 'k', secret: 's' }] } });
  const url = `http://127.0.0.1:${port}/v7.3/api/`;
  let answered: Response | undefined;
  let failure: string | undefined;
  // Until the child has started (however long that takes on this machine) or failed to: no
  // deadline on the wait, nor on the answer (a request that is never answered is what the test
  // timeout catches; a slow one is no defect).
  let settled = false;
  const started = starting.finally(() => { settled = true; });
  started.catch(() => undefined);
  while (!answered && !failure && !settled) {
    try {
      answered = await fetch(url);
    } catch (err) {
      const cause = (err as { cause?: { code?: string } }).cause;
      // Not listening yet: try again at once. Anything else (a reset) is the defect.
      if (cause?.code === 'ECONNREFUSED') await new Promise((r) => setTimeout(r, 1));
      else failure = `the request sent during start-up was not answered: ${(err as Error).message}`;
    }
  }
  const child = await started;
  // Started before any request connected: one now is answered too (the property then holds trivially).
  answered ??= await fetch(url);
  await child.stop();
  assert.equal(failure, undefined);
  assert.ok(answered);
  assert.equal(answered.status, 200);
});
