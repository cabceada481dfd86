import { readFileSync } from 'node:fs';
import { defaultStandard, type DataStandard } from '../../spec/model/upstream.js';
import { JUDGED_STANDARD_ENV, declaredStandard, standardFromDiscovery, type FoundStandard } from './data-standard.js';
import type { ResolvedTarget } from './target.js';

/**
 * A deployment that does not answer discovery within this is judged as if nothing told (the
 * preflight then says why). As long as the preflight's probes (preflight.ts): a deployment just
 * started may take seconds to answer its first request.
 */
const DISCOVERY_TIMEOUT_MS = 30_000;

/**
 * The standard a target serves, found once in Playwright's main process before any test file is
 * listed: declared in the target file; for an embedded reference (not started yet when the
 * configuration is read), its configuration's `dataStandard` (none: the seed's, 4.0, which its
 * discovery names); otherwise discovery's `dataModels`.
 */
export async function findStandard(target: ResolvedTarget, embeddedConfig: string | undefined): Promise<FoundStandard> {
  if (target.dataApi.dataStandard) return declaredStandard(target.dataApi.dataStandard);
  if (embeddedConfig) {
    const configured = (JSON.parse(readFileSync(embeddedConfig, 'utf8')) as { dataStandard?: DataStandard }).dataStandard;
    if (configured) return { standard: configured, from: `the embedded reference's configuration ${embeddedConfig}` };
    return { standard: defaultStandard, from: `the embedded reference's configuration ${embeddedConfig}, which sets none: the reference's default` };
  }
  const url = `${target.dataApi.baseUrl}/`;
  try {
    const res = await fetch(url, { headers: { Accept: 'application/json' }, signal: AbortSignal.timeout(DISCOVERY_TIMEOUT_MS) });
    if (res.status !== 200) return { from: `GET ${url} answered ${res.status}` };
    return standardFromDiscovery(await res.json().catch(() => undefined));
  } catch (err) {
    return { from: `GET ${url} failed: ${String((err as Error).message).split('\n')[0]}` };
  }
}

/** Decides once per run: the main process finds the standard, its workers inherit the decision. */
export async function decideStandardOnce(target: ResolvedTarget, embeddedConfig: string | undefined): Promise<FoundStandard> {
  const inherited = process.env[JUDGED_STANDARD_ENV];
  if (inherited) return JSON.parse(inherited) as FoundStandard;
  const found = await findStandard(target, embeddedConfig);
  process.env[JUDGED_STANDARD_ENV] = JSON.stringify(found);
  return found;
}
