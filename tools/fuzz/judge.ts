/** Judging: what is wrong with an answer (5xx, malformed 4xx body, leaks). */
import registry from '../../spec/errors/problem-types.json' with { type: 'json' };
import { TOKEN_MAX_BODY_BYTES } from '../../reference/security/token-endpoint.js';
import type { HttpRequest } from './materialize.js';
import type { Exchange } from './send.js';
import type { FuzzTarget } from './target.js';

type Registry = { prefix: string; problemTypes: { suffix: string; title: string; status: number }[] };
const REG = registry as Registry;
const PROBLEMS = new Map(REG.problemTypes.map((p) => [`${REG.prefix}${p.suffix}`, p]));
const PROBLEM_MEMBERS = new Set(['detail', 'type', 'title', 'status', 'correlationId', 'validationErrors', 'errors']);
/** The most failing paths a refusal lists (reference/data-api/validation-errors.ts, README). */
export const MAX_LISTED_PATHS = 100;
const OAUTH_ERRORS = new Set(['invalid_client', 'invalid_request', 'unsupported_grant_type', 'invalid_scope', 'temporarily_unavailable']);

/** Internal detail an answer must never carry, found anywhere in its text. */
export function leaks(text: string, forbidden: { label: string; value: string }[] = [], roots: string[] = []): string[] {
  const found: string[] = [];
  if (/\n\s*at [^\n]*:\d+:\d+/.test(text) || /\((?:file:\/\/)?\/[^()\s]+:\d+:\d+\)/.test(text)) found.push('stack trace');
  if (/node_modules|\/reference\/[\w/-]+\.[tj]s\b|\.ts:\d+/.test(text)) found.push('source file path');
  for (const root of roots) if (root && text.includes(root)) found.push(`path ${root}`);
  if (/\b(?:Range|Type|Reference|Syntax|URI|Eval)Error\b|Maximum call stack|ERR_[A-Z_]{4,}/.test(text)) found.push('internal error name');
  if (/-----BEGIN [A-Z ]*KEY-----/.test(text)) found.push('key material');
  for (const f of forbidden) if (f.value && text.includes(f.value)) found.push(f.label);
  return found;
}

/** What is wrong with the answer to a request (an empty list when nothing is). */
export function judge(req: HttpRequest, ex: Exchange, target: Pick<FuzzTarget, 'maxBodyBytes' | 'forbidden'> & { token?: string }, roots: string[] = []): string[] {
  if (ex.timedOut) return ['no answer within the timeout (hang)'];
  // The token endpoint reads at most 64 KiB (issue 23 point 7), other bodies the configured limit.
  const limit = isTokenRequest(req) ? Math.min(target.maxBodyBytes, TOKEN_MAX_BODY_BYTES) : target.maxBodyBytes;
  const oversize = (req.body?.length ?? 0) > limit;
  if (ex.status === undefined) {
    // A body over the limit may be cut off by the server closing the connection after its 413.
    if (oversize && /^(ECONNRESET|EPIPE)$/.test(ex.error ?? '')) return [];
    return [`transport error ${ex.error}`];
  }
  const problems: string[] = [];
  const status = ex.status;
  const text = ex.body.toString('utf8');
  if (status >= 500) problems.push(`status ${status}`);
  else if (status < 200 || (status >= 300 && status < 400 && status !== 304)) problems.push(`unexpected status ${status}`);
  // What the recipe knows of the answer (issue 23): a body no deployment may store is refused,
  // and a number its member's type holds is not refused at that member (finding 8).
  if (req.mustRefuse && status >= 200 && status < 300) problems.push(`accepted ${req.mustRefuse} (${status})`);
  if (req.mustRead && status === 400 && refusedAt(text).includes(req.mustRead.path)) problems.push(`refused ${req.mustRead.what} at ${req.mustRead.path}`);
  // A body over the limit must never be accepted or parsed (answers decided before reading it,
  // such as 401, 404, 415 or a refused charset, are fine).
  if (oversize && readsBody(req) && (status < 300 || judgedBody(text))) problems.push(`a ${req.body!.length}-byte body (limit ${limit}) answered ${status}, not 413`);
  if (oversize && isTokenRequest(req) && (status < 300 || oauthAnswer(text))) problems.push(`a ${req.body!.length}-byte token request (limit ${limit}) was parsed (answered ${status}), not refused with 413`);
  problems.push(...hostReflected(req, ex, text), ...issue23Checks(req, ex, target.token));
  const found = leaks(text, target.forbidden, roots);
  if (found.length && (status >= 400 || found.some((f) => target.forbidden.some((x) => x.label === f)))) problems.push(`leaks ${found.join(', ')}`);
  if (status >= 400 && req.method !== 'HEAD') problems.push(...(req.service === 'data' ? problemBodyErrors(req, ex, text) : statusBodyErrors(ex, text)));
  return problems;
}

