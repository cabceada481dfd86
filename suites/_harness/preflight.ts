import type { HttpClient, HttpResponse } from './http.js';
import { concurrentShards } from './run-id.js';
import { existsSync, readFileSync } from 'node:fs';
import { SignJWT, decodeJwt, decodeProtectedHeader, importPKCS8 } from 'jose';
import { declaredStandard, inheritedDecision, judgedFor, judgedLine, standardFromDiscovery, standardProblem, type FoundStandard } from './data-standard.js';
import { model } from './judged-model.js';
import { ROSTER_PREFIX } from '../../spec/generate/openapi-rostering.js';
import { storeDigest } from './store-digest.js';
import type { ShortLivedClient } from '../targets/types.js';
import { credentials, unsetCredentialVariables, type ResolvedTarget } from './target.js';
import { TokenRefused, fetchToken } from './tokens.js';

/**
 * Before anything runs, what would make many tests fail for a reason that is the target file's,
 * not the deployment's. In stages, each needing the one before: the declared services answer;
 * every declared client gets a token; the data root under the namespace segment answers; then
 * the problem-type prefix, the namespace prefix each client owns, and one call per declared
 * capability. Each problem names the target field to fix. No probe writes anything but the
 * snapshot hook's take-and-drop, which the suites do anyway; the fault trigger is not called
 * (it provokes a server error on purpose, a side effect a dry run should not have).
 */
export interface PreflightProblem {
  /** The target-file field to fix, e.g. `dataApi.namespaceSegment`. */
  field: string;
  message: string;
}

export interface PreflightOutcome {
  problems: PreflightProblem[];
  /** One token per client role whose credentials are available (but the short-lived client's). */
  tokens: Record<string, string>;
  /** The store digest before the run, when the target offers one. */
  digest?: string;
  /** Which data standard was found, where, and what the suites judge (for the console). */
  standard?: string;
}

/** The client role whose tokens live only seconds (target clients.shortLived). */
const SHORT_LIVED_ROLE = 'shortLived';
/**
 * Per probe: a deployment that does not answer within this stops the run, not a test timeout.
 * A test's own timeout (30 s), not less: a slow answer is not a declaration mistake, and a
 * deployment's first requests after a start can take seconds (the 6.1 reference, started beside
 * another run on two cores, took over 5 s to answer the snapshot probe: the run stopped before
 * any test, three conforming deviations REFUSED for it).
 */
const PROBE_TIMEOUT_MS = 30_000;
/** A collection every deployment of the data standard serves (descriptors need no relationships). */
const PROBE_COLLECTION = 'academicSubjectDescriptors';

