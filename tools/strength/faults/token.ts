/** Faulty deployments that break data.token. */
import { answerJson, header, jsonOf, pathOf, setJson } from '../proxy.js';
import { isData, tokenEndpoint, isJson, editJson, problem, ROSTER_SCOPES, scopeEntries, type Fault } from './helpers.js';
import type { ProxiedRequest, ProxiedResponse, Tools } from '../proxy.js';

/** The body fields of a token request, form or JSON (names as sent). */
function tokenFields(req: ProxiedRequest): Record<string, string> {
  if (isJson(req)) return Object.fromEntries(Object.entries((jsonOf(req) as Record<string, unknown> | undefined) ?? {}).map(([k, v]) => [k, String(v)]));
  return Object.fromEntries(new URLSearchParams(req.body.toString('utf8')));
}

/**
 * A form token request for rostering scopes the reference refused (400 invalid_scope): asked again
 * without a scope, which gives the client's own scopes; `scopes` picks the scope claim from the
 * requested and the owned ones, and the answer is that token re-signed.
 */
async function rosterScopeAnswer(res: ProxiedResponse, req: ProxiedRequest, tools: Tools, scopes: (requested: string[], owned: string[]) => string[]): Promise<void> {
  if (!tokenEndpoint(req) || isJson(req) || res.status !== 400 || (jsonOf(res) as { error?: string } | undefined)?.error !== 'invalid_scope') return;
  const form = new URLSearchParams(req.body.toString('utf8'));
  const requested = scopeEntries(form.get('scope') ?? '');
  if (!requested.length || !requested.every((s) => ROSTER_SCOPES.some((n) => s === n || s.endsWith(`/${n}`)))) return;
  form.delete('scope');
  const plain = await tools.upstream({ ...req, body: Buffer.from(form.toString(), 'utf8') });
  const body = jsonOf(plain) as { access_token?: string; expires_in?: number } | undefined;
  const claims = plain.status === 200 && body?.access_token ? await tools.tokens.signed(body.access_token) : undefined;
  if (!claims) return;
  claims.scope = scopes(requested, scopeEntries(claims.scope)).join(' ');
  answerJson(res, 200, { access_token: await tools.tokens.sign(claims), expires_in: body!.expires_in, token_type: 'bearer', scope: claims.scope });
}

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
  {
    name: 'body-secret-not-checked', family: 'data.token', suites: ['token'],
    description: 'client credentials in a form or JSON body are taken for a known client key whatever the secret (the Basic header is checked)',
    request: (req, tools) => {
      if (!tokenEndpoint(req)) return;
      const fields = tokenFields(req);
      const secret = Object.values(tools.clients).find((c) => c.key === fields.client_id)?.secret;
      if (!secret || fields.client_secret === undefined || fields.client_secret === secret) return;
      fields.client_secret = secret;
      req.body = Buffer.from(isJson(req) ? JSON.stringify(fields) : new URLSearchParams(fields).toString(), 'utf8');
    },
  },
  {
    name: 'token-path-other-methods-404', family: 'data.token', suites: ['token'],
    description: 'GET, PUT and DELETE on the token path answer 404 not-found (a framework default) instead of 405',
    request: (req) => {
      if (!isData(req) || !/\/oauth\/token$/.test(pathOf(req)) || req.method === 'POST') return;
      return problem('not-found');
    },
  },
  {
    name: 'token-issued-for-any-method', family: 'data.token', suites: ['token'],
    description: 'GET, PUT and DELETE on the token path are served as POST: a client-credentials request issues a token whatever the method',
    request: (req) => {
      if (!isData(req) || !/\/oauth\/token$/.test(pathOf(req)) || req.method === 'POST' || !['GET', 'PUT', 'DELETE'].includes(req.method)) return;
      req.method = 'POST';
      if (!req.body.length) {
        req.headers['content-type'] = 'application/x-www-form-urlencoded';
        req.body = Buffer.from('grant_type=client_credentials', 'utf8');
      }
    },
  },
  {
    name: 'unowned-roster-scope-granted', family: 'roster.roster-auth', suites: ['rostering/tokens.spec.ts'], grep: 'withholds a rostering scope',
    description: 'the token endpoint grants every rostering scope a client requests, its permission set\'s or not (a core-only client gets demographics)',
    response: (res, req, tools) => rosterScopeAnswer(res, req, tools, (requested) => requested),
  },
  // Conforming: upstream drops requested scopes the client does not own and issues the rest (rostering.md §7).
  {
    name: 'unowned-roster-scope-dropped', family: 'roster.roster-auth', suites: ['rostering/tokens.spec.ts'], expect: 'conformant',
    description: 'a requested rostering scope the client does not own is dropped, not refused: the token bears the requested scopes the client owns',
    response: (res, req, tools) => rosterScopeAnswer(res, req, tools, (requested, owned) => requested.filter((s) => owned.includes(s))),
  },
  // Conforming: the seed names the Basic header only; credentials in the body are upstream's (decision 20, SHOULD).
  {
    name: 'token-body-credentials-refused', family: 'data.token', suites: ['token'], expect: 'conformant', warns: ['data.token.credentials-in-body', 'data.token.json-body-accepted'],
    description: 'the token endpoint takes client credentials from the Basic header only: a body with client_id or client_secret is answered 400 invalid_request',
    request: (req) => {
      if (!tokenEndpoint(req)) return;
      const fields = tokenFields(req);
      if (fields.client_id === undefined && fields.client_secret === undefined) return;
      const res: ProxiedResponse = { status: 400, headers: {}, body: Buffer.alloc(0) };
      answerJson(res, 400, { error: 'invalid_request' });
      return res;
    },
  },
];
