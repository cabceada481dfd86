/**
 * Request bodies of a declared length are read from the stream's events (body.ts): a whole body
 * sent in pieces is read whole, and a body the client cuts short (it closes the connection
 * before the declared length) stores nothing and leaves the service answering.
 */
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, test } from 'node:test';
import { startForTest } from '../tests/helpers.js';

let ref: Awaited<ReturnType<typeof startForTest>>;
before(async () => { ref = await startForTest(); });
after(async () => { await ref.close(); });

/** Sends raw bytes to the data API, in pieces a few milliseconds apart; resolves with what came back when the server or `endAfterMs` ends it. */
function raw(pieces: string[], endAfterMs?: number): Promise<string> {
  const { hostname, port } = new URL(ref.dataApiBaseUrl);
  return new Promise((resolve, reject) => {
    let got = '';
    const s = connect(Number(port), hostname, async () => {
      for (const p of pieces) {
        s.write(p);
        await new Promise((r) => setTimeout(r, 5));
      }
      if (endAfterMs !== undefined) setTimeout(() => s.destroy(), endAfterMs);
    });
    s.on('data', (d) => { got += d.toString(); if (/\r\n\r\n/.test(got) && endAfterMs === undefined) s.end(); });
    s.on('close', () => resolve(got));
    s.on('error', reject);
  });
}

const post = (length: number) => `POST ${new URL(ref.dataApiBaseUrl).pathname}/data/v3/core/academicSubjectDescriptors HTTP/1.1\r\nHost: ${new URL(ref.dataApiBaseUrl).host}\r\nAuthorization: Bearer ${ref.token}\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\nConnection: close\r\n\r\n`;

test('a body of a declared length sent in pieces is read whole', async () => {
  const body = JSON.stringify({ namespace: 'uri://body.test/AcademicSubjectDescriptor', codeValue: 'pieces', shortDescription: 'in pieces' });
  const answer = await raw([post(Buffer.byteLength(body)), body.slice(0, 20), body.slice(20, 50), body.slice(50)]);
  assert.match(answer, /^HTTP\/1\.1 201/);
});

test('a body cut short by the client stores nothing, and the service answers the next request', async () => {
  const body = JSON.stringify({ namespace: 'uri://body.test/AcademicSubjectDescriptor', codeValue: 'cut', shortDescription: 'cut short' });
  await raw([post(Buffer.byteLength(body) + 40), body], 50);
  const found = await ref.data('academicSubjectDescriptors?codeValue=cut');
  assert.equal(found.status, 200);
  assert.deepEqual(await found.json(), []);
});
