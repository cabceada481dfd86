/** Faulty deployments that break data.descriptors. */
import { dataPath, eachObject, jsonOf, pathOf, type ProxiedRequest } from '../proxy.js';
import { isData, isWrite, isIdentityFlag, editJson, editRequestJson, problem, type Fault } from './helpers.js';

/** A write of a descriptor resource. */
const descriptorWrite = (req: ProxiedRequest) => isWrite(req) && /descriptors$/i.test(dataPath(req)?.resource ?? '');
/** The descriptors section of the interface description. */
const descriptorsSection = (req: ProxiedRequest) => isData(req) && /\/descriptors\/swagger\.json$/i.test(pathOf(req));
/** Each `<name>DescriptorId` declaration of the descriptors section. */
function eachDescriptorId(doc: unknown, visit: (declaration: Record<string, unknown>) => void): void {
  const schemas = (doc as { components?: { schemas?: Record<string, { properties?: Record<string, Record<string, unknown>> }> } }).components?.schemas ?? {};
  for (const s of Object.values(schemas)) for (const [k, v] of Object.entries(s.properties ?? {})) if (/DescriptorId$/.test(k) && k !== 'priorDescriptorId') visit(v);
}

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
    name: 'descriptor-id-declared-int64', family: 'data.descriptors', suites: ['descriptors/shape.spec.ts'],
    description: 'the interface description declares every <name>DescriptorId as int64, not the seed\'s int32',
    response: (res, req) => {
      if (!descriptorsSection(req) || res.status !== 200) return;
      editJson(res, (doc) => eachDescriptorId(doc, (d) => { d.format = 'int64'; }));
    },
  },
  {
    name: 'descriptor-id-not-identity', family: 'data.descriptors', suites: ['descriptors/shape.spec.ts', 'discovery/interface-description.spec.ts'],
    description: 'the interface description does not flag <name>DescriptorId with the identity flag (x-Core-isIdentity on the seed\'s names), though the seed makes it the natural key (K)',
    response: (res, req) => {
      if (!descriptorsSection(req) || res.status !== 200) return;
      editJson(res, (doc) => eachDescriptorId(doc, (d) => { for (const k of Object.keys(d)) if (isIdentityFlag(k)) delete d[k]; }));
    },
  },
  {
    name: 'descriptor-prior-id-dropped-beyond-examples', family: 'data.descriptors', suites: ['descriptors'],
    description: 'descriptor records other than academicSubjectDescriptors are returned without priorDescriptorId, though it was set',
    response: (res, req) => {
      const resource = isData(req) && req.method === 'GET' && res.status === 200 ? dataPath(req)?.resource ?? '' : '';
      if (!/descriptors$/i.test(resource) || /^academicsubjectdescriptors$/i.test(resource)) return;
      editJson(res, (body) => { for (const o of Array.isArray(body) ? body : [body]) delete (o as Record<string, unknown>).priorDescriptorId; });
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
