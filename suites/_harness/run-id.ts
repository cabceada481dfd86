import { createHash } from 'node:crypto';
import { shardOf } from './reporter/run-metadata.js';

/**
 * The run's ids, decided once in Playwright's main process and inherited by its workers.
 *
 * CONFORMANCE_RUN_ID names a run. Unset, every run draws its own. CI gives every shard of one
 * certification the same one (`--shard=i/n` on each): the shards then know each other, share the
 * rostering data written with the target's fixed organization ids (shards.ts), and split the
 * school years between them. Each shard still writes under its own id (`<run>s<i>`), so their
 * keys never meet.
 */
const SHARD_ENV = 'CONFORMANCE_SHARD';
const BASE_ENV = 'CONFORMANCE_RUN_BASE';

/**
 * A run id as keys can carry it: six to nine lower-case letters and digits, any other given id
 * hashed to nine. Never fewer than six: every key carries the id's last six characters
 * (RUN_MARKER, world.ts's keys), and a later run's cleanup reads them back at that width (a
 * shorter id's paging district went unrecognised).
 */
export function keySafeRunId(given: string): string {
  if (/^[a-z0-9]{6,9}$/i.test(given)) return given.toLowerCase();
  return BigInt(`0x${createHash('sha256').update(given).digest('hex').slice(0, 15)}`).toString(36).padStart(9, '0').slice(-9);
}

/** This run's shard (`--shard=i/n`, inherited by workers through the environment), if sharded. */
export function runShard(): { current: number; total: number } | undefined {
  if (process.env[SHARD_ENV] === undefined) {
    const s = shardOf(process.argv);
    process.env[SHARD_ENV] = s ? `${s.current}/${s.total}` : '';
  }
  const m = /^(\d+)\/(\d+)$/.exec(process.env[SHARD_ENV] ?? '');
  return m ? { current: Number(m[1]), total: Number(m[2]) } : undefined;
}

const given = process.env.CONFORMANCE_RUN_ID;
/** The run's own id, or, for the shards of one certification, the id they share. */
export const RUN_BASE = (process.env[BASE_ENV] ??= given ? keySafeRunId(given) : `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`);

/**
 * Shards of one certification running at the same time, told so by one CONFORMANCE_RUN_ID: the
 * shard, the total and the id they share. Shards with ids of their own cannot know each other.
 */
export function concurrentShards(): { base: string; current: number; total: number } | undefined {
  const shard = runShard();
  return given && shard && shard.total > 1 ? { base: RUN_BASE, ...shard } : undefined;
}

/** The id in every key this process writes: one shard's own id inside a shared one. */
export const RUN_ID = ((): string => {
  const shards = concurrentShards();
  return shards ? `${RUN_BASE}s${shards.current}` : RUN_BASE;
})();

/** School years 1991 and 2050 are left to the range tests; each worker owns one year in between (builders.ts). */
export const SCHOOL_YEARS = 58;

/**
 * The years each shard of one certification may take: the years are split between the shards,
 * since a year one worker made, and deletes at its end, must not be another's (the DELETE would
 * be refused while the other's records reference it). So a shard runs at most that many workers
 * (workers.ts). A run alone has all of them.
 */
export const yearsPerShard = (total: number): number => Math.floor(SCHOOL_YEARS / total);
