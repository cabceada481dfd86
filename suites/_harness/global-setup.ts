import { httpClient } from './http.js';
import type { FullConfig } from '@playwright/test';
import { DIGEST_ENV, storeDigest } from './store-digest.js';
import { REFERENCE_ERROR_LOG, referenceErrorSummary, startReferenceErrorLog } from './reference-errors.js';
import { isEmbeddedReference, target } from './target.js';
import { TOKENS_ENV } from './tokens.js';
import { preflight, preflightMessage } from './preflight.js';
import { rosteringRun, rosteringSetup } from '../rostering/_support/setup.js';
import { concurrentShards } from './run-id.js';
import { ShardRun } from './shard-run.js';
import { RUN_ID } from './fixtures.js';
import { beginRun, endRun, runsInProgress } from './ledger.js';
import { STALE_ROSTERING_MS, removeEarlierRostering } from '../rostering/_support/earlier-worlds.js';
import { describeRemoval, removeLeftovers, targetDataApis } from './leftovers.js';
import { RUN_POOL_MIN_WORKERS, makeRunDescriptors } from './run-pool.js';

/**
 * Runs once per run (per shard): the preflight (preflight.ts) checks that the target file fits
 * the deployment, fetching one token per configured client and the store digest when the
 * target offers one (the teardown compares it). Returns the teardown.
 */
/**
 * Removes what earlier runs of the suites left on this target: what their ledger names
 * (ledger.ts), then rostering data holding the reserved organization ids that a run left where
 * its ledger was lost (earlier-worlds.ts), once it is STALE_ROSTERING_MS old: younger, it may be
 * a run on another machine still reading it. A failure is reported, never fatal.
 */
async function removeEarlierRuns(ctx: Parameters<typeof removeLeftovers>[0], primary: string | undefined): Promise<number> {
  try {
    const { dataApis, tokenFor } = targetDataApis(ctx, primary ? { [target.dataApi.baseUrl.replace(/\/$/, '')]: primary } : {});
    const removal = await removeLeftovers(ctx, dataApis, tokenFor, RUN_ID);
    const line = describeRemoval(removal);
    if (line) console.log(line);
    const current = (concurrentShards()?.base ?? RUN_ID).slice(-6);
    const rostering = await removeEarlierRostering(ctx, tokenFor, { runsInProgress: runsInProgress(), current, staleAfterMs: STALE_ROSTERING_MS });
    if (rostering?.seeds.length) console.log(`removed ${rostering.removed} records of the rostering data earlier runs left holding the reserved organization ids (runs …${rostering.seeds.join(', …')}; no ledger named them)${rostering.failed.length ? `; ${rostering.failed.length} could not be removed: ${rostering.failed.slice(0, 3).join(', ')}` : ''}`);
    return removal.removed + (rostering?.removed ?? 0);
  } catch (err) {
    console.log(`records earlier runs left could not be removed (${(err as Error).message.split('\n')[0]}); npm run cleanup tries again`);
    return 0;
  }
}

