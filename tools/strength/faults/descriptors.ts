/** Faulty deployments that break data.descriptors. */
import { dataPath, eachObject, jsonOf, type ProxiedRequest } from '../proxy.js';
import { isData, isWrite, editJson, editRequestJson, problem, type Fault } from './helpers.js';

/** A write of a descriptor resource. */
const descriptorWrite = (req: ProxiedRequest) => isWrite(req) && /descriptors$/i.test(dataPath(req)?.resource ?? '');

export const descriptorsFaults: Fault[] = [
  {
    name: 'descriptor-values-without-namespace', family: 'data.descriptors', suites: ['descriptors'],
    description: 'descriptor-valued members are returned as the bare codeValue, without <namespace>#',
    response: (res, req) => {
      if (!isData(req) || req.method !== 'GET' || res.status !== 200 || !dataPath(req)) return;
      editJson(res, (body) => eachObject(body, (o) => { for (const [k, v] of Object.entries(o)) if (/Descriptor$/.test(k) && typeof v === 'string' && v.includes('#')) o[k] = v.slice(v.lastIndexOf('#') + 1); }));
    },
  },
  {
    name: 'descriptor-id-missing', family: 'data.descriptors', suites: ['descriptors'],
    description: 'descriptor records are returned without their <name>DescriptorId',
    response: (res, req) => {
      if (!isData(req) || req.method !== 'GET' || res.status !== 200 || !/descriptors$/i.test(dataPath(req)?.resource ?? '')) return;
      editJson(res, (body) => { for (const o of Array.isArray(body) ? body : [body]) for (const k of Object.keys(o as object)) if (/DescriptorId$/.test(k)) delete (o as Record<string, unknown>)[k]; });
    },
  },
  {
    name: 'descriptor-key-spaces-refused', family: 'data.descriptors', suites: ['descriptors'], expect: 'conformant', warns: ['data.descriptors.key-spaces-accepted'],
    description: 'a descriptor codeValue or namespace with a space around is refused as a natural-key string (neither upstream server does)',
    request: (req) => {
      const b = descriptorWrite(req) ? jsonOf(req) as Record<string, unknown> | undefined : undefined;
      const spaced = ['codeValue', 'namespace'].find((k) => typeof b?.[k] === 'string' && /^\s|\s$/.test(b[k] as string));
      if (spaced) return problem('bad-request:data-validation-failed', { validationErrors: { [`$.${spaced}`]: [`${spaced} cannot contain leading or trailing spaces.`] } });
    },
  },
  // Conforming deviations: the seed allows them, so the verdict must stay conformant.
  {
    name: 'descriptor-key-spaces-trimmed', family: 'data.descriptors', suites: ['descriptors'], expect: 'conformant',
    description: 'a descriptor codeValue or namespace with spaces around is trimmed and accepted, as DMS does',
    request: (req) => {
      if (!descriptorWrite(req)) return;
      editRequestJson(req, (b) => {
        let changed = false;
        for (const k of ['codeValue', 'namespace']) if (typeof b[k] === 'string' && b[k] !== (b[k] as string).trim()) { b[k] = (b[k] as string).trim(); changed = true; }
        return changed;
      });
    },
  },
];
