import type { KnownDeviation } from '../../targets/deviations.js';
import { loadDeviations } from '../deviations.js';
import { inheritedDecision, judgedFor } from '../data-standard.js';
import { target } from '../target.js';

/**
 * What the conformance report needs to know about the run's target, carried in the Playwright
 * config's metadata. Blob reports keep the metadata, so `merge-reports` (which has no TARGET of
 * its own) reports the target the shards ran against, with that target's deviations.
 */
export interface RunMetadata {
  /** `dataStandard`: the data standard the run judged the target by (data-standard.ts, decided before the metadata is read). */
  target: { name: string; dataApiBaseUrl: string; dataStandard?: string };
  deviations: KnownDeviation[];
}

export const RUN_METADATA_KEY = 'conformance';

/** The run's target as this process resolved it (TARGET, or the embedded reference). */
export function runMetadata(): RunMetadata {
  return { target: { name: target.name, dataApiBaseUrl: target.dataApi.baseUrl, dataStandard: judgedFor(inheritedDecision()) }, deviations: loadDeviations() };
}

/** The target recorded in a config's metadata (a run's or a merge's), if any. */
export function fromMetadata(metadata: Record<string, unknown> | undefined): RunMetadata | undefined {
  const m = metadata?.[RUN_METADATA_KEY] as Partial<RunMetadata> | undefined;
  return m?.target?.name && m.target.dataApiBaseUrl !== undefined && Array.isArray(m.deviations) ? (m as RunMetadata) : undefined;
}