/** The paths a validation answer names (none when it is no such answer). */
function refusedAt(text: string): string[] {
  try {
    const v = (JSON.parse(text) as { validationErrors?: Record<string, unknown> }).validationErrors;
    return v && typeof v === 'object' ? Object.keys(v) : [];
  } catch {
    return [];
  }
}

/** An OAuth error other than the throttle's: the token endpoint read the body to give it. */
function oauthAnswer(text: string): boolean {
  try {
    const error = (JSON.parse(text) as { error?: unknown }).error;
    return typeof error === 'string' && error !== 'temporarily_unavailable';
  } catch {
    return false;
  }
}

const isTokenRequest = (req: HttpRequest) => req.service === 'data' && req.method === 'POST' && /\/oauth\/token$/i.test(new URL(req.url).pathname);

/**
 * Issue 23 point 9: an answer names no origin the client made up. A Host that names neither the
 * service's address nor localhost must not come back in Location or the body (an empty Host
 * must not give `http:///`).
 */
function hostReflected(req: HttpRequest, ex: Exchange, text: string): string[] {
  const host = req.headers.host;
  if (host === undefined) return [];
  const colon = host.lastIndexOf(':');
  const name = (colon > host.lastIndexOf(']') ? host.slice(0, colon) : host).toLowerCase();
  if (name === new URL(req.url).hostname || name === 'localhost') return [];
  const answer = `${String(ex.headers.location ?? '')} ${text}`.toLowerCase();
  const reflected = host === '' ? answer.includes(':///') : answer.includes(`//${host.toLowerCase()}`);
  return reflected ? [`the answer reflects the Host header ${JSON.stringify(host.slice(0, 80))}`] : [];
}

/**
 * Issue 23 points 3, 6 and 7: an interface description answers `If-None-Match: *` with 304
 * whatever Cache-Control says; an admin endpoint never answers a request that came through a
 * proxy (the fuzz target keeps loopbackOnly); the rostering service never throttles a valid token
 * for others' failures (the fuzz target configures no per-caller rate).
 */