export async function preflight(request: HttpClient, target: ResolvedTarget): Promise<PreflightOutcome> {
  const tokens: Record<string, string> = {};
  const stop = (problems: PreflightProblem[]): PreflightOutcome => ({ problems, tokens });

  // 1. The declared services answer at all.
  const reach = await Promise.all([
    unreachable(request, `${target.dataApi.baseUrl}/`, 'dataApi.baseUrl'),
    target.rostering ? unreachable(request, `${target.rostering.baseUrl.replace(/\/$/, '')}/`, 'rostering.baseUrl') : undefined,
    target.capabilities?.loweredPageSize ? unreachable(request, `${target.capabilities.loweredPageSize.baseUrl.replace(/\/$/, '')}/`, 'capabilities.loweredPageSize.baseUrl') : undefined,
  ]);
  if (reach.some(Boolean)) return stop(reach.filter((p): p is PreflightProblem => !!p));

  // 1b. The data standard it serves is one the suites can judge (data-standard.ts), and the one
  // the run's tests were listed for (decided in playwright.config.ts, before the deployment of an
  // embedded reference was up).
  const standard = await servedStandard(request, target);
  const wrongStandard = standardProblem(standard);
  if (wrongStandard) return stop([{ field: 'dataApi.dataStandard', message: wrongStandard }]);
  const decided = inheritedDecision();
  if (decided && judgedFor(decided) !== judgedFor(standard)) {
    return stop([{ field: 'dataApi.dataStandard', message: `the run's tests were listed for ${judgedLine(decided).replace(/^data standard: /, '')}, but the deployment now says ${judgedLine(standard).replace(/^data standard: /, '')}` }]);
  }
  const standardLine = judgedLine(decided ?? standard);

  // 2. A token per declared client. A role other than primary whose variables are unset is
  // not applicable (its tests say so); the primary client is needed by everything.
  const problems: PreflightProblem[] = [];
  await Promise.all(Object.entries(target.clients).map(async ([role, c]) => {
    const unset = unsetCredentialVariables(c);
    if (unset.length && role === 'primary') return void problems.push({ field: `clients.primary.${c?.key === undefined && unset.includes(c?.keyEnv ?? '') ? 'keyEnv' : 'secretEnv'}`, message: `environment variable${unset.length > 1 ? 's' : ''} ${unset.join(', ')} not set` });
    if (unset.length) return void console.log(`client '${role}': ${unset.join(', ')} not set; its tests are not applicable`);
    const creds = credentials(c);
    if (!creds) return void problems.push({ field: `clients.${role}`, message: 'names no key and secret (key/secret or keyEnv/secretEnv)' });
    // The short-lived client may belong to a second deployment (its baseUrl).
    const at = role === SHORT_LIVED_ROLE ? (c as ShortLivedClient).baseUrl?.replace(/\/$/, '') : undefined;
    try {
      const token = await fetchToken(request, at ? { ...target, dataApi: { ...target.dataApi, baseUrl: at } } : target, creds, PROBE_TIMEOUT_MS);
      // The short-lived client's token expires within seconds, long before most tests run: it
      // is fetched here only to prove the credentials, and its tests obtain their own.
      if (role !== SHORT_LIVED_ROLE) tokens[role] = token;
    } catch (err) {
      const status = err instanceof TokenRefused ? err.status : undefined;
      problems.push(status === 404
        ? { field: at ? `clients.${role}.baseUrl` : 'dataApi.baseUrl', message: `POST ${at ?? target.dataApi.baseUrl}/oauth/token answered 404: no token endpoint under this base URL` }
        : { field: `clients.${role}`, message: `${(err as Error).message.split('\n')[0]} (are the key and secret right?)` });
    }
  }));
  if (problems.length) return stop(dedupe(problems));

  // 3. The data root under the namespace segment answers the primary client.
  const auth = { Authorization: `Bearer ${tokens.primary}` };
  const probe = `${target.dataRoot}/${PROBE_COLLECTION}?limit=1`;
  const root = await request.get(probe, { headers: auth, timeout: PROBE_TIMEOUT_MS }).catch((err: Error) => err);
  if (root instanceof Error) return stop([{ field: 'dataApi.baseUrl', message: `GET ${probe} failed: ${root.message.split('\n')[0]}` }]);
  if (root.status() === 404) return stop([{ field: 'dataApi.namespaceSegment', message: `GET ${probe} answered 404: is '${target.dataApi.namespaceSegment}' the segment the deployment serves its core model under (the specification's is 'core', upstream's 'ed-fi')?` }]);
  if (root.status() === 401) return stop([{ field: 'dataApi.baseUrl', message: `GET ${probe} answered 401 to the primary client's token: does the token endpoint under this base URL belong to this data API?` }]);
  if (root.status() !== 200) return stop([{ field: 'dataApi.baseUrl', message: `GET ${probe} answered ${root.status()}; the suites need 200 here` }]);

  // 4. Everything else, side by side.
  const ctx: Probe = { request, target, tokens, auth };
  const found = await Promise.all([problemTypePrefix(ctx), namespacePrefixes(ctx), pageSizeMaximum(ctx), rosteringBase(ctx), ...capabilityProbes(ctx)]);
  const digest = await digestOf(ctx);
  return { problems: dedupe([...found.flat(), ...digest.problems]), tokens, standard: standardLine, ...(digest.value ? { digest: digest.value } : {}) };
}

