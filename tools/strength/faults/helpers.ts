/** The fault type and the small predicates and builders the fault families share. */
import { randomUUID } from 'node:crypto';
import registry from '../../../spec/errors/problem-types.json' with { type: 'json' };
import type { DataApiTarget } from '../../../suites/targets/types.js';
import type { DataStandard } from '../../../spec/model/upstream.js';
import { referenceTarget, servedErrorTypePrefix } from '../configuration.js';
import {
  answerJson, dataPath, eachObject, header, jsonOf, pathOf, queryOf, setJson, setQuery,
  type ProxiedRequest, type ProxiedResponse, type Tools, type Transformer,
} from '../proxy.js';

/** One faulty deployment: a deviation from the seed the proxy makes out of the conforming reference. */
export interface Fault extends Transformer {
  name: string;
  /** The rule family the deviation breaks (`data.<family>` or `roster.<family>`). */
  family: string;
  description: string;
  /** Suite folders or spec files under suites/ to run against it. */
  suites: string[];
  /** Playwright --grep / --grep-invert, to leave out expensive tests that cannot notice it. */
  grep?: string;
  grepInvert?: string;
  /**
   * What the suites must make of it. `caught` (the default): a non-conforming deployment, so a
   * rule of `family` fails (at MUST level the verdict is then not conformant). `conformant`: a
   * deviation the seed allows (another wording, a status the seed leaves open, a declared host
   * setting), so the verdict must stay *conformant*, SHOULD warnings allowed (issue 20 point 7).
   */
  expect?: 'caught' | 'conformant';
  /**
   * For a conforming deviation: the SHOULD rules that must notice it (fail, as warnings). So one
   * run proves both that the deviation is allowed and that the suites still see it.
   */
  warns?: string[];
  /**
   * For a conforming deviation: the rules in which it must leave more not-applicable tests or
   * checks than the clean run. A deviation the suites meet by not judging (a 409 where a 400 would
   * be judged) proves the allowance only if the run says *not applicable* there, and a pass would
   * hide that it never did.
   */
  notApplicable?: string[];
  /**
   * What the deployment's target file declares differently from suites/targets/reference.json
   * (a host setting the seed allows, such as another token lifetime): the runner writes the
   * fault's target file with these members merged into `dataApi`.
   */
  target?: { dataApi?: Partial<Pick<DataApiTarget, 'tokenLifetimeSeconds' | 'tokenExpiryLeewaySeconds' | 'pageSizeMaximum'>> };
  /** For a conforming deviation: Playwright workers for its whole run (default 2), e.g. a remote deployment's default. */
  workers?: number;
  /**
   * The data standards whose deployments can show the fault, where not all can (4.0's education
   * organization ids are int32, so no id above int32 exists there to be wrapped). A run on another
   * standard does not run it and says which target would (run.ts, --target).
   */
  standards?: DataStandard[];
}

// ---- small predicates and builders ---------------------------------------------------------------

export const isData = (req: ProxiedRequest) => req.route.service === 'data';
export const isRoster = (req: ProxiedRequest) => req.route.service === 'rostering';
export const isWrite = (req: ProxiedRequest) => req.method === 'POST' || req.method === 'PUT';
/** Data requests on a resource collection, an item (`<resource>/<id>`), or a feed (`/deletes`, `/keyChanges`). */
export const collection = (req: ProxiedRequest) => isData(req) && dataPath(req)?.rest.length === 0;
export const item = (req: ProxiedRequest) => { const p = isData(req) ? dataPath(req) : undefined; return p?.rest.length === 1 && !['deletes', 'keychanges'].includes(p.rest[0].toLowerCase()); };
export const feed = (req: ProxiedRequest) => { const p = isData(req) ? dataPath(req) : undefined; return p?.rest.length === 1 && ['deletes', 'keychanges'].includes(p.rest[0].toLowerCase()); };
/**
 * The resource the one-resource faults break a rule on: cohorts, which no hand-written test of
 * those rules reads, so only the tests that cover every resource can catch them.
 */
export const onOneResource = (req: ProxiedRequest) => isData(req) && dataPath(req)?.resource.toLowerCase() === 'cohorts';
export const tokenEndpoint = (req: ProxiedRequest) => isData(req) && /\/oauth\/token$/.test(pathOf(req));
export const isJson = (m: { headers: ProxiedRequest['headers'] }) => /json/i.test(header(m, 'content-type') ?? '');

