import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { startReference } from '../../server.js';
import { describeFinding, formatSummary, generate, judge, materialize, numberVerdict, runFuzz, startFuzzTarget, type Exchange, type FuzzTarget, type HttpRequest } from '../../../tools/fuzz/requests.js';

/**
 * A fixed-seed slice of `npm run fuzz` (tools/fuzz/main.ts): the same generator and judge,
 * a few hundred malformed requests against both services of a child-process reference. Every
 * answer is a 2xx or a well-formed 4xx; no 5xx, no leak, no hang, no crash. Then the same store
 * check (tools/fuzz/store-check.ts, issue 23 points 4, 5 and 10), with a record quota the slice
 * reaches. FUZZ_SEED and FUZZ_RUNS override the slice.
 */
const seed = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : 20261122;
const runs = process.env.FUZZ_RUNS ? Number(process.env.FUZZ_RUNS) : 400;

test(`fuzz slice: ${runs} malformed requests (seed ${seed}) get a 2xx or a well-formed 4xx, the server survives, and so does its store`, async () => {
  const { child, target, roots, storeCheck, close } = await startFuzzTarget({ heapMb: 512, recordQuota: 5 });
  try {
    // A hang is no answer within a minute: far beyond what a loaded machine adds to any request.
    const summary = await runFuzz({ target, seed, runs, concurrency: 8, timeoutMs: 60_000, roots, alive: () => !child.exit, rss: () => child.rssBytes() });
    const report = `${formatSummary(summary)}\n${summary.findings.slice(0, 8).map((f) => describeFinding(f, target)).join('\n')}`;
    assert.equal(summary.requests, runs, report);
    assert.equal(summary.crashed || !!child.exit, false, `the reference died:\n${child.output().slice(-2000)}`);
    assert.equal(summary.serverErrors, 0, report);
    assert.equal(summary.findingCount, 0, report);
    assert.ok((summary.maxRssBytes ?? 0) < 768 * 1024 * 1024, `memory stays bounded (max RSS ${summary.maxRssBytes} bytes)`);
    const services = Object.keys(summary.byService).sort();
    assert.deepEqual(services, ['data', 'rostering'], 'both services were fuzzed');
    assert.deepEqual(await storeCheck(), []);
  } finally {
    await close();
  }
});

test('the fuzz generator is deterministic per seed and covers every kind of malformed request', () => {
  const a = generate(seed, 300);
  assert.deepEqual(generate(seed, 300), a, 'same seed, same requests');
  assert.notDeepEqual(generate(seed + 1, 300), a);
  const target: FuzzTarget = {
    dataApiBaseUrl: 'http://127.0.0.1:1/v7.3/api', rosteringBaseUrl: 'http://127.0.0.1:2', client: { key: 'k', secret: 's' },
    token: 'aaa.bbb.ccc', maxBodyBytes: 1024 * 1024, forbidden: [],
    samples: [{ name: 'student', endpoint: 'students', docs: [{ studentUniqueId: 'S1', firstName: 'F', lastSurname: 'L', birthDate: '2010-01-01' }], ids: ['0123456789abcdef0123456789abcdef'], etags: ['1'], queryFields: ['studentUniqueId'] }],
  };
  const kinds = new Set(generate(seed, 4000).map((r) => materialize(r, target).kind));
  const wanted = ['random JSON', 'truncated JSON', 'nesting depth', 'huge field', 'keys __proto__', 'wrong type', 'UTF-16LE body', 'invalid UTF-8', 'random bytes', 'empty body', 'random path', 'GET collection query', 'rostering GET list', 'rostering GET item', 'token', 'DELETE', 'PUT', 'POST a new record',
    'digits in a', 'many items', 'number spelling', 'odd text', 'unicode pair'];
  for (const w of wanted) assert.ok([...kinds].some((k) => k.includes(w)), `no '${w}' request in 4000 recipes`);
});

