/**
 * Answers written directly leave together at the end of their turn of the event loop, each
 * whole and to its own request; none waits for more than MAX_HELD - 1 others, and one that
 * cannot be written harms no other. Nothing here is timed: the turn is observed by order.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createServer, request, Agent, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { holdAnswer, MAX_HELD } from './direct-response.js';

const turnEnded = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A stand-in response that records what happened to it, in one shared log. */
function standIn(log: string[], name: string, failing = false) {
  return {
    end(body?: string) {
      if (failing) throw new Error(`${name} cannot be written`);
      log.push(`${name} ended ${body ?? '(no body)'}`);
    },
    destroy(err?: Error) { log.push(`${name} destroyed: ${err?.message}`); },
  };
}

test('answers held in one turn are written after it, in the order they were given', async () => {
  const log: string[] = [];
  holdAnswer(standIn(log, 'a'), '{"a":1}');
  holdAnswer(standIn(log, 'b'));
  holdAnswer(standIn(log, 'c'), '{"c":3}');
  log.push('turn goes on');
  await turnEnded();
  assert.deepEqual(log, ['turn goes on', 'a ended {"a":1}', 'b ended (no body)', 'c ended {"c":3}']);
});

test(`the ${MAX_HELD}th answer held writes every held one at once, and the next waits for its own turn`, async () => {
  const log: string[] = [];
  for (let i = 1; i < MAX_HELD; i++) holdAnswer(standIn(log, `r${i}`));
  assert.equal(log.length, 0, 'fewer than MAX_HELD are held');
  holdAnswer(standIn(log, `r${MAX_HELD}`));
  assert.equal(log.length, MAX_HELD, 'the last one held wrote them all');
  holdAnswer(standIn(log, 'next'));
  assert.equal(log.length, MAX_HELD);
  await turnEnded();
  assert.deepEqual(log.slice(-1), ['next ended (no body)']);
});

test('an answer that cannot be written drops its own connection and no other answer, and is logged', async (t) => {
  const logged: unknown[][] = [];
  t.mock.method(console, 'error', (...parts: unknown[]) => { logged.push(parts); });
  const log: string[] = [];
  holdAnswer(standIn(log, 'a'));
  holdAnswer(standIn(log, 'broken', true));
  holdAnswer(standIn(log, 'c'));
  await turnEnded();
  assert.deepEqual(log, ['a ended (no body)', 'broken destroyed: broken cannot be written', 'c ended (no body)']);
  assert.deepEqual(logged.map(([first, err]) => [first, (err as Error).message]), [['an answer could not be written:', 'broken cannot be written']]);
});

test('over HTTP, each of many requests at once gets its own answer, a lone one too', async () => {
  const server = createServer((req, res) => {
    res.setHeader('Content-Type', 'application/json');
    res.statusCode = 200;
    holdAnswer(res, JSON.stringify({ url: req.url }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const agent = new Agent({ keepAlive: true, maxSockets: 3 * MAX_HELD });
  const get = (path: string) => new Promise<{ status?: number; body: string }>((resolve, reject) => {
    request({ port, host: '127.0.0.1', path, agent }, (res: IncomingMessage) => {
      let body = '';
      res.setEncoding('utf8').on('data', (c: string) => { body += c; }).on('end', () => resolve({ status: res.statusCode, body }));
    }).on('error', reject).end();
  });
  try {
    assert.deepEqual(await get('/lone'), { status: 200, body: '{"url":"/lone"}' });
    const paths = Array.from({ length: 3 * MAX_HELD + 1 }, (_, i) => `/r${i}`);
    const answers = await Promise.all(paths.map(get));
    assert.deepEqual(answers, paths.map((url) => ({ status: 200, body: JSON.stringify({ url }) })));
  } finally {
    agent.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});
