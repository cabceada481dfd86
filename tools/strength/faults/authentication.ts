/** Faulty deployments that break data.authentication. */
import { dataPath, header, jsonOf, setJson, Tokens } from '../proxy.js';
import { acceptOtherRsaAlgorithms, isData, item, problemOf, now, baseOf, type Fault } from './helpers.js';

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
    name: 'other-rsa-algorithms-accepted', family: 'data.authentication', suites: ['authentication'],
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