/** One message for the whole preflight: the first line names the field to fix. */
export function preflightMessage(problems: PreflightProblem[]): string {
  return `preflight failed: ${problems.map((p) => `${p.field}: ${p.message}`).join('\n  and ')}`;
}

interface Probe {
  request: HttpClient;
  target: ResolvedTarget;
  tokens: Record<string, string>;
  auth: Record<string, string>;
}

/** The standard the target file declares, else the one discovery names (data-standard.ts). */
async function servedStandard(request: HttpClient, target: ResolvedTarget): Promise<FoundStandard> {
  if (target.dataApi.dataStandard) return declaredStandard(target.dataApi.dataStandard);
  const res = await request.get(`${target.dataApi.baseUrl}/`, { timeout: PROBE_TIMEOUT_MS }).catch((err: Error) => err);
  if (res instanceof Error || res.status() !== 200) return { from: `GET ${target.dataApi.baseUrl}/ answered ${statusOf(res)}` };
  return standardFromDiscovery(await res.json().catch(() => undefined));
}

async function unreachable(request: HttpClient, url: string, field: string): Promise<PreflightProblem | undefined> {
  const res = await request.get(url, { timeout: PROBE_TIMEOUT_MS, maxRedirects: 0 }).catch((err: Error) => err);
  if (res instanceof Error) return { field, message: `GET ${url} got no answer: ${res.message.split('\n')[0]} (is the URL right and the deployment up?)` };
  return undefined;
}

const get = (p: Probe, url: string, headers: Record<string, string> = p.auth) =>
  p.request.get(url, { headers, timeout: PROBE_TIMEOUT_MS }).catch((err: Error) => err);

const statusOf = (res: HttpResponse | Error) => (res instanceof Error ? res.message.split('\n')[0] : res.status());

/**
 * A deliberately bad request (limit -1, refused by every deployment with a problem): its
 * problem `type` must start with the declared prefix. A response that is no problem at all is
 * the errors suite's to judge, not a declaration to fix.
 */
async function problemTypePrefix(p: Probe): Promise<PreflightProblem[]> {
  const url = `${p.target.dataRoot}/${PROBE_COLLECTION}?limit=-1`;
  const res = await get(p, url);
  if (res instanceof Error) return [];
  const type = ((await res.json().catch(() => ({}))) as { type?: unknown }).type;
  const prefix = p.target.dataApi.errorTypePrefix;
  if (typeof type !== 'string' || type.startsWith(prefix)) return [];
  const at = type.indexOf('bad-request');
  const theirs = at > 0 ? ` (the deployment's appears to be '${type.slice(0, at)}')` : '';
  return [{ field: 'dataApi.errorTypePrefix', message: `GET ${url} answered a problem of type '${type}', which does not start with '${prefix}'${theirs}` }];
}

/**
 * The declared maximum page size: `limit=<max>` must be taken. Above it, only a mistake the
 * probes can prove is named: `limit=<max+1>` taken while a far larger limit is refused means
 * the deployment's maximum is higher than declared. A deployment that refuses nothing is the
 * limits suite's to judge, not a declaration to fix.
 */
async function pageSizeMaximum(p: Probe): Promise<PreflightProblem[]> {
  const max = p.target.dataApi.pageSizeMaximum;
  const at = (limit: number) => get(p, `${p.target.dataRoot}/${PROBE_COLLECTION}?limit=${limit}`);
  const [atMax, over, farOver] = await Promise.all([at(max), at(max + 1), at(max * 1000)]);
  const status = (r: HttpResponse | Error) => (r instanceof Error ? undefined : r.status());
  if (status(atMax) === 400) return [{ field: 'dataApi.pageSizeMaximum', message: `GET …/${PROBE_COLLECTION}?limit=${max} answered 400: the deployment's maximum page size is lower than the declared ${max}` }];
  if (status(over) === 200 && status(farOver) === 400) return [{ field: 'dataApi.pageSizeMaximum', message: `GET …/${PROBE_COLLECTION}?limit=${max + 1} answered 200 and limit=${max * 1000} 400: the deployment's maximum page size is higher than the declared ${max}` }];
  return [];
}

