/** Faulty deployments that break data.profiles. */
import { answerJson, dataPath, header, Tokens } from '../proxy.js';
import { isWrite, collection, item, hasType, type Fault } from './helpers.js';

/** The profiled client's request sent as the primary client's (which no profile covers); true when it was the profiled client's. */
const asPrimary = (req: Parameters<Fault['request'] & {}>[0], tools: Parameters<Fault['request'] & {}>[1]) =>
  tools.tokens.rewrite(req, (c) => c.client_id === tools.clients.profiled?.key && Boolean((c.client_id = tools.clients.primary.key)));

export const profilesFaults: Fault[] = [
  {
    name: 'readable-profile-accepted-on-write', family: 'data.profiles', suites: ['profiles'],
    description: 'a write whose Content-Type is a readable profile type is treated as the writable type (no 400)',
    request: (req) => { const t = header(req, 'content-type'); if (dataPath(req) && isWrite(req) && t && /\.readable\+json/i.test(t)) req.headers['content-type'] = t.replace(/\.readable\+json/i, '.writable+json'); },
  },
  {
    name: 'unassigned-profile-served', family: 'data.profiles', suites: ['profiles'],
    description: 'a read with a profile the caller is not assigned answers 200 with nothing instead of 403 incorrect-usage',
    response: (res, req) => { if (dataPath(req) && req.method === 'GET' && hasType(res, 'data-policy:incorrect-usage')) answerJson(res, 200, collection(req) ? [] : {}); },
  },
  {
    name: 'readable-profile-not-applied', family: 'data.profiles', suites: ['profiles'],
    description: 'a read with a readable profile type returns every member, the profile\'s exclusions not applied',
    request: async (req, tools) => {
      const accept = header(req, 'accept') ?? '';
      if (!dataPath(req) || req.method !== 'GET' || !/\.readable\+json/i.test(accept)) return;
      if (await asPrimary(req, tools)) req.headers.accept = 'application/json';
    },
  },
  {
    name: 'writable-profile-not-applied', family: 'data.profiles', suites: ['profiles'],
    description: 'a write with a writable profile type stores every member, the profile\'s exclusions not applied',
    request: async (req, tools) => {
      const type = header(req, 'content-type') ?? '';
      if (!dataPath(req) || !isWrite(req) || !/\.writable\+json/i.test(type)) return;
      if (await asPrimary(req, tools)) req.headers['content-type'] = 'application/json';
    },
  },
  {
    name: 'readable-profile-not-applied-on-collection', family: 'data.profiles', suites: ['profiles'],
    description: 'a collection read with a readable profile type returns every member (the profile applied to item reads only)',
    request: async (req, tools) => {
      const accept = header(req, 'accept') ?? '';
      if (!collection(req) || req.method !== 'GET' || !/\.readable\+json/i.test(accept)) return;
      if (await asPrimary(req, tools)) req.headers.accept = 'application/json';
    },
  },
  {
    name: 'unassigned-profile-writes-accepted', family: 'data.profiles', suites: ['profiles'],
    description: 'a write with the writable type of a profile the caller is not assigned is read as plain JSON instead of refused with 403',
    request: async (req, tools) => {
      const type = header(req, 'content-type') ?? '';
      const token = Tokens.bearer(req);
      if (!dataPath(req) || !isWrite(req) || !/\.writable\+json/i.test(type) || !token) return;
      if (tools.tokens.decode(token)?.claims.client_id === tools.clients.primary.key) req.headers['content-type'] = 'application/json';
    },
  },
  {
    name: 'covering-profile-enforced-on-collection-reads-only', family: 'data.profiles', suites: ['profiles'],
    description: 'a caller whose profile covers a resource is refused plain application/json on collection reads only: a GET by id, a POST and a PUT with plain JSON go through unfiltered',
    request: async (req, tools) => {
      const path = dataPath(req);
      if (!path || (collection(req) && req.method === 'GET')) return;
      const type = header(req, req.method === 'GET' ? 'accept' : 'content-type') ?? '';
      if (/\.(readable|writable)\+json/i.test(type)) return;
      await asPrimary(req, tools);
    },
  },
  {
    name: 'writable-profile-not-applied-on-put', family: 'data.profiles', suites: ['profiles'],
    description: 'a PUT with a writable profile type stores every member sent, the profile\'s exclusions not applied (a POST applies them)',
    request: async (req, tools) => {
      const type = header(req, 'content-type') ?? '';
      if (!item(req) || req.method !== 'PUT' || !/\.writable\+json/i.test(type)) return;
      if (await asPrimary(req, tools)) req.headers['content-type'] = 'application/json';
    },
  },
];
