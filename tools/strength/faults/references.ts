/** Faulty deployments that break data.references. */
import { dataPath, eachObject, header, jsonOf, pathOf, setJson } from '../proxy.js';
import { isData, collection, item, problemOf, hasType, editJson, type Fault } from './helpers.js';

export const referencesFaults: Fault[] = [
  {
    name: 'unresolved-reference-detail-generic', family: 'data.references', suites: ['references'],
    description: 'the 409 for an unresolved reference names no referenced type (generic detail, no errors)',
    response: (res, req) => {
      const p = isData(req) && hasType(res, 'unresolved-reference') ? problemOf(res) : undefined;
      if (!p) return;
      p.detail = 'The request conflicts with the current state of the data.';
      delete p.errors;
      setJson(res, p);
    },
  },
  {
    name: 'reference-extra-member', family: 'data.references', suites: ['references'],
    description: 'reference objects in responses carry a member besides the key fields and link',
    response: (res, req) => {
      if (!isData(req) || req.method !== 'GET' || res.status !== 200 || !dataPath(req)) return;
      editJson(res, (body) => eachObject(body, (o) => {
        for (const [k, v] of Object.entries(o)) if (/Reference$/.test(k) && v && typeof v === 'object' && !Array.isArray(v)) (v as Record<string, unknown>).referenceType = k.replace(/Reference$/, '');
      }));
    },
  },
  {
    name: 'client-link-stored', family: 'data.references', suites: ['references'],
    description: 'link objects a client sends inside references are stored and served back',
    response: (res, req, tools) => {
      const links = (tools.state.get('links') as Map<string, Record<string, unknown>> | undefined) ?? new Map<string, Record<string, unknown>>();
      tools.state.set('links', links);
      const location = header(res, 'location');
      if (collection(req) && req.method === 'POST' && location) {
        const sent = Object.entries((jsonOf(req) as Record<string, unknown> | undefined) ?? {}).filter(([k, v]) => /Reference$/.test(k) && (v as { link?: unknown } | null)?.link);
        if (sent.length) links.set(new URL(location).pathname.toLowerCase(), Object.fromEntries(sent.map(([k, v]) => [k, (v as { link: unknown }).link])));
      }
      const stored = item(req) && req.method === 'GET' && res.status === 200 ? links.get(pathOf(req).toLowerCase()) : undefined;
      if (stored) editJson(res, (b) => { for (const [k, link] of Object.entries(stored)) { const ref = (b as Record<string, { link?: unknown }>)[k]; if (ref) ref.link = link; } });
    },
  },
];