/**
 * The rostering service's base URL is where its paths start (`{baseUrl}/std/roster/rostering/v1p2/…`):
 * a base that already ends in that prefix, or in one of its collections, doubles it.
 */
async function rosteringBase(p: Probe): Promise<PreflightProblem[]> {
  const base = p.target.rostering?.baseUrl.replace(/\/$/, '');
  if (!base) return [];
  const path = new URL(base).pathname;
  const at = path.indexOf(ROSTER_PREFIX);
  if (at < 0) return [];
  return [{ field: 'rostering.baseUrl', message: `'${base}' already holds the service's path ${ROSTER_PREFIX}: give only what comes before it ('${base.slice(0, base.length - path.length + at) || base}')` }];
}

/**
 * The vendor word of profile media types (`application/vnd.<vendor>.<resource>.<profile>.readable+json`):
 * a profiled read refused under the declared word and answered under another known one (the
 * specification's `core`, upstream's `ed-fi`, the namespace segment) is a declaration to fix.
 * Refused under every one, it is the profiles suite's to judge.
 */
async function mediaTypeVendor(p: Probe, cap: { resource: string; name: string }): Promise<PreflightProblem[]> {
  const resource = model.byName.get(cap.resource);
  const token = p.tokens.profiled;
  if (!resource || !token) return [];
  const url = `${p.target.dataRoot}/${resource.endpoint}?limit=1`;
  const type = (vendor: string) => `application/vnd.${vendor}.${cap.resource.toLowerCase()}.${cap.name.toLowerCase()}.readable+json`;
  const read = (vendor: string) => get(p, url, { Authorization: `Bearer ${token}`, Accept: type(vendor) });
  const declared = p.target.dataApi.mediaTypeVendor;
  const refused = await read(declared);
  if (refused instanceof Error || refused.status() === 200) return [];
  for (const other of [...new Set(['core', 'ed-fi', p.target.dataApi.namespaceSegment])].filter((v) => v !== declared)) {
    const res = await read(other);
    if (!(res instanceof Error) && res.status() === 200) {
      return [{ field: 'dataApi.mediaTypeVendor', message: `GET ${url} with Accept ${type(declared)} answered ${refused.status()}, with ${type(other)} 200: the deployment's vendor word is '${other}'` }];
    }
  }
  return [];
}

/** What token_info says about a client's token, where the deployment offers it (optional upstream). */
async function tokenInfo(p: Probe, role: string): Promise<{ namespace_prefixes?: unknown; education_organizations?: unknown; assigned_profiles?: unknown } | undefined> {
  const token = p.tokens[role];
  if (!token) return undefined;
  const res = await p.request.post(`${p.target.dataApi.baseUrl}/oauth/token_info`, { headers: { Authorization: `Bearer ${token}` }, form: { token }, timeout: PROBE_TIMEOUT_MS }).catch(() => undefined);
  return res?.status() === 200 ? ((await res.json().catch(() => undefined)) as never) : undefined;
}

const strings = (v: unknown): string[] | undefined => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : undefined);

