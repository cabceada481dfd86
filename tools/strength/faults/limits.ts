/** Faulty deployments that break data.limits. */
import { dataPath, jsonOf } from '../proxy.js';
import { isWrite, problem, rewriteParameter, type Fault } from './helpers.js';

export const limitsFaults: Fault[] = [
  {
    name: 'limit-above-maximum-accepted', family: 'data.limits', suites: ['limits'],
    description: 'a limit above the maximum page size (500) is clamped instead of refused with 400',
    request: (req) => {
      if (!dataPath(req) || req.method !== 'GET') return;
      rewriteParameter(req, 'limit', (limit) => (Number(limit) > 500 ? '500' : undefined));
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
