import type { APIRequestContext } from '@playwright/test';
import type { ResolvedTarget } from './target.js';

/**
 * Before anything runs, what would make every test fail for a reason that is the target file's,
 * not the deployment's: the data root under the configured namespace segment answers the
 * primary client, and (where the deployment reports it through token_info) the client owns the
 * namespace prefix the suites write under. Returns one line per problem.
 */
export async function preflight(request: APIRequestContext, target: ResolvedTarget, primaryToken: string): Promise<string[]> {
  const problems: string[] = [];
  const auth = { Authorization: `Bearer ${primaryToken}` };
  const probe = `${target.dataRoot}/academicSubjectDescriptors?limit=1`;
  const res = await request.get(probe, { headers: auth }).catch((err: unknown) => err as Error);
  if (res instanceof Error) problems.push(`GET ${probe} failed: ${res.message.split('\n')[0]} (is dataApi.baseUrl right and the deployment up?)`);
  else if (res.status() === 404) problems.push(`GET ${probe} answered 404: is dataApi.namespaceSegment '${target.dataApi.namespaceSegment}' the segment the deployment serves its core model under (the specification's is 'core', upstream's 'ed-fi')?`);
  else if (res.status() === 401) problems.push(`GET ${probe} answered 401 to the primary client's token: does the token endpoint belong to this data API?`);
  else if (res.status() !== 200) problems.push(`GET ${probe} answered ${res.status()}; the suites need 200 here`);

  // token_info is optional upstream: only what it says is checked.
  const info = await request.post(`${target.dataApi.baseUrl}/oauth/token_info`, { headers: auth, form: { token: primaryToken } }).catch(() => undefined);
  if (info?.status() === 200) {
    const prefixes = ((await info.json().catch(() => ({}))) as { namespace_prefixes?: unknown }).namespace_prefixes;
    const prefix = target.testData.namespacePrefix;
    if (Array.isArray(prefixes) && prefixes.length && !prefixes.some((p) => typeof p === 'string' && prefix.startsWith(p))) {
      problems.push(`testData.namespacePrefix '${prefix}' starts with none of the primary client's namespace prefixes (${prefixes.join(', ')}): its writes would be refused with 403`);
    }
  }
  return problems;
}