/** The namespace prefix each client writes under is one it owns. */
async function namespacePrefixes(p: Probe): Promise<PreflightProblem[]> {
  const problems: PreflightProblem[] = [];
  const owns = (prefixes: string[] | undefined, prefix: string) => !prefixes?.length || prefixes.some((x) => prefix.startsWith(x));
  const prefix = p.target.testData.namespacePrefix;
  const primary = strings((await tokenInfo(p, 'primary'))?.namespace_prefixes);
  if (!owns(primary, prefix)) problems.push({ field: 'testData.namespacePrefix', message: `'${prefix}' starts with none of the primary client's namespace prefixes (${primary!.join(', ')}): its writes would be refused with 403` });
  const limited = p.target.capabilities?.namespaceLimited;
  if (limited) {
    if (prefix.startsWith(limited.namespacePrefix)) problems.push({ field: 'capabilities.namespaceLimited.namespacePrefix', message: `'${limited.namespacePrefix}' must not be a prefix of testData.namespacePrefix '${prefix}': the suites write under the latter as the other vendor` });
    const theirs = strings((await tokenInfo(p, 'namespaceLimited'))?.namespace_prefixes);
    if (!owns(theirs, limited.namespacePrefix)) problems.push({ field: 'capabilities.namespaceLimited.namespacePrefix', message: `'${limited.namespacePrefix}' starts with none of client namespaceLimited's namespace prefixes (${theirs!.join(', ')})` });
  }
  return problems;
}

