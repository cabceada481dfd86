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

/**
 * A shard's own metadata key: the merge keeps every blob's keys, so the merged config names each
 * shard that reported, and the total says which are missing (a shard killed before writing its
 * blob report leaves its tests out of the merge altogether: never listed, so never untested).
 */
const SHARD_KEY_PREFIX = 'conformance-shard-';

/** `--shard=2/3` or `--shard 2/3` on a command line: this run's shard, if any. */
export function shardOf(argv: readonly string[]): { current: number; total: number } | undefined {
  const i = argv.findIndex((a) => a === '--shard' || a.startsWith('--shard='));
  const value = i < 0 ? undefined : argv[i].startsWith('--shard=') ? argv[i].slice('--shard='.length) : argv[i + 1];
  const m = /^(\d+)\/(\d+)$/.exec(value ?? '');
  return m ? { current: Number(m[1]), total: Number(m[2]) } : undefined;
}

export const shardMetadata = (shard: { current: number; total: number } | undefined): Record<string, unknown> =>
  shard ? { [`${SHARD_KEY_PREFIX}${shard.current}`]: shard } : {};

/** In a merged config: the shards' total and those of them no blob report came from. */
export function missingShards(metadata: Record<string, unknown> | undefined): { total: number; missing: number[] } | undefined {
  const shards = Object.entries(metadata ?? {}).filter(([k]) => k.startsWith(SHARD_KEY_PREFIX)).map(([, v]) => v as { current: number; total: number });
  if (!shards.length) return undefined;
  const total = Math.max(...shards.map((s) => s.total));
  const present = new Set(shards.map((s) => s.current));
  return { total, missing: Array.from({ length: total }, (_, i) => i + 1).filter((n) => !present.has(n)) };
}