export default async function globalSetup(config: FullConfig): Promise<() => Promise<void>> {
  // Before any request: the embedded reference's servers append to this file (REFERENCE_ERROR_LOG).
  const referenceLog = isEmbeddedReference && process.env.REFERENCE_ERROR_LOG === REFERENCE_ERROR_LOG;
  if (referenceLog) startReferenceErrorLog();
  const ctx = httpClient();
  let rosteringTeardown: (() => Promise<void>) | undefined;
  let runDescriptorsTeardown: ((request: typeof ctx) => Promise<void>) | undefined;
  let shardRun: ShardRun | undefined;
  // How long set-up and teardown take, by step: against a distant deployment they are round trips no worker shares.
  const steps: string[] = [];
  let lap = performance.now();
  const timed = (name: string) => { const now = performance.now(); steps.push(`${name} ${((now - lap) / 1000).toFixed(1)} s`); lap = now; };
  const began = lap;
  try {
    // A target file that cannot work fails here, once, in seconds and saying which field to
    // fix, not in every test.
    const outcome = await preflight(ctx, target);
    if (outcome.problems.length) {
      const err = new Error(preflightMessage(outcome.problems));
      err.stack = err.message; // the message is the whole story: no stack trace under it
      throw err;
    }
    if (outcome.standard) console.log(outcome.standard);
    process.env[TOKENS_ENV] = JSON.stringify(outcome.tokens);
    if (outcome.digest) process.env[DIGEST_ENV] = outcome.digest;
    // What earlier runs left (killed, or a cleanup refused) goes first, so it never blocks this one.
    // The store this run must leave as it found it is the one without them: its digest is taken again.
    timed('preflight');
    if (await removeEarlierRuns(ctx, outcome.tokens.primary) && outcome.digest) process.env[DIGEST_ENV] = (await storeDigest(ctx)) ?? outcome.digest;
    timed('earlier runs\' records');
    beginRun(RUN_ID);
    // Shards of one run at the same time (shards.ts): shard 1 writes the rostering data and
    // checks the digest; another shard waits for it before writing anything, and checks none.
    const shards = concurrentShards();
    if (shards) {
      shardRun = await ShardRun.begin(shards, outcome.tokens.primary);
      if (!shardRun.leads) delete process.env[DIGEST_ENV];
      timed(shardRun.leads ? 'shard 1 leads' : 'shard 1\'s set-up');
    }
    // Rostering clients' tokens and the data the rostering suites read (only when they run), and
    // with many workers the descriptors their pools share (run-pool.ts), at the same time.
    const pool = config.workers >= RUN_POOL_MIN_WORKERS
      ? makeRunDescriptors(ctx, outcome.tokens.primary).then((remove) => { runDescriptorsTeardown = remove; })
      : undefined;
    const rostering = rosteringSetup(shardRun?.rostering);
    // Both settle before either failure is thrown: the catch below then deletes the run's descriptors.
    await Promise.allSettled([rostering, pool]);
    rosteringTeardown = await rostering;
    await pool;
    timed(pool ? 'rostering data and the run\'s descriptors' : 'rostering data');
    await shardRun?.started(rosteringTeardown ? rosteringRun() : undefined);
  } catch (err) {
    await shardRun?.failed(err);
    await runDescriptorsTeardown?.(ctx).catch(() => {}); // else the ledger keeps them for the next run
    throw err;
  } finally {
    await ctx.dispose();
  }
  console.log(`set-up: ${((performance.now() - began) / 1000).toFixed(1)} s (${steps.join(', ')})`);
  return async () => {
    const teardownBegan = performance.now();
    // Shard 1 deletes the shared data only once the other shards are done with it.
    await shardRun?.awaitOthers();
    // Said when it begins, too: a kill during teardown (npm run strength -- --kills) waits for it.
    if (rosteringTeardown) console.log('teardown: deleting the rostering data');
    try {
      await rosteringTeardown?.();
      if (runDescriptorsTeardown) {
        const c = httpClient();
        await runDescriptorsTeardown(c).finally(() => c.dispose());
      }
      await shardRun?.end();
    } finally {
      console.log(`teardown: ${((performance.now() - teardownBegan) / 1000).toFixed(1)} s (${runDescriptorsTeardown ? 'rostering data, the run\'s descriptors' : 'rostering data'})`);
      const left = endRun(RUN_ID);
      if (left.length) console.log(`this run left ${left.length} record${left.length === 1 ? '' : 's'} it created (${left.slice(0, 2).join(', ')}${left.length > 2 ? ', …' : ''}): the next run, or npm run cleanup, removes them`);
    }
    if (referenceLog) console.log(`\n${referenceErrorSummary()}`);
    const before = process.env[DIGEST_ENV];
    if (!before) return;
    const c = httpClient();
    const after = await storeDigest(c).finally(() => c.dispose());
    if (after !== before) throw new Error(`the run did not leave the store as it found it: digest before ${before}, after ${after}`);
    console.log(`store digest unchanged by the run: ${after}`);
  };
}