/** One probe per declared capability (and each client role a capability names is declared). */
function capabilityProbes(p: Probe): Promise<PreflightProblem[]>[] {
  const caps = p.target.capabilities ?? {};
  const clients = p.target.clients as Record<string, unknown>;
  const probes: Promise<PreflightProblem[]>[] = [];
  const probe = (fn: () => Promise<PreflightProblem[]> | PreflightProblem[]) => probes.push(Promise.resolve().then(fn));
  const needsClient = (capability: string, role: string, field = `clients.${role}`) =>
    clients[role] ? [] : [{ field, message: `capabilities.${capability} is declared but the target has no client '${role}'` }];
  const endpointAnswers = async (field: string, endpoint: string, token = p.auth): Promise<PreflightProblem[]> => {
    const url = `${p.target.dataRoot}/${endpoint}?limit=1`;
    const res = await get(p, url, token);
    return !(res instanceof Error) && res.status() === 404 ? [{ field, message: `GET ${url} answered 404: no such endpoint ('${endpoint}')` }] : [];
  };
  const credentialVariables = (field: string, c: Parameters<typeof unsetCredentialVariables>[0]) =>
    unsetCredentialVariables(c).map((v) => ({ field, message: `environment variable ${v} not set` }));

  if (caps.namespaceLimited) probe(() => needsClient('namespaceLimited', 'namespaceLimited'));
  if (caps.schoolLimited) probe(async () => {
    const missing = needsClient('schoolLimited', 'schoolLimited');
    if (missing.length) return missing;
    const edOrgs = (await tokenInfo(p, 'schoolLimited'))?.education_organizations;
    if (!Array.isArray(edOrgs)) return [];
    const ids = new Set(edOrgs.map((e) => Number((e as { education_organization_id?: unknown }).education_organization_id)));
    const absent = caps.schoolLimited!.schoolIds.filter((id) => !ids.has(id));
    return absent.length ? [{ field: 'capabilities.schoolLimited.schoolIds', message: `client schoolLimited's token claims no education organization ${absent.join(', ')} (it claims ${[...ids].join(', ') || 'none'})` }] : [];
  });
  if (caps.profile) probe(async () => {
    const cap = caps.profile!;
    const problems = [...needsClient('profile', 'profiled'),
      ...[['resource', cap.resource], ['readOnlyResource', cap.readOnlyResource]].filter(([, r]) => !model.byName.has(r)).map(([k, r]) => ({ field: `capabilities.profile.${k}`, message: `'${r}' is not a resource of the data standard (singular names, e.g. 'academicWeek')` }))];
    const assigned = strings((await tokenInfo(p, 'profiled'))?.assigned_profiles);
    if (assigned && !assigned.some((a) => a.toLowerCase() === cap.name.toLowerCase())) problems.push({ field: 'capabilities.profile.name', message: `client profiled is assigned ${assigned.length ? assigned.map((a) => `'${a}'`).join(', ') : 'no profile'}, not '${cap.name}'` });
    return [...problems, ...(await mediaTypeVendor(p, cap))];
  });
  if (caps.permissionLimits) probe(async () => {
    const cap = caps.permissionLimits!;
    const missing = needsClient('permissionLimits', cap.client, 'capabilities.permissionLimits.client');
    return [...missing,
      ...(await endpointAnswers('capabilities.permissionLimits.deniedResource', cap.deniedResource)),
      ...(await endpointAnswers('capabilities.permissionLimits.readOnlyResource', cap.readOnlyResource))];
  });
  if (caps.unrestrictedClient) probe(() => needsClient('unrestrictedClient', caps.unrestrictedClient!, 'capabilities.unrestrictedClient'));
  if (caps.extension) probe(async () => {
    const r = model.byName.get(caps.extension!.resource);
    return r ? endpointAnswers('capabilities.extension.resource', r.endpoint)
      : [{ field: 'capabilities.extension.resource', message: `'${caps.extension!.resource}' is not a resource of the data standard (singular names, e.g. 'credential')` }];
  });
  if (caps.cursorPaging?.partitions) probe(async () => {
    const url = `${p.target.dataRoot}/${PROBE_COLLECTION}/partitions?number=1`;
    const res = await get(p, url);
    return res instanceof Error || res.status() !== 200 ? [{ field: 'capabilities.cursorPaging.partitions', message: `GET ${url} answered ${statusOf(res)}, not 200 (declare partitions: false if the deployment has no partitions endpoint)` }] : [];
  });
  if (caps.interfaceDescription) probe(async () => {
    const url = absolute(p.target, caps.interfaceDescription!.url);
    const res = await get(p, url);
    return res instanceof Error || res.status() !== 200 ? [{ field: 'capabilities.interfaceDescription.url', message: `GET ${url} answered ${statusOf(res)}, not 200` }] : [];
  });
  if (caps.snapshotAdmin) probe(async () => {
    const cap = caps.snapshotAdmin!;
    const unset = credentialVariables('capabilities.snapshotAdmin', cap);
    if (unset.length) return unset;
    // Shard 1 of a shared run probes the hook: another shard's probe, coming late, would drop the
    // snapshot shard 1's snapshot tests just took (shards.ts).
    if ((concurrentShards()?.current ?? 1) > 1) return [];
    // Take and drop a snapshot: what the snapshot tests do, so nothing a run would not do.
    const url = absolute(p.target, cap.url);
    const headers = basic(cap);
    const taken = await p.request.post(url, { headers, timeout: PROBE_TIMEOUT_MS }).catch((err: Error) => err);
    if (taken instanceof Error || taken.status() < 200 || taken.status() >= 300) return [hookProblem('capabilities.snapshotAdmin', `POST ${url}`, taken)];
    const dropped = await p.request.delete(url, { headers, timeout: PROBE_TIMEOUT_MS }).catch((err: Error) => err);
    return dropped instanceof Error || dropped.status() < 200 || dropped.status() >= 300 ? [hookProblem('capabilities.snapshotAdmin', `DELETE ${url}`, dropped)] : [];
  });
  if (caps.systemErrorTrigger) probe(() => credentialVariables('capabilities.systemErrorTrigger', caps.systemErrorTrigger!));
  if (caps.issuerSigningKey) probe(() => issuerKey(p));
  if (caps.loweredPageSize) probe(async () => {
    const cap = caps.loweredPageSize!;
    try {
      const token = await fetchToken(p.request, { ...p.target, dataApi: { ...p.target.dataApi, baseUrl: cap.baseUrl.replace(/\/$/, '') } }, credentials(p.target.clients.primary)!, PROBE_TIMEOUT_MS);
      const url = `${cap.baseUrl.replace(/\/$/, '')}/data/v3/${p.target.dataApi.namespaceSegment}/${PROBE_COLLECTION}?limit=1`;
      const res = await get(p, url, { Authorization: `Bearer ${token}` });
      return res instanceof Error || res.status() !== 200 ? [{ field: 'capabilities.loweredPageSize.baseUrl', message: `GET ${url} answered ${statusOf(res)} to the primary client, not 200` }] : [];
    } catch (err) {
      return [{ field: 'capabilities.loweredPageSize.baseUrl', message: `the primary client gets no token there: ${(err as Error).message.split('\n')[0]}` }];
    }
  });
  return probes;
}

