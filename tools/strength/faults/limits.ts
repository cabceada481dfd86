/** Faulty deployments that break data.limits. */
import { Tokens, dataPath, jsonOf, queryOf, setJson } from '../proxy.js';
import { feed, hasType, isData, isWrite, problem, problemOf, rewriteParameter, type Fault } from './helpers.js';
import { REMOTE_WORKERS_MAX } from '../../../suites/_harness/workers.js';

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Rewrites the errors entries of a 400 parameter-validation-failed answer to a data GET. */
function editLimitMessages(res: Parameters<NonNullable<Fault['response']>>[0], req: Parameters<NonNullable<Fault['response']>>[1], edit: (entry: string) => string): void {
  if (!isData(req) || req.method !== 'GET' || !hasType(res, 'bad-request:parameter-validation-failed')) return;
  const p = problemOf(res)!;
  if (!Array.isArray(p.errors)) return;
  p.errors = p.errors.map((e: unknown) => (typeof e === 'string' ? edit(e) : e));
  setJson(res, p);
}

export const limitsFaults: Fault[] = [
  // Conforming: a deployment on another host. Every exchange of both services takes 40 ms more
  // (20 ms each way), run with the workers a remote deployment gets by default: the verdict must
  // stay conformant (no test may race a slower answer), and the run's time is the remote figure
  // of issue 21 point 2 and issue 24.
  {
    name: 'deployment-40-ms-away', family: 'data.limits', suites: ['limits'], expect: 'conformant', workers: REMOTE_WORKERS_MAX,
    description: 'every request and every answer of both services is delayed 20 ms (a round trip of 40 ms), as from a deployment on another host',
    request: async () => { await delay(20); },
    response: async () => { await delay(20); },
  },
  {
    name: 'token-lifetime-cut-short', family: 'data.limits', suites: ['limits'],
    // The suites probe a 4-second token 2 s before its end (closer would judge clocks, not
    // lifetimes): a lifetime cut by less than that passes unseen. This one cuts it by 60 %.
    description: 'a token is refused (401) once two fifths of its lifetime have passed, not only after it',
    request: (req, tools) => {
      const token = isData(req) ? Tokens.bearer(req) : undefined;
      const claims = token ? tools.tokens.decode(token)?.claims : undefined;
      if (!claims?.iat || !claims.exp) return;
      if (Date.now() / 1000 > claims.iat + ((claims.exp - claims.iat) * 2) / 5) return problem('security:authentication', { errors: ['Token has expired.'] });
    },
  },
  {
    name: 'limit-above-maximum-accepted', family: 'data.limits', suites: ['limits'],
    description: 'a limit above the maximum page size (500) is clamped instead of refused with 400',
    request: (req) => {
      if (!dataPath(req) || req.method !== 'GET') return;
      rewriteParameter(req, 'limit', (limit) => (Number(limit) > 500 ? '500' : undefined));
    },
  },
  {
    name: 'limit-message-without-range', family: 'data.limits', suites: ['limits'],
    description: 'the 400 for an out-of-range limit says only that a parameter is out of range: no message names limit, 0 and the maximum',
    response: (res, req) => editLimitMessages(res, req, (e) => (/limit/i.test(e) ? 'A query parameter is out of range.' : e)),
  },
  {
    name: 'limit-message-reworded', family: 'data.limits', suites: ['limits'], expect: 'conformant',
    description: 'the 400 for an out-of-range limit words its message otherwise than upstream, still naming limit, 0 and the maximum (decision 35)',
    response: (res, req) => editLimitMessages(res, req, (e) => e.replace(/^Limit must be omitted or set to a value between 0 and (\d+)\.$/, 'Accepted values of the LIMIT parameter: 0 through $1')),
  },
  {
    name: 'feed-limit-out-of-range-clamped', family: 'data.limits', suites: ['limits'],
    description: 'the deletes and keyChanges feeds clamp an out-of-range limit (-1 to 0, above 500 to 500) instead of refusing it with 400',
    request: (req) => {
      if (!feed(req) || req.method !== 'GET') return;
      rewriteParameter(req, 'limit', (limit) => (Number(limit) > 500 ? '500' : Number(limit) < 0 ? '0' : undefined));
    },
  },
  // Caught only where every resource's routes are probed (limits/every-collection.spec.ts):
  // limits.spec.ts's one resource is a descriptor.
  {
    name: 'limit-clamped-beyond-descriptors', family: 'data.limits', suites: ['limits'],
    description: 'only descriptor routes check limit: every other resource\'s collection and feeds clamp an out-of-range limit (-1 to 0, above 500 to 500) instead of refusing it with 400',
    request: (req) => {
      const at = req.method === 'GET' ? dataPath(req) : undefined;
      if (!at || /descriptors$/i.test(at.resource)) return;
      rewriteParameter(req, 'limit', (limit) => (Number(limit) > 500 ? '500' : Number(limit) < 0 ? '0' : undefined));
    },
  },
  {
    name: 'feed-limit-maximum-refused', family: 'data.limits', suites: ['limits'],
    description: 'the deletes and keyChanges feeds refuse limit at the maximum page size itself (their range check is off by one: 0 to 499)',
    request: (req) => {
      if (!feed(req) || req.method !== 'GET') return;
      const limit = [...queryOf(req)].find(([k]) => k.toLowerCase() === 'limit')?.[1];
      if (limit !== undefined && Number(limit) === 500) return problem('bad-request:parameter-validation-failed', { errors: ['Limit must be omitted or set to a value between 0 and 499.'] });
    },
  },
  {
    name: 'int32-maximum-refused', family: 'data.limits', suites: ['limits'],
    description: 'the int32 range check is off by one: 2147483647 itself is refused',
    request: (req) => {
      if (!dataPath(req) || !isWrite(req)) return;
      const at: string[] = [];
      const walk = (v: unknown, path: string) => {
        if (v === 2147483647) at.push(path);
        else if (Array.isArray(v)) v.forEach((x, i) => walk(x, `${path}[${i}]`));
        else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, `${path}.${k}`);
      };
      walk(jsonOf(req), '$');
      if (at.length) return problem('bad-request:data-validation-failed', { validationErrors: Object.fromEntries(at.map((p) => [p, [`${p.split('.').pop()} must be less than 2147483647.`]])) });
    },
  },
];