test('the judge flags a 5xx, a malformed 4xx, a leak and a hang, and passes a good problem', () => {
  const req: HttpRequest = { service: 'data', method: 'POST', url: 'http://127.0.0.1:1/v7.3/api/data/v3/core/students', headers: { 'correlation-id': 'c-1' }, body: Buffer.from('{}'), kind: 'test' };
  const target = { maxBodyBytes: 100, forbidden: [{ label: 'client secret', value: 'hush' }] };
  const answer = (status: number, body: unknown, headers: Exchange['headers'] = { 'content-type': 'application/json; charset=utf-8' }): Exchange => ({ status, headers, body: Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)), ms: 1 });
  const problem = { detail: 'Data validation failed.', type: 'urn:core:api:bad-request:data-validation-failed', title: 'Data Validation Failed', status: 400, correlationId: 'c-1', validationErrors: { $: ['x'] } };
  assert.deepEqual(judge(req, answer(400, problem), target), []);
  assert.deepEqual(judge(req, answer(201, ''), target), []);
  const flagged = (ex: Exchange, r: HttpRequest = req) => judge(r, ex, target).join('; ');
  assert.match(flagged(answer(500, { ...problem, type: 'urn:core:api:system', title: 'System Error', status: 500 })), /status 500/);
  // What a recipe knows of its answer (issue 23): a value no type holds is never stored, one
  // its type holds is never refused at its member, and a refusal lists at most 100 paths.
  assert.match(flagged(answer(201, ''), { ...req, mustRefuse: 'the number 1e400' }), /accepted the number 1e400 \(201\)/);
  assert.deepEqual(judge({ ...req, mustRefuse: 'the number 1e400' }, answer(400, problem), target), []);
  const read = { ...req, mustRead: { path: '$.schoolId', what: '"12.0", a value of int64' } };
  assert.match(flagged(answer(400, { ...problem, validationErrors: { '$.schoolId': ['x'] } }), read), /refused "12\.0", a value of int64 at \$\.schoolId/);
  assert.deepEqual(judge(read, answer(400, { ...problem, validationErrors: { '$.other': ['x'] } }), target), []);
  assert.deepEqual(judge(read, answer(201, ''), target), []);
  const paths = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`$.items[${i}]`, ['x']]));
  assert.deepEqual(judge(req, answer(400, { ...problem, validationErrors: paths(100) }), target), []);
  assert.match(flagged(answer(400, { ...problem, validationErrors: paths(101) })), /lists 101 paths \(at most 100\)/);
  assert.match(flagged(answer(400, 'Bad Request')), /not JSON/);
  assert.match(flagged(answer(400, { ...problem, status: 409 })), /status member/);
  assert.match(flagged(answer(400, { ...problem, type: 'urn:core:api:nope' })), /not registered/);
  assert.match(flagged(answer(400, { ...problem, correlationId: 'other' })), /correlationId/);
  assert.match(flagged(answer(400, { ...problem, stack: 'x' })), /problem member stack/);
  assert.match(flagged(answer(400, { ...problem, detail: 'Error\n    at parse (/srv/app/reference/http/body.ts:12:3)' })), /stack trace/);
  assert.match(flagged(answer(400, { ...problem, detail: 'RangeError: Maximum call stack size exceeded' })), /internal error name/);
  assert.match(flagged(answer(200, '{"secret":"hush"}')), /client secret/);
  assert.match(flagged({ headers: {}, body: Buffer.alloc(0), timedOut: true, ms: 1 }), /hang/);
  assert.match(flagged({ headers: {}, body: Buffer.alloc(0), error: 'ECONNREFUSED', ms: 1 }), /transport error/);
  assert.match(flagged(answer(201, ''), { ...req, body: Buffer.alloc(200) }), /not 413/);
  assert.match(flagged(answer(404, { stdx_codeMajor: 'failure', stdx_severity: 'error' }), { ...req, service: 'rostering' }), /status body/);
  assert.match(flagged(answer(401, { stdx_codeMajor: 'failure', stdx_severity: 'error', stdx_description: 'x' }), { ...req, service: 'rostering' }), /WWW-Authenticate/);
});

test('the judge flags what issue 23 fixed: a reflected Host, 200 for If-None-Match *, admin through a proxy, a throttled valid token, a parsed oversized token body', () => {
  const base = 'http://127.0.0.1:1/v7.3/api';
  const target = { maxBodyBytes: 1024 * 1024, forbidden: [], token: 'good.token.here' };
  const answer = (status: number, body: unknown, headers: Exchange['headers'] = { 'content-type': 'application/json; charset=utf-8' }): Exchange => ({ status, headers, body: Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)), ms: 1 });
  const get = (url: string, headers: Record<string, string>, service: HttpRequest['service'] = 'data'): HttpRequest => ({ service, method: 'GET', url, headers, kind: 'test' });
  const flagged = (r: HttpRequest, ex: Exchange) => judge(r, ex, target).join('; ');
  assert.match(flagged(get(`${base}/`, { host: 'evil.test' }), answer(200, { urls: { oauth: 'http://evil.test/v7.3/api/oauth/token' } })), /reflects the Host/);
  assert.match(flagged(get(`${base}/`, { host: '' }), answer(200, { urls: { oauth: 'http:///v7.3/api/oauth/token' } })), /reflects the Host/);
  assert.equal(flagged(get(`${base}/`, { host: 'localhost:8' }), answer(200, { urls: { oauth: 'http://localhost:8/v7.3/api/oauth/token' } })), '');
  assert.match(flagged(get(`${base}/metadata/other/swagger.json`, { 'if-none-match': '*', 'cache-control': 'no-cache' }), answer(200, {})), /If-None-Match/);
  assert.match(flagged(get(`${base}/admin/digest`, { 'X-Forwarded-For': '203.0.113.7' }), answer(200, {})), /through a proxy/);
  assert.match(flagged(get('http://127.0.0.1:2/std/roster/rostering/v1p2/orgs', { authorization: 'Bearer good.token.here' }, 'rostering'), answer(429, { stdx_codeMajor: 'failure', stdx_severity: 'error', stdx_description: 'x' }, { 'retry-after': '1' })), /valid token was throttled/);
  const token: HttpRequest = { service: 'data', method: 'POST', url: `${base}/oauth/token`, headers: {}, body: Buffer.alloc(70_000, 'a'), kind: 'test' };
  assert.match(flagged(token, answer(401, { error: 'invalid_client' })), /was parsed/);
  assert.equal(flagged(token, answer(429, { error: 'temporarily_unavailable' }, { 'content-type': 'application/json', 'retry-after': '1' })), '');
});

