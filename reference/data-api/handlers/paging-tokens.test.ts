import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Context } from 'koa';
import type { StoredRecord } from '../../store/store.js';
import { decodeToken, encodeToken, pastCursor, pagingModeProblems, partitionTokens, type PagingParameters } from './cursor.js';
import { checkIfMatch, ifNoneMatchHits, quoted } from './etag.js';

/**
 * Page tokens and partitions (decisions #29) and ETag comparison (decisions #14) on the functions
 * themselves: the fast test command of `npm run mutation` for cursor.ts and etag.ts. The
 * Playwright families query-paging and etag test them over HTTP.
 */
const raw = (text: string) => Buffer.from(text).toString('base64url');

test('page tokens: base64url of c1:<after>:<until>, read back; anything else is no token', () => {
  assert.equal(encodeToken({ after: 5 }), raw('c1:5:'));
  assert.equal(encodeToken({ after: 5, until: 9 }), raw('c1:5:9'));
  assert.deepEqual(decodeToken(raw('c1:5:')), { after: 5 });
  assert.deepEqual(decodeToken(raw('c1:5:9')), { after: 5, until: 9 });
  assert.deepEqual(decodeToken(raw('c1:5:5')), { after: 5, until: 5 });
  assert.deepEqual(decodeToken(raw('c1:0:0')), { after: 0, until: 0 });
  assert.deepEqual(decodeToken(raw(`c1:${'9'.repeat(15)}:`)), { after: 999_999_999_999_999 });
  assert.equal('until' in decodeToken(raw('c1:5:'))!, false);
  for (const bad of [
    raw('c1:5:4'), raw('c2:5:'), raw('c1:5'), raw('c1::'), raw('c1:x:'), raw('xc1:5:'), raw('c1:5:x'), raw('c1:5:9x'), raw(' c1:5:'),
    raw('c1:-5:'), raw(`c1:${'9'.repeat(16)}:`), raw(`c1:1:${'9'.repeat(16)}`), raw('c1:5:9:'),
    `${raw('c1:5:')}=`, `${raw('c1:5:')}+`, `/${raw('c1:5:')}`, '', 'a'.repeat(65),
    // Characters base64url decoding skips, which the token's own pattern refuses at either end.
    `!${raw('c1:5:')}`, `${raw('c1:5:')}!`,
  ]) assert.equal(decodeToken(bad), undefined, bad);
  assert.deepEqual(decodeToken(raw('c1:1:12345678901234')), { after: 1, until: 12345678901234 }, 'a 64-character-or-shorter token');
});

test('pastCursor: only past a range that has an end', () => {
  assert.equal(pastCursor(1_000_000, { after: 5 }), false);
  assert.equal(pastCursor(9, { after: 5, until: 9 }), false);
  assert.equal(pastCursor(10, { after: 5, until: 9 }), true);
});

test('paging modes: upstream\'s refusals, word for word', () => {
  const p = (over: Partial<PagingParameters>): PagingParameters => ({ offset: false, limit: false, totalCount: false, pageToken: false, pageSize: false, ...over });
  assert.deepEqual(pagingModeProblems(p({})), []);
  assert.deepEqual(pagingModeProblems(p({ offset: true, limit: true, totalCount: true })), []);
  assert.deepEqual(pagingModeProblems(p({ pageToken: true, pageSize: true })), []);
  assert.deepEqual(pagingModeProblems(p({ pageToken: true, offset: true, limit: true, totalCount: true })), [
    'Both offset and pageToken parameters were provided, but they support alternative paging approaches and cannot be used together.',
    'Use pageSize instead of limit when using cursor paging with pageToken.',
    'Total count cannot be determined while using cursor paging (when pageToken is specified).',
  ]);
  assert.deepEqual(pagingModeProblems(p({ pageToken: true, limit: true })), ['Use pageSize instead of limit when using cursor paging with pageToken.']);
  assert.deepEqual(pagingModeProblems(p({ pageToken: true, totalCount: true })), ['Total count cannot be determined while using cursor paging (when pageToken is specified).']);
  assert.deepEqual(pagingModeProblems(p({ pageSize: true })), ['PageToken is required when pageSize is specified.']);
  assert.deepEqual(pagingModeProblems(p({ pageSize: true, totalCount: true })), ['PageToken is required when pageSize is specified.']);
  assert.deepEqual(pagingModeProblems(p({ pageSize: true, offset: true })), ['Use limit instead of pageSize when using limit/offset paging.']);
  assert.deepEqual(pagingModeProblems(p({ pageSize: true, limit: true })), ['Use limit instead of pageSize when using limit/offset paging.']);
});

test('partitions: at most n closed ranges of near-equal size over the creation versions', () => {
  const decoded = (created: number[], n: number) => partitionTokens(created, n).map((t) => decodeToken(t));
  assert.deepEqual(partitionTokens([], 3), []);
  assert.deepEqual(decoded([4, 7, 9], 1), [{ after: 0, until: 9 }]);
  assert.deepEqual(decoded([4, 7, 9], 3), [{ after: 0, until: 4 }, { after: 4, until: 7 }, { after: 7, until: 9 }]);
  assert.deepEqual(decoded([4, 7, 9], 5), [{ after: 0, until: 4 }, { after: 4, until: 7 }, { after: 7, until: 9 }]);
  assert.deepEqual(decoded([1, 2, 3, 4, 5], 2), [{ after: 0, until: 3 }, { after: 3, until: 5 }]);
  assert.deepEqual(decoded([1, 2, 3, 4, 5, 6, 7], 3), [{ after: 0, until: 3 }, { after: 3, until: 5 }, { after: 5, until: 7 }]);
});

test('ETags: with or without quotes or W/, in a list, * matches any; If-Match 412, If-None-Match hits', () => {
  assert.equal(quoted('abc'), '"abc"');
  const ctx = (headers: Record<string, string>) => ({ get: (name: string) => headers[name] ?? '' }) as unknown as Context;
  const record = { etag: 'e1' } as StoredRecord;
  for (const header of ['"e1"', 'e1', 'W/"e1"', '"x", "e1"', 'x,e1', '*', ' "e1" ']) {
    assert.equal(ifNoneMatchHits(ctx({ 'if-none-match': header }), record), true, header);
    checkIfMatch(ctx({ 'if-match': header }), record);
  }
  for (const header of ['"e2"', 'e', 'e1x', 'xe1', '"e1', 'w/"e1"', '"x", "y"', '**', 'W/W/"e1"', '""e1""', 'e1W/']) {
    assert.equal(ifNoneMatchHits(ctx({ 'if-none-match': header }), record), header === '"e1', header);
    if (header === '"e1') continue;
    assert.throws(() => checkIfMatch(ctx({ 'if-match': header }), record), (e: { status?: number; suffix?: string; errors?: string[] }) =>
      e.suffix === 'optimistic-lock-failed'
      && JSON.stringify(e).includes("The resource item's etag value does not match what was specified in the 'If-Match' request header indicating that it has been modified by another client since it was last retrieved."), header);
  }
  assert.equal(ifNoneMatchHits(ctx({}), record), false);
  checkIfMatch(ctx({}), record);
});
