/** Faulty deployments that break data.token. */
import { answerJson, header, jsonOf, pathOf, setJson } from '../proxy.js';
import { isData, tokenEndpoint, isJson, editJson, type Fault } from './helpers.js';

export const tokenFaults: Fault[] = [
  {
    name: 'client-secret-not-checked', family: 'data.token', suites: ['token'],
    description: 'the token endpoint issues a token for a known client key whatever the secret',
    request: (req, tools) => {
      if (!tokenEndpoint(req)) return;
      const m = /^Basic +(\S+)$/i.exec(header(req, 'authorization') ?? '');
      if (!m) return;
      const [key] = Buffer.from(m[1], 'base64').toString('utf8').split(':');
      const secret = Object.values(tools.clients).find((c) => c.key === key)?.secret;
      if (secret) req.headers.authorization = `Basic ${Buffer.from(`${key}:${secret}`).toString('base64')}`;
    },
  },
  {
    name: 'token-expires-in-missing', family: 'data.token', suites: ['token'],
    description: 'token responses carry no expires_in',
    response: (res, req) => { if (tokenEndpoint(req) && res.status === 200) editJson(res, (b) => { delete (b as Record<string, unknown>).expires_in; }); },
  },
  {
    name: 'expires-in-fixed-1800', family: 'data.token', suites: ['token'],
    description: 'expires_in always says 1800, whatever lifetime the host configured for the client (the short-lived client\'s tokens still expire after 4 s)',
    response: (res, req) => { if (tokenEndpoint(req) && res.status === 200) editJson(res, (b) => { (b as Record<string, unknown>).expires_in = 1800; }); },
  },
  {
    name: 'host-lifetime-3600-declared', family: 'data.token', suites: ['token', 'limits/limits.spec.ts', 'authentication/expiry.spec.ts'], expect: 'conformant',
    description: 'the host configured a token lifetime of 3600 s and the target declares it (dataApi.tokenLifetimeSeconds 3600): tokens of the default lifetime are issued for 3600 s with expires_in 3600 (the seed: 1800 by default, host configurable)',
    target: { dataApi: { tokenLifetimeSeconds: 3600 } },
    response: async (res, req, tools) => {
      if (!tokenEndpoint(req) || res.status !== 200) return;
      const body = jsonOf(res) as { access_token?: string; expires_in?: number } | undefined;
      if (!body?.access_token || body.expires_in !== 1800) return; // the short-lived client keeps its own
      const claims = await tools.tokens.signed(body.access_token);
      if (!claims || typeof claims.iat !== 'number') return;
      claims.exp = claims.iat + 3600;
      body.access_token = await tools.tokens.sign(claims);
      body.expires_in = 3600;
      setJson(res, body);
    },
  },
  {
    name: 'grant-type-not-checked', family: 'data.token', suites: ['token'],
    description: 'the token endpoint issues tokens for any grant_type, or none',
    request: (req) => {
      if (!tokenEndpoint(req) || isJson(req)) return;
      const form = new URLSearchParams(req.body.toString('utf8'));
      if (form.get('grant_type') === 'client_credentials') return;
      form.set('grant_type', 'client_credentials');
      req.body = Buffer.from(form.toString(), 'utf8');
    },
  },
  {
    name: 'requested-scope-not-checked', family: 'data.token', suites: ['token'],
    description: 'a requested scope naming an education organization the client is not associated with is ignored (no 400 invalid_scope)',
    request: (req) => {
      if (!tokenEndpoint(req) || isJson(req)) return;
      const form = new URLSearchParams(req.body.toString('utf8'));
      if (!/^\d+$/.test(form.get('scope') ?? '')) return;
      form.delete('scope');
      req.body = Buffer.from(form.toString(), 'utf8');
    },
  },
  {
    name: 'token-without-jti', family: 'data.token', suites: ['token'],
    description: 'issued tokens carry no jti claim',
    response: async (res, req, tools) => {
      if (!tokenEndpoint(req) || res.status !== 200) return;
      const body = jsonOf(res) as { access_token?: string } | undefined;
      const claims = body?.access_token ? await tools.tokens.signed(body.access_token) : undefined;
      if (!claims) return;
      delete claims.jti;
      body!.access_token = await tools.tokens.sign(claims);
      setJson(res, body);
    },
  },
  {
    name: 'token-info-without-authentication', family: 'data.token', suites: ['token'],
    description: 'token_info answers 200 (inactive) to a caller without a valid bearer token instead of 401',
    response: (res, req) => { if (isData(req) && /\/oauth\/token_info$/.test(pathOf(req)) && res.status === 401) answerJson(res, 200, { active: false }); },
  },
];