test('path segments that do not percent-decode get a 4xx in every position, single- and multi-tenant', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'segments-'));
  writeFileSync(join(dir, 'north.json'), JSON.stringify({ OdsInstances: [{ OdsInstanceId: 1, Name: 'north', ConnectionString: 'memory:segments-north' }], OdsInstanceContexts: [] }));
  const single = await startReference({ overrides: { port: 0, rosteringPort: 0, clients: [{ key: 'k', secret: 's' }] } });
  const multi = await startReference({ overrides: { port: 0, rosteringPort: 0, tenants: { north: { adminDatabase: `file:${join(dir, 'north.json')}` } }, clients: [{ key: 'k', secret: 's', tenant: 'north' }] } });
  try {
    const token = async (ref: typeof single) => {
      const res = await fetch(`${ref.dataApiBaseUrl}/oauth/token`, { method: 'POST', headers: { Authorization: `Basic ${Buffer.from('k:s').toString('base64')}`, 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'grant_type=client_credentials' });
      return `Bearer ${((await res.json()) as { access_token: string }).access_token}`;
    };
    const [singleToken, multiToken] = await Promise.all([token(single), token(multi)]);
    const bad = ['%', '%E0%A4%A', '%C3%28', '%ED%A0%80', '%uD800', '%%41'];
    const paths = bad.flatMap((b) => [
      [`${single.dataApiBaseUrl}/data/v3/core/students/${b}`, singleToken],
      [`${single.dataApiBaseUrl}/data/v3/core/${b}`, singleToken],
      [`${single.dataApiBaseUrl}/${b}/data/v3/core/students`, singleToken],
      [`${multi.dataApiBaseUrl}/${b}/data/v3/core/students`, multiToken],
      [`${multi.dataApiBaseUrl}/north/data/v3/core/students/${b}`, multiToken],
      [`${single.rosteringBaseUrl}/${b}/std/roster/rostering/v1p2/orgs`, singleToken],
      [`${single.rosteringBaseUrl}/std/roster/rostering/v1p2/orgs/${b}`, singleToken],
    ]);
    const failures: string[] = [];
    for (const [url, authorization] of paths) {
      for (const method of ['GET', 'PUT', 'DELETE']) {
        for (const auth of [authorization, undefined]) {
          const res = await fetch(url, { method, headers: { 'Content-Type': 'application/json', ...(auth ? { Authorization: auth } : {}) }, ...(method === 'PUT' ? { body: '{}' } : {}) });
          if (res.status >= 500) failures.push(`${method} ${url.replace(/^http:\/\/[^/]+/, '')}${auth ? '' : ' (no token)'} → ${res.status}`);
        }
      }
    }
    assert.deepEqual(failures, []);
  } finally {
    await Promise.all([single.close(), multi.close()]);
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the number recipes judge a spelling by its exact value against the member type (issue 23 finding 8)', () => {
  const m = (name = 'n', bounds: { minimum?: number; maximum?: number } = {}) => ({ name, ...bounds });
  const cases: [string, 'int32' | 'int64' | 'double', ReturnType<typeof numberVerdict>, ReturnType<typeof m>?][] = [
    ['1e21', 'int64', 'refuse'], ['1e19', 'int64', 'refuse'], ['9.3e18', 'int64', 'refuse'], ['-9.3e18', 'int64', 'refuse'],
    ['9.223372036854775807e18', 'int64', 'read'], ['9.223372036854775808e18', 'int64', 'refuse'], ['-9223372036854775808', 'int64', 'read'],
    ['12.0', 'int32', 'read'], ['1.2e1', 'int32', 'read'], ['-0', 'int32', 'read'], ['2147483647.0000000001', 'int32', 'refuse'],
    ['1.0000000000000001', 'int64', 'refuse'], ['1e-400', 'int32', 'refuse'], ['1e999999999999', 'int64', 'refuse'],
    ['1e400', 'double', 'refuse'], ['1e-400', 'double', 'refuse'], ['-1e-999999999999', 'double', 'refuse'], ['0.0', 'double', 'read'],
    ['1e21', 'double', 'read'], ['999999.9990000000000001', 'double', 'refuse', m('n', { maximum: 999999.999 })], ['999999.999', 'double', 'read', m('n', { maximum: 999999.999 })],
    ['12', 'int32', 'refuse', m('n', { minimum: 13 })], ['.5', 'double', 'refuse'], ['5.', 'double', 'refuse'], ['+5', 'int32', 'refuse'], ['007', 'int32', 'refuse'], [' 5', 'int32', 'refuse'],
    ['2030', 'int32', undefined, m('schoolYear')], ['2030.5', 'int32', 'refuse', m('schoolYear')],
  ];
  for (const [spelling, kind, verdict, member] of cases) assert.equal(numberVerdict(spelling, kind, member ?? m()), verdict, `${spelling} in ${kind}`);
});

