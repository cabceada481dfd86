/** Faulty deployments that break roster.roster-auth. */
import { header, pathOf, Tokens } from '../proxy.js';
import { acceptOtherRsaAlgorithms, isRoster, now, rosterAnswer, ROSTER_SCOPES, type Fault } from './helpers.js';

/** A token path a client-credentials request may be sent to, anywhere under the rostering service. */
const tokenPath = (path: string) => /\/(oauth2?|connect)\/token$/.test(path);

export const rosterTokensFaults: Fault[] = [
  {
    name: 'roster-expired-token-accepted', family: 'roster.roster-auth', suites: ['rostering/tokens.spec.ts'],
    description: 'the rostering service serves expired tokens',
    request: async (req, tools) => { if (isRoster(req)) await tools.tokens.rewrite(req, (c) => (c.exp ?? Infinity) <= now() && Boolean((c.exp = now() + 600))); },
  },
  {
    name: 'roster-audience-not-checked', family: 'roster.roster-auth', suites: ['rostering/tokens.spec.ts'],
    description: 'the rostering service accepts a token whose aud is another service\'s, or missing',
    request: async (req, tools) => {
      const aud = req.route.audience;
      if (!isRoster(req) || !aud) return;
      await tools.tokens.rewrite(req, (c) => !(Array.isArray(c.aud) ? c.aud : [c.aud]).includes(aud) && Boolean((c.aud = aud)));
    },
  },
  {
    name: 'roster-issuer-not-checked', family: 'roster.roster-auth', suites: ['rostering/tokens.spec.ts'],
    description: 'the rostering service accepts a token from another issuer (iss not compared)',
    request: async (req, tools) => {
      const iss = req.route.issuer;
      if (!isRoster(req) || !iss) return;
      await tools.tokens.rewrite(req, (c) => c.iss !== iss && Boolean((c.iss = iss)));
    },
  },
  {
    name: 'roster-algorithm-not-enforced', family: 'roster.roster-auth', suites: ['rostering/tokens.spec.ts'],
    description: 'the rostering service accepts tokens signed with another algorithm (alg none, HS256)',
    request: async (req, tools) => {
      const token = isRoster(req) ? Tokens.bearer(req) : undefined;
      if (token && tools.tokens.decode(token)?.alg !== 'RS256') await tools.tokens.rewrite(req, () => true, { unsigned: true });
    },
  },
  {
    name: 'roster-signature-not-checked', family: 'roster.roster-auth', suites: ['rostering/tokens.spec.ts'],
    description: 'the rostering service does not verify token signatures',
    request: async (req, tools) => {
      const token = isRoster(req) ? Tokens.bearer(req) : undefined;
      if (token && tools.tokens.decode(token)?.alg === 'RS256' && !(await tools.tokens.signed(token))) await tools.tokens.rewrite(req, () => true, { unsigned: true });
    },
  },
  {
    name: 'roster-nbf-not-checked', family: 'roster.roster-auth', suites: ['rostering/tokens.spec.ts'],
    description: 'the rostering service serves tokens that are not valid yet (nbf in the future)',
    request: async (req, tools) => { if (isRoster(req)) await tools.tokens.rewrite(req, (c) => (c.nbf ?? 0) > now() && delete c.nbf); },
  },
  {
    name: 'roster-exp-not-required', family: 'roster.roster-auth', suites: ['rostering/tokens.spec.ts'],
    description: 'the rostering service serves tokens without exp',
    request: async (req, tools) => { if (isRoster(req)) await tools.tokens.rewrite(req, (c) => c.exp === undefined && Boolean((c.exp = now() + 600))); },
  },
  {
    name: 'roster-other-rsa-algorithms-accepted', family: 'roster.roster-auth', suites: ['rostering/tokens.spec.ts'],
    description: 'the rostering service checks the signature with the configured key but accepts any RSA algorithm (RS512, PS256)',
    request: async (req, tools) => { if (isRoster(req)) await acceptOtherRsaAlgorithms(req, tools); },
  },
  {
    name: 'roster-item-routes-unauthenticated', family: 'roster.roster-auth', suites: ['rostering/tokens.spec.ts'],
    description: 'the rostering service checks the token on collection routes only: an item read without one is served',
    request: async (req, tools) => {
      if (!isRoster(req) || header(req, 'authorization') || !req.route.issuer) return;
      const m = /\/std\/roster\/rostering\/v1p2\/[^/]+\/[^/]+$/.exec(pathOf(req));
      if (!m) return;
      const token = await tools.tokens.sign({ iss: req.route.issuer, aud: req.route.audience, iat: now(), exp: now() + 600, client_id: tools.clients.primary.key, scope: ROSTER_SCOPES.join(' ') });
      req.headers.authorization = `Bearer ${token}`;
    },
  },
  {
    name: 'roster-issuer-audience-case-insensitive', family: 'roster.roster-auth', suites: ['rostering/tokens.spec.ts'],
    description: 'the rostering service compares iss ignoring letter case, and aud ignoring case and a trailing slash',
    request: async (req, tools) => {
      const { issuer, audience } = req.route;
      if (!isRoster(req) || !issuer || !audience) return;
      const norm = (v: unknown) => String(v).toLowerCase().replace(/\/+$/, '');
      await tools.tokens.rewrite(req, (c) => {
        let changed = false;
        if (c.iss !== issuer && String(c.iss).toLowerCase() === issuer.toLowerCase()) { c.iss = issuer; changed = true; }
        if (typeof c.aud === 'string' && c.aud !== audience && norm(c.aud) === norm(audience)) { c.aud = audience; changed = true; }
        return changed;
      });
    },
  },
  {
    name: 'roster-token-issued', family: 'roster.roster-auth', suites: ['rostering/read-only.spec.ts'], grep: 'issues no tokens',
    description: 'the rostering service answers a client-credentials request at /oauth/token with an access token (seed 001: it issues none)',
    request: async (req, tools) => {
      if (!isRoster(req) || req.method !== 'POST' || !tokenPath(pathOf(req))) return undefined;
      const token = await tools.tokens.sign({ iss: req.route.issuer, aud: req.route.audience, iat: now(), exp: now() + 1800, client_id: tools.clients.primary.key, scope: ROSTER_SCOPES.join(' ') });
      return rosterAnswer(200, { access_token: token, token_type: 'bearer', expires_in: 1800 });
    },
  },
  // ---- conforming deviations: the seed allows them, the verdict must stay conformant ----
  {
    name: 'roster-token-path-redirects', family: 'roster.roster-auth', suites: ['rostering/read-only.spec.ts'], expect: 'conformant',
    description: 'the rostering service answers /oauth/token with a 307 to the issuer\'s token endpoint, as upstream does: a redirect hands out no token',
    request: (req) => {
      if (!isRoster(req) || !tokenPath(pathOf(req)) || !req.route.issuer) return undefined;
      return rosterAnswer(307, { redirect: `${req.route.issuer}/oauth/token` }, { location: `${req.route.issuer}/oauth/token` });
    },
  },
  {
    name: 'roster-aud-array-refused', family: 'roster.roster-auth', suites: ['rostering'], expect: 'conformant',
    description: 'a token whose aud is an array is refused 401, even holding the configured audience (the seed says aud "must equal"; accepting arrays is SHOULD)',
    request: (req, tools) => {
      const token = isRoster(req) ? Tokens.bearer(req) : undefined;
      if (!token || !Array.isArray(tools.tokens.decode(token)?.claims.aud)) return undefined;
      return rosterAnswer(401, { stdx_codeMajor: 'failure', stdx_severity: 'error', stdx_description: 'Authentication failed: the token is invalid or missing.' });
    },
  },
];