/** The problem body of a response, when it is one. */
export function problemOf(res: ProxiedResponse): Record<string, unknown> | undefined {
  if (res.status < 400 || !isJson(res)) return undefined;
  const body = jsonOf(res);
  return body && typeof body === 'object' && typeof (body as { type?: unknown }).type === 'string' ? (body as Record<string, unknown>) : undefined;
}

export const hasType = (res: ProxiedResponse, suffix: string) => String(problemOf(res)?.type ?? '').endsWith(suffix);

/**
 * A problem-details response as the reference would write it, with the problem-type prefix the
 * run's deployments are configured with (an upstream-named one writes urn:ed-fi:api:): a
 * deviation must change only what it says it changes.
 */
export function problem(suffix: string, extras: Record<string, unknown> = {}): ProxiedResponse {
  const entry = registry.problemTypes.find((p) => p.suffix === suffix)!;
  const res: ProxiedResponse = { status: entry.status, headers: {}, body: Buffer.alloc(0) };
  answerJson(res, entry.status, { detail: entry.detail, type: `${servedErrorTypePrefix}${suffix}`, title: entry.title, status: entry.status, correlationId: randomUUID(), ...extras });
  return res;
}

/** Changes a JSON response body in place (only when it is JSON). */
export function editJson(res: ProxiedResponse, edit: (body: unknown) => unknown): void {
  if (!isJson(res)) return;
  const body = jsonOf(res);
  if (body === undefined) return;
  setJson(res, edit(body) ?? body);
}

/** Changes a JSON request body in place; answers whether it changed it. */
export function editRequestJson(req: ProxiedRequest, edit: (body: Record<string, unknown>) => boolean): boolean {
  const body = jsonOf(req);
  if (!body || typeof body !== 'object' || Array.isArray(body) || !edit(body as Record<string, unknown>)) return false;
  setJson(req, body);
  return true;
}

export const empty = (res: ProxiedResponse, status: number) => {
  res.status = status;
  res.body = Buffer.alloc(0);
  delete res.headers['content-type'];
};

export const PAGING = new Set(['offset', 'limit', 'totalcount', 'minchangeversion', 'maxchangeversion']);

/** The rostering scopes a scope claim grants, read as the seed says (exact entries). */
export const ROSTER_SCOPES = ['roster-core.readonly', 'roster.readonly', 'roster-demographics.readonly'];
/** A rostering scope as the run's deployment names it: after the target's scope base (`https://purl.imsglobal.org/spec/or/v1p2/scope/` on upstream's names). */
export const scoped = (name: string): string => `${referenceTarget.rostering?.scopeBase ?? ''}${name}`;
export const scopeEntries = (v: unknown): string[] => (Array.isArray(v) ? v : v === undefined ? [] : [v]).flatMap((x) => String(x).split(/[\s,]+/)).filter(Boolean);
export const grants = (entries: string[], name: string) => entries.some((e) => e === name || e.endsWith(`/${name}`));

export const now = () => Math.floor(Date.now() / 1000);

/** The rostering service's failure body (seed 001: stdx_codeMajor, stdx_severity, stdx_description). */
export function rosterFailure(res: ProxiedResponse, status: number, description: string): void {
  answerJson(res, status, { stdx_codeMajor: 'failure', stdx_severity: 'error', stdx_description: description });
  delete res.headers.allow;
}

/** A rostering response of our own making (a request transformer that answers itself). */
export function rosterAnswer(status: number, body: unknown, headers: Record<string, string> = {}): ProxiedResponse {
  const res: ProxiedResponse = { status, headers: {}, body: Buffer.alloc(0) };
  answerJson(res, status, body);
  Object.assign(res.headers, headers);
  return res;
}

export const ROSTER_WRITES = ['POST', 'PUT', 'PATCH', 'DELETE'];
/** `<resource>/<sourcedId>` under the rostering prefix: the resource, else undefined. */
export const rosterItem = (req: ProxiedRequest) => /\/std\/roster\/rostering\/v1p2\/([^/]+)\/[^/]+$/.exec(pathOf(req))?.[1];

/** `{base_url}` of a data request (everything before /data/v3 or /oauth). */
export const baseOf = (req: ProxiedRequest) => pathOf(req).replace(/\/(data\/v3|oauth)\/.*$/, '');