test('a recipe alone (--recipe) breaks a member of the kind it needs, in a resource that has one, and knows the answer', () => {
  const doc = { assessmentIdentifier: 'A1', namespace: 'uri://x', assessmentTitle: 'T' };
  const target: FuzzTarget = {
    dataApiBaseUrl: 'http://127.0.0.1:1/v7.3/api', rosteringBaseUrl: 'http://127.0.0.1:2', client: { key: 'k', secret: 's' }, token: 'aaa.bbb.ccc', maxBodyBytes: 1024 * 1024, forbidden: [],
    samples: [
      { name: 'student', endpoint: 'students', docs: [{ studentUniqueId: 'S1', firstName: 'F', lastSurname: 'L', birthDate: '2010-01-01' }], ids: ['0123456789abcdef0123456789abcdef'], etags: ['1'], queryFields: [] },
      { name: 'assessment', endpoint: 'assessments', docs: [doc], ids: ['1123456789abcdef0123456789abcdef'], etags: ['1'], queryFields: [] },
      { name: 'assessmentItem', endpoint: 'assessmentItems', docs: [{ identificationCode: 'I1', assessmentReference: { assessmentIdentifier: 'A1', namespace: 'uri://x' } }], ids: ['2123456789abcdef0123456789abcdef'], etags: ['1'], queryFields: [] },
    ],
  };
  for (const kind of ['numeric-text', 'many-items', 'number-spelling', 'odd-text', 'nfc-pair'] as const) {
    const recipes = generate(seed, 60, kind);
    assert.ok(recipes.every((r) => (r.k === 'post' || r.k === 'put') && r.body.t === kind), `${kind} alone`);
  }
  // Finding 1: digits in a double member (the member the backtracking pattern read), always refused.
  for (const r of generate(seed, 40, 'numeric-text')) {
    const req = materialize(r, target);
    assert.match(req.url, /\/(assessments|assessmentItems)(\/|$)/, 'students has no double member');
    assert.match(req.kind, /digits in a double member/);
    assert.match(req.mustRefuse ?? '', /digits in the double maxRawScore/);
    assert.ok(req.body!.length <= target.maxBodyBytes, 'under the body limit: the work is in the digits, not a 413');
  }
  // Finding 2: collections of items that each fail, as many as fit under the body limit.
  for (const r of generate(seed, 20, 'many-items')) {
    const req = materialize(r, target);
    assert.match(req.mustRefuse ?? '', /^\d+ failing \w+ items$/);
    assert.ok(req.body!.length <= target.maxBodyBytes, 'under the body limit');
  }
  // Finding 8: the two items' keys differ in their bytes and are one text after NFC.
  for (const r of generate(seed, 20, 'nfc-pair')) {
    const req = materialize(r, target);
    const items = (JSON.parse(req.body!.toString()) as { possibleResponses: { responseValue: string }[] }).possibleResponses;
    assert.notEqual(items[0].responseValue, items[1].responseValue);
    assert.equal(items[0].responseValue.normalize('NFC'), items[1].responseValue.normalize('NFC'));
    assert.match(req.mustRefuse ?? '', /differs only in Unicode spelling/);
  }
});
