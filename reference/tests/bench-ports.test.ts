import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:net';
import { test } from 'node:test';
import { Child } from '../../bench/ipc.js';

/**
 * `npm run bench` runs beside `npm start` (issue 15 point 10): the bench's reference takes free
 * ports for both services, never the defaults 8080 and 8081 that `npm start` holds.
 */
const hold = (port: number) => new Promise<Server | undefined>((resolve) => {
  const server = createServer();
  server.once('error', () => resolve(undefined)); // already held, by `npm start` perhaps: as good
  server.listen(port, '127.0.0.1', () => resolve(server));
});

test('the bench reference starts while the default ports 8080 and 8081 are taken', async () => {
  const held = await Promise.all([hold(8080), hold(8081)]);
  const child = new Child('reference', './servers/reference.ts', { args: ['reference'] });
  try {
    const started = await child.request<{ baseUrl: string; rosteringBaseUrl?: string }>('start');
    for (const url of [started.baseUrl, started.rosteringBaseUrl]) {
      assert.ok(url, 'both services are up');
      assert.ok(!['8080', '8081'].includes(new URL(url).port), url);
    }
  } finally {
    await child.request('stop').catch(() => undefined);
    for (const s of held) s?.close();
  }
});
