/** Faulty deployments that break roster.roster-auth. */
import { header, pathOf, Tokens } from '../proxy.js';
import { acceptOtherRsaAlgorithms, isRoster, now, rosterAnswer, ROSTER_SCOPES, scoped, type Fault } from './helpers.js';

/** A path under the rostering prefix naming none of the seed's resources (nor one of their items). */
const ROSTER_RESOURCES = ['academicsessions', 'classes', 'courses', 'enrollments', 'orgs', 'schools', 'terms', 'gradingperiods', 'users', 'students', 'teachers', 'demographics'];
function unknownRosterPath(path: string): boolean {
  const m = /\/std\/roster\/rostering\/v1p2\/(.*)$/i.exec(path);
  if (!m) return false;
  const rest = m[1].replace(/\/$/, '').split('/');
  return !(rest.length <= 2 && ROSTER_RESOURCES.includes(rest[0].toLowerCase()) && rest.every(Boolean));
}

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
      const token = await tools.tokens.sign({ iss: req.route.issuer, aud: req.route.audience, iat: now(), exp: now() + 600, client_id: tools.clients.primary.key, scope: ROSTER_SCOPES.map(scoped).join(' ') });
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
      const token = await tools.tokens.sign({ iss: req.route.issuer, aud: req.route.audience, iat: now(), exp: now() + 1800, client_id: tools.clients.primary.key, scope: ROSTER_SCOPES.map(scoped).join(' ') });
      return rosterAnswer(200, { access_token: token, token_type: 'bearer', expires_in: 1800 });
    },
  },
  {
    name: 'roster-token-checked-on-orgs-only', family: 'roster.roster-auth', suites: ['rostering/tokens.spec.ts'], grep: 'every resource',
    description: 'the rostering service checks a token\'s signature, algorithm, exp, iss and aud on /orgs only: on every other route any token that decodes is taken (seed 001: "Checks on every request")',
    request: async (req, tools) => {
      const token = isRoster(req) ? Tokens.bearer(req) : undefined;
      if (!token || !req.route.issuer || /\/v1p2\/orgs(\/|$|\?)/i.test(pathOf(req))) return;
      await tools.tokens.rewrite(req, (c) => {
        Object.assign(c, { iss: req.route.issuer, aud: req.route.audience, exp: Math.max(Number(c.exp ?? 0), now() + 600) });
        delete c.nbf;
        return true;
      }, { unsigned: true });
    },
  },
  {
    name: 'roster-unknown-path-without-token-200', family: 'roster.roster-auth', suites: ['rostering/tokens.spec.ts'], grep: 'name no resource',
    description: 'a path under the rostering prefix that names no resource is answered 200 {} without a token (seed 001: every request to the prefix needs a valid token)',
    request: (req) => (isRoster(req) && !header(req, 'authorization') && unknownRosterPath(pathOf(req)) ? rosterAnswer(200, {}) : undefined),
  },
  {
    name: 'roster-unknown-path-without-token-500', family: 'roster.roster-auth', suites: ['rostering/tokens.spec.ts'], grep: 'name no resource',
    description: 'a path under the rostering prefix that names no resource is answered 500 without a token, the router failing before the token check',
    request: (req) => (isRoster(req) && !header(req, 'authorization') && unknownRosterPath(pathOf(req))
      ? rosterAnswer(500, { stdx_codeMajor: 'failure', stdx_severity: 'error', stdx_description: 'An internal server error occurred' }) : undefined),
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