/** The issuer key is readable and signs tokens the deployment accepts (the primary token's claims, re-signed). */
async function issuerKey(p: Probe): Promise<PreflightProblem[]> {
  const cap = p.target.capabilities!.issuerSigningKey!;
  if (cap.pemEnv && !process.env[cap.pemEnv]) return [{ field: 'capabilities.issuerSigningKey.pemEnv', message: `environment variable ${cap.pemEnv} not set` }];
  if (!cap.pemEnv && cap.pemFile && !existsSync(cap.pemFile)) return [{ field: 'capabilities.issuerSigningKey.pemFile', message: `no file ${cap.pemFile}` }];
  const pem = cap.pemEnv ? process.env[cap.pemEnv]! : cap.pemFile ? readFileSync(cap.pemFile, 'utf8') : undefined;
  const field = `capabilities.issuerSigningKey${cap.pemEnv ? '.pemEnv' : cap.pemFile ? '.pemFile' : ''}`;
  if (!pem) return [{ field, message: 'names neither pemFile nor pemEnv' }];
  let token: string;
  try {
    const { kid } = decodeProtectedHeader(p.tokens.primary);
    token = await new SignJWT(decodeJwt(p.tokens.primary)).setProtectedHeader({ alg: 'RS256', typ: 'JWT', ...(kid ? { kid } : {}) }).sign(await importPKCS8(pem, 'RS256'));
  } catch (err) {
    return [{ field, message: `not an RSA private key in PKCS#8 PEM: ${(err as Error).message}` }];
  }
  const url = `${p.target.dataRoot}/${PROBE_COLLECTION}?limit=1`;
  const res = await get(p, url, { Authorization: `Bearer ${token}` });
  return !(res instanceof Error) && res.status() === 401 ? [{ field, message: `the deployment refuses (401) the primary client's own token claims signed with this key: it is not the issuer's key` }] : [];
}

async function digestOf(p: Probe): Promise<{ problems: PreflightProblem[]; value?: string }> {
  const cap = p.target.capabilities?.storeDigest;
  if (!cap) return { problems: [] };
  const unset = unsetCredentialVariables(cap);
  if (unset.length) return { problems: unset.map((v) => ({ field: 'capabilities.storeDigest', message: `environment variable ${v} not set` })) };
  try {
    return { problems: [], value: await storeDigest(p.request, p.target) };
  } catch (err) {
    return { problems: [{ field: 'capabilities.storeDigest', message: (err as Error).message.split('\n')[0] }] };
  }
}

function hookProblem(field: string, what: string, res: HttpResponse | Error): PreflightProblem {
  if (res instanceof Error) return { field: `${field}.url`, message: `${what} failed: ${res.message.split('\n')[0]}` };
  if (res.status() === 401 || res.status() === 403) return { field, message: `${what} answered ${res.status()}: are its key and secret right?` };
  return { field: `${field}.url`, message: `${what} answered ${res.status()}, not 2xx` };
}

const absolute = (target: ResolvedTarget, url: string) => (/^https?:/i.test(url) ? url : `${target.dataApi.baseUrl}/${url.replace(/^\//, '')}`);

function basic(c: { key?: string; secret?: string; keyEnv?: string; secretEnv?: string }): Record<string, string> {
  const creds = credentials(c);
  return creds ? { Authorization: `Basic ${Buffer.from(`${creds.key}:${creds.secret}`).toString('base64')}` } : {};
}

function dedupe(problems: PreflightProblem[]): PreflightProblem[] {
  const seen = new Set<string>();
  return problems.filter((x) => !seen.has(`${x.field} ${x.message}`) && !!seen.add(`${x.field} ${x.message}`));
}
