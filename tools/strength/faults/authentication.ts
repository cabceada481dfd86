/** Faulty deployments that break data.authentication. */
import { dataPath, header, jsonOf, setJson, Tokens } from '../proxy.js';
import { acceptOtherRsaAlgorithms, isData, item, problemOf, now, baseOf, type Fault } from './helpers.js';

/** Upstream's four 401 entries in other words, still one per cause. */
const REWORDED: Record<string, string> = {
  'Authorization header is missing.': 'No credentials were sent with the request.',
  'Unknown Authorization header scheme.': 'Only the Bearer scheme is supported.',
  'Missing Authorization header bearer token value.': 'The bearer token is empty.',
  'Invalid token': 'The access token is not valid or has expired.',
};

export const authenticationFaults: Fault[] = [
  {
    name: 'expired-token-accepted', family: 'data.authentication', suites: ['authentication'],
    description: 'data requests with an expired token are served',
    request: async (req, tools) => { if (isData(req)) await tools.tokens.rewrite(req, (c) => (c.exp ?? 0) <= now() && Boolean((c.exp = now() + 600))); },
  },
  {
    name: '401-without-errors-entry', family: 'data.authentication', suites: ['authentication'],
    description: '401 problems carry no errors entry saying why',
    response: (res, req) => { const p = isData(req) && res.status === 401 ? problemOf(res) : undefined; if (p?.errors) { delete p.errors; setJson(res, p); } },
  },
  {
    name: '401-one-generic-entry', family: 'data.authentication', suites: ['authentication'],
    description: 'every 401 of the data API carries the same errors entry, whatever the cause (header missing, unknown scheme, blank or invalid token)',
    response: (res, req) => { const p = isData(req) && res.status === 401 ? problemOf(res) : undefined; if (p) { p.errors = ['Unauthorized.']; setJson(res, p); } },
  },
  {
    name: '401-entries-reworded', family: 'data.authentication', suites: ['authentication'], expect: 'conformant',
    description: 'each 401 cause keeps one errors entry of its own, in other words than upstream\'s: four distinct entries (decision 35: the wording is SHOULD)',
    response: (res, req) => {
      const p = isData(req) && res.status === 401 ? problemOf(res) : undefined;
      if (!p || !Array.isArray(p.errors)) return;
      p.errors = p.errors.map((e: unknown) => REWORDED[String(e)] ?? e);
      setJson(res, p);
    },
  },
  {
    name: 'basic-credentials-accepted', family: 'data.authentication', suites: ['authentication'],
    description: 'data requests carrying a client\'s key and secret as Basic credentials are served (the scheme is not checked)',
    request: async (req, tools) => {
      const m = dataPath(req) ? /^Basic +(\S+)$/i.exec(header(req, 'authorization') ?? '') : undefined;
      if (!m) return;
      const [key, secret] = Buffer.from(m[1], 'base64').toString('utf8').split(':');
      if (!Object.values(tools.clients).some((c) => c.key === key && c.secret === secret)) return;
      const res = await tools.upstream({
        route: req.route, method: 'POST', url: `${baseOf(req)}/oauth/token`,
        headers: { host: req.headers.host, authorization: req.headers.authorization, 'content-type': 'application/x-www-form-urlencoded' },
        body: Buffer.from('grant_type=client_credentials'),
      });
      const token = (jsonOf(res) as { access_token?: string } | undefined)?.access_token;
      if (token) req.headers.authorization = `Bearer ${token}`;
    },
  },
  {
    name: 'other-rsa-algorithms-accepted', family: 'data.authentication', suites: ['authentication'], expect: 'conformant', warns: ['data.authentication.signing-algorithm-enforced'],
    description: 'data requests with a token the issuer\'s key signed under RS512 (or another RSA algorithm than RS256) are served',
    request: async (req, tools) => { if (isData(req)) await acceptOtherRsaAlgorithms(req, tools); },
  },
  {
    name: 'item-writes-unauthenticated', family: 'data.authentication', suites: ['authentication'],
    description: 'PUT and DELETE on an item route are served without a token (only reads and creates check it)',
    request: async (req, tools) => {
      if (!item(req) || (req.method !== 'PUT' && req.method !== 'DELETE') || header(req, 'authorization')) return;
      const { key, secret } = tools.clients.primary;
      const res = await tools.upstream({
        route: req.route, method: 'POST', url: `${baseOf(req)}/oauth/token`,
        headers: { host: req.headers.host, authorization: `Basic ${Buffer.from(`${key}:${secret}`).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
        body: Buffer.from('grant_type=client_credentials'),
      });
      const token = (jsonOf(res) as { access_token?: string } | undefined)?.access_token;
      if (token) req.headers.authorization = `Bearer ${token}`;
    },
  },
  {
    name: 'algorithm-not-enforced', family: 'data.authentication', suites: ['authentication'],
    description: 'data requests with a token whose alg is none or HS256 are served (the header\'s algorithm trusted)',
    request: async (req, tools) => {
      const token = isData(req) ? Tokens.bearer(req) : undefined;
      const alg = token ? tools.tokens.decode(token)?.alg : undefined;
      if (alg === 'none' || alg?.startsWith('HS')) await tools.tokens.rewrite(req, () => true, { unsigned: true });
    },
  },
];
