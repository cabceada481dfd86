/** Faulty deployments that break data.discovery. */
import { dataPath, eachObject, header, pathOf } from '../proxy.js';
import { isData, problem, editJson, type Fault } from './helpers.js';

export const discoveryFaults: Fault[] = [
  {
    name: 'allow-header-missing', family: 'data.discovery', suites: ['discovery'],
    description: '405 responses carry no Allow header',
    response: (res, req) => { if (isData(req) && res.status === 405) delete res.headers.allow; },
  },
  {
    name: 'head-options-answered', family: 'data.discovery', suites: ['discovery'],
    description: 'HEAD and OPTIONS on data paths answer 200 (a framework default) instead of 405',
    request: (req) => {
      if (!dataPath(req) || (req.method !== 'HEAD' && req.method !== 'OPTIONS')) return;
      return { status: 200, headers: { allow: 'GET, POST, PUT, DELETE, HEAD, OPTIONS' }, body: Buffer.alloc(0) };
    },
  },
  {
    name: 'discovery-urls-relative', family: 'data.discovery', suites: ['discovery'],
    description: 'the discovery document gives its urls as paths instead of absolute URLs',
    response: (res, req) => {
      if (!isData(req) || !/\/api\/?$/.test(pathOf(req)) || res.status !== 200) return;
      editJson(res, (doc) => {
        const urls = (doc as { urls?: Record<string, unknown> }).urls;
        for (const [k, v] of Object.entries(urls ?? {})) if (typeof v === 'string') urls![k] = v.replace(/^https?:\/\/[^/]+/, '');
      });
    },
  },
  {
    name: 'identity-flags-missing', family: 'data.discovery', suites: ['discovery'],
    description: 'the interface description marks no natural-key field with x-Core-isIdentity',
    response: (res, req) => {
      if (!isData(req) || res.status !== 200 || !/swagger\.json$|openapi/i.test(pathOf(req))) return;
      editJson(res, (doc) => eachObject(doc, (o) => { delete o['x-Core-isIdentity']; }));
    },
  },
  {
    name: 'resource-paths-case-sensitive', family: 'data.discovery', suites: ['discovery'],
    description: 'resource path segments in another casing (AcademicWeeks) answer 404',
    request: (req) => { if (/^[A-Z]/.test(dataPath(req)?.resource ?? '')) return problem('not-found'); },
  },
];
