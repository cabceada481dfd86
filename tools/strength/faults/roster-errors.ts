/** Faulty deployments that break roster.roster-errors. */
import { header } from '../proxy.js';
import { isRoster, editJson, type Fault } from './helpers.js';

export const rosterErrorsFaults: Fault[] = [
  {
    name: 'roster-status-body-without-severity', family: 'roster.roster-errors', suites: ['rostering/errors.spec.ts'],
    description: 'the stdx_ failure body has no stdx_severity member',
    response: (res, req) => {
      if (!isRoster(req) || res.status < 400) return;
      editJson(res, (b) => { delete (b as Record<string, unknown>).stdx_severity; });
    },
  },
  {
    name: 'roster-token-failures-as-403', family: 'roster.roster-errors', suites: ['rostering/tokens.spec.ts'],
    description: 'token failures on the rostering service answer 403 instead of 401',
    response: (res, req) => { if (isRoster(req) && res.status === 401) res.status = 403; },
  },
  {
    name: 'roster-code-minor-missing', family: 'roster.roster-errors', suites: ['rostering/query.spec.ts'], grepInvert: 'rostering paging',
    description: '400 failures carry no stdx_codeMinor invalid_data',
    response: (res, req) => { if (isRoster(req) && res.status === 400) editJson(res, (b) => { delete (b as Record<string, unknown>).stdx_codeMinor; }); },
  },
  // ---- conforming deviations: the seed allows them, the verdict must stay conformant ----
  {
    name: 'roster-401-upstream-wording', family: 'roster.roster-errors', suites: ['rostering'], expect: 'conformant',
    description: 'every 401 is worded as upstream words it ("Missing or invalid Authorization header." / "Invalid or expired token."): the seed states the content, not the words',
    response: (res, req) => {
      if (!isRoster(req) || res.status !== 401) return;
      const text = /^Bearer \S/.test(header(req, 'authorization') ?? '') ? 'Invalid or expired token.' : 'Missing or invalid Authorization header.';
      editJson(res, (b) => ({ ...(b as object), stdx_description: text }));
    },
  },
];
