/** Faulty deployments that break data.versioning. */
import { setJson } from '../proxy.js';
import { isData, problemOf, problem, editJson, type Fault } from './helpers.js';

export const versioningFaults: Fault[] = [
  {
    name: 'interface-description-version-wrong', family: 'data.versioning', suites: ['versioning'],
    description: 'the interface description gives its version as 3.0.0 instead of 3',
    response: (res, req) => {
      if (!isData(req) || res.status !== 200) return;
      editJson(res, (doc) => { const d = doc as { openapi?: unknown; info?: { version?: unknown } }; if (d && d.openapi && d.info?.version === '3') d.info.version = '3.0.0'; });
    },
  },
  {
    name: 'legacy-error-bodies', family: 'data.versioning', suites: ['versioning'],
    description: 'errors are answered in the pre-7.2 shape {"message": ...} instead of problem details',
    response: (res, req) => { const p = isData(req) ? problemOf(res) : undefined; if (p) setJson(res, { message: p.detail }); },
  },
];
