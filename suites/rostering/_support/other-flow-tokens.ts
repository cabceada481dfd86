import { createPublicKey, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { decodeProtectedHeader, jwtVerify, type JWTPayload } from 'jose';
import { needs, notApplicable } from '../../_harness/capabilities.js';
import { target } from '../../_harness/target.js';
import { rosteringRun } from './setup.js';

/**
 * The iss and aud rules without any signing key (issue #13): a token another declared flow's
 * token endpoint issued, presented to the target's rostering service. It proves a rule only when
 * nothing but that one claim can refuse it, so it is used only where
 * - its signature verifies locally with the issuer's public key the target declares
 *   (`rostering.issuerPublicKey`), which also verifies a token the service accepts (the control,
 *   a client of the target's own flow): the service can verify it;
 * - it is valid now (exp, nbf) and its header is the control's (alg, typ, kid);
 * - its claims are the control's but for the time claims, `jti` and exactly the claim under test
 *   (`iss` differs and `aud` is the same set, or the reverse): same client, scopes, organizations,
 *   tenant and instances.
 * Otherwise the rule is not applicable here, with the reason.
 */
export type Claim = 'iss' | 'aud';

/** The declared issuer public key, or undefined. One-line PEMs (literal \n) are accepted. */
export function issuerPublicKey(): KeyObject | undefined {
  const d = target.rostering?.issuerPublicKey;
  const pem = d?.pem ?? (d?.pemEnv ? process.env[d.pemEnv] : d?.pemFile ? readFileSync(d.pemFile, 'utf8') : undefined);
  return pem ? createPublicKey(pem.replace(/\\n/g, '\n')) : undefined;
}

const TIME_AND_ID = new Set(['iat', 'exp', 'nbf', 'jti']);
const audSet = (aud: unknown) => JSON.stringify((Array.isArray(aud) ? aud : aud === undefined ? [] : [aud]).map(String).sort());
/** The claims but iss, aud, time claims and jti, keys in order. */
const rest = (p: JWTPayload) => JSON.stringify(Object.entries(p).filter(([k]) => k !== 'iss' && k !== 'aud' && !TIME_AND_ID.has(k)).sort(([a], [b]) => a.localeCompare(b)));
const header = (token: string) => JSON.stringify(Object.entries(decodeProtectedHeader(token)).sort(([a], [b]) => a.localeCompare(b)));

async function verified(token: string, key: KeyObject): Promise<JWTPayload | undefined> {
  try {
    // Signature, algorithm (the token's own, compared with the control's below), exp and nbf; not iss or aud.
    return (await jwtVerify(token, key, { algorithms: [decodeProtectedHeader(token).alg ?? 'none'] })).payload;
  } catch {
    return undefined;
  }
}

/**
 * A control token of the target's own flow and a token another flow issued that differs from it
 * only in `claim` (see above), with their roles; else not applicable, saying what is missing.
 */
export async function otherFlowToken(claim: Claim): Promise<{ control: string; controlRole: string; other: string; otherRole: string }> {
  const key = issuerPublicKey();
  needs('rostering.issuerPublicKey', key, 'the issuer\'s public key, to verify another flow\'s token locally');
  const run = rosteringRun();
  const clients = Object.entries(target.rostering?.clients ?? {}).filter(([role]) => run.tokens[role]);
  const own = clients.filter(([, c]) => (c.flow ?? 'single') === 'single');
  const others = clients.filter(([, c]) => (c.flow ?? 'single') !== 'single');
  const controls: { role: string; token: string; payload: JWTPayload }[] = [];
  for (const [role] of own) {
    const payload = await verified(run.tokens[role], key);
    if (payload) controls.push({ role, token: run.tokens[role], payload });
  }
  if (!controls.length) notApplicable('no token of the target\'s own flow verifies with rostering.issuerPublicKey');
  const other = claim === 'iss' ? 'aud' : 'iss';
  const differs = (c: 'iss' | 'aud', a: JWTPayload, b: JWTPayload) => (c === 'iss' ? a.iss !== b.iss : audSet(a.aud) !== audSet(b.aud));
  for (const [otherRole] of others) {
    const token = run.tokens[otherRole];
    const payload = await verified(token, key);
    if (!payload) continue;
    for (const c of controls) {
      if (header(token) !== header(c.token) || rest(payload) !== rest(c.payload)) continue;
      if (differs(claim, payload, c.payload) && !differs(other, payload, c.payload)) return { control: c.token, controlRole: c.role, other: token, otherRole };
    }
  }
  needs('rostering.clients', false, `a client of another routing flow whose token verifies with rostering.issuerPublicKey and has the claims of a client of the target's own flow but another ${claim} (and the same ${other})`);
}
