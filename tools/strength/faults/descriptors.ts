/** Faulty deployments that break data.descriptors. */
import { dataPath, eachObject } from '../proxy.js';
import { isData, editJson, type Fault } from './helpers.js';

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
];