/**
 * Education organization ids written through the data API (schools, districts, state agencies),
 * remembered by the proxy so that a rostering fault can widen a token to organizations the caller
 * was never given.
 */
export function organizationsSeen(req: ProxiedRequest, tools: Tools): Set<string> {
  const known = (tools.state.get('organizations') as Set<string> | undefined) ?? new Set<string>();
  tools.state.set('organizations', known);
  if (isData(req) && req.method === 'POST') {
    const body = jsonOf(req) as Record<string, unknown> | undefined;
    for (const k of ['schoolId', 'localEducationAgencyId', 'stateEducationAgencyId']) if (Number.isInteger(body?.[k])) known.add(String(body![k]));
  }
  return known;
}

/** The RSA algorithms other than RS256: the issuer's key signs with them too. */
export const OTHER_RSA_ALGORITHMS = ['RS384', 'RS512', 'PS256', 'PS384', 'PS512'];

/**
 * Lets a token signed with the issuer's key under another RSA algorithm through, re-signed RS256:
 * a deployment that checks the signature with the key but not the algorithm.
 */
export async function acceptOtherRsaAlgorithms(req: ProxiedRequest, tools: Tools): Promise<void> {
  const m = /^Bearer +(\S+) *$/i.exec(header(req, 'authorization') ?? '');
  const resigned = m ? await tools.tokens.resignedFrom(m[1], OTHER_RSA_ALGORITHMS) : undefined;
  if (resigned) req.headers.authorization = `Bearer ${resigned}`;
}

/**
 * Rewrites the query parameter named `name` in any letter case, as the suites may send it:
 * `edit` returns its new value, null to drop it, or undefined to leave the request alone.
 */
export function rewriteParameter(req: ProxiedRequest, name: string, edit: (value: string) => string | null | undefined): void {
  const q = queryOf(req);
  const sent = [...q.keys()].find((k) => k.toLowerCase() === name);
  const value = sent === undefined ? undefined : edit(q.get(sent)!);
  if (sent === undefined || value === undefined) return;
  if (value === null) q.delete(sent);
  else q.set(sent, value);
  setQuery(req, q);
}

/**
 * Every string of a JSON value rewritten by `edit`, which learns how deep the string sits: 1 for
 * a top-level member, more inside objects and collection items. Returns the new value.
 */
export function mapStrings(value: unknown, edit: (s: string, depth: number) => string, depth = 0): unknown {
  if (typeof value === 'string') return edit(value, depth);
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, edit, depth + 1));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapStrings(v, edit, depth + 1)]));
  return value;
}

/** A write whose body is text in UTF-8 that is not JSON (neither empty nor in another charset). */
export function notJsonBody(req: ProxiedRequest): boolean {
  const type = header(req, 'content-type') ?? '';
  if (!isWrite(req) || !dataPath(req) || /charset=(?!"?utf-?8)/i.test(type)) return false;
  const text = req.body.toString('utf8');
  if (!text.trim()) return false;
  try {
    JSON.parse(text);
    return false;
  } catch {
    return true;
  }
}

/**
 * The interface description's identity flag is `x-<Vendor>-isIdentity` after the target's media
 * type vendor (`x-Core-isIdentity` on the seed's names, `x-Ed-Fi-isIdentity` on upstream's):
 * faults find it by its suffix, so they bite on every configuration.
 */
export const isIdentityFlag = (key: string): boolean => key.startsWith('x-') && key.endsWith('-isIdentity');

/** The identity flag as the document names it (the first one it holds), else the seed's. */
export function identityFlagOf(doc: unknown): string {
  let found: string | undefined;
  eachObject(doc, (o) => { found ??= Object.keys(o).find(isIdentityFlag); });
  return found ?? 'x-Core-isIdentity';
}

/** The objects at a model path (`$.a[*].b`) of a document. */
export function objectsAt(doc: unknown, path: string): Record<string, unknown>[] {
  let here: unknown[] = [doc];
  for (const step of path.slice(2).split('.')) {
    const [name, each] = step.endsWith('[*]') ? [step.slice(0, -3), true] : [step, false];
    here = here.flatMap((v) => {
      const next = v && typeof v === 'object' ? (v as Record<string, unknown>)[name] : undefined;
      return next === undefined ? [] : each ? (Array.isArray(next) ? next : []) : [next];
    });
  }
  return here.filter((v): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v));
}