function issue23Checks(req: HttpRequest, ex: Exchange, token: string | undefined): string[] {
  const status = ex.status ?? 0;
  const path = new URL(req.url).pathname;
  const problems: string[] = [];
  if (req.method === 'GET' && path.endsWith('/swagger.json') && req.headers['if-none-match']?.trim() === '*' && status === 200) problems.push('If-None-Match: * answered 200, not 304');
  const forwarded = Object.keys(req.headers).some((h) => /^(forwarded|via|x-real-ip|x-forwarded-.*)$/i.test(h));
  if (/\/admin\//.test(path) && forwarded && status >= 200 && status < 300) problems.push(`an admin endpoint answered ${status} to a request through a proxy`);
  if (req.service === 'rostering' && token && req.headers.authorization === `Bearer ${token}` && status === 429) problems.push('a valid token was throttled (429) at the rostering service');
  return problems;
}

/** A validation answer about the body's content (not only the route's id): the body was parsed. */
function judgedBody(text: string): boolean {
  try {
    const v = (JSON.parse(text) as { validationErrors?: Record<string, unknown> }).validationErrors;
    return !!v && Object.keys(v).some((k) => k !== '$.id');
  } catch {
    return false;
  }
}

/** Requests whose body the server reads: writes to the data API and the token endpoints. */
function readsBody(req: HttpRequest): boolean {
  return req.service === 'data' && (req.method === 'POST' || req.method === 'PUT');
}

function problemBodyErrors(req: HttpRequest, ex: Exchange, text: string): string[] {
  const url = new URL(req.url);
  const status = ex.status!;
  const isToken = /\/oauth\/token$/i.test(url.pathname);
  const isTokenInfo = /\/oauth\/token_info$/i.test(url.pathname);
  if (isTokenInfo && status === 401 && text === '') return [];
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return [`4xx body is not JSON: ${JSON.stringify(text.slice(0, 120))}`];
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) return ['4xx body is not a JSON object'];
  const errors: string[] = [];
  if (!/^application\/(problem\+)?json\b/i.test(String(ex.headers['content-type'] ?? ''))) errors.push(`4xx content type ${String(ex.headers['content-type'])}`);
  if (isToken && (status === 400 || status === 401 || status === 429) && 'error' in body) {
    if (status === 429 && !ex.headers['retry-after']) errors.push('429 without Retry-After');
    if (!OAUTH_ERRORS.has(String(body.error))) errors.push(`unknown OAuth error ${String(body.error)}`);
    if (Object.keys(body).some((k) => k !== 'error' && k !== 'error_description')) errors.push('OAuth error with other members');
    return errors;
  }
  const registered = PROBLEMS.get(String(body.type));
  if (!registered) errors.push(`problem type ${String(body.type)} is not registered`);
  else {
    if (registered.status !== status) errors.push(`problem ${registered.suffix} (registered ${registered.status}) sent with status ${status}`);
    if (body.title !== registered.title) errors.push(`problem title ${String(body.title)}`);
  }
  if (body.status !== status) errors.push(`problem status member ${String(body.status)} differs from ${status}`);
  if (typeof body.detail !== 'string' || !body.detail) errors.push('problem without detail');
  if (typeof body.correlationId !== 'string' || !body.correlationId) errors.push('problem without correlationId');
  const sent = req.headers['correlation-id']?.replace(/^[ \t]+|[ \t]+$/g, '');
  if (sent && body.correlationId !== sent) errors.push('correlationId differs from the correlation-id header');
  for (const k of Object.keys(body)) if (!PROBLEM_MEMBERS.has(k)) errors.push(`problem member ${k}`);
  if ('errors' in body && !(Array.isArray(body.errors) && body.errors.every((e) => typeof e === 'string'))) errors.push('errors is not a list of strings');
  if ('validationErrors' in body) {
    const v = body.validationErrors as Record<string, unknown>;
    if (!v || typeof v !== 'object' || Array.isArray(v) || !Object.values(v).every((m) => Array.isArray(m) && m.every((x) => typeof x === 'string'))) errors.push('validationErrors is not a map of string lists');
    // Issue 23 finding 2: a refusal lists at most the first 100 failing paths and says how many there were.
    else if (Object.keys(v).length > MAX_LISTED_PATHS) errors.push(`validationErrors lists ${Object.keys(v).length} paths (at most ${MAX_LISTED_PATHS})`);
  }
  if (status === 405 && !ex.headers.allow) errors.push('405 without Allow');
  if (status === 429 && !ex.headers['retry-after']) errors.push('429 without Retry-After');
  return errors;
}

function statusBodyErrors(ex: Exchange, text: string): string[] {
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return [`rostering 4xx body is not JSON: ${JSON.stringify(text.slice(0, 120))}`];
  }
  const errors: string[] = [];
  if (body?.stdx_codeMajor !== 'failure' || body.stdx_severity !== 'error' || typeof body.stdx_description !== 'string') errors.push('rostering 4xx is not a status body');
  for (const k of Object.keys(body ?? {})) if (!['stdx_codeMajor', 'stdx_severity', 'stdx_description', 'stdx_codeMinor'].includes(k)) errors.push(`status member ${k}`);
  if (ex.status === 401 && !/^Bearer/i.test(String(ex.headers['www-authenticate'] ?? ''))) errors.push('401 without WWW-Authenticate: Bearer');
  if (ex.status === 405 && !ex.headers.allow) errors.push('405 without Allow');
  return errors;
}
