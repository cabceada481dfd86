import { request, type FullConfig } from '@playwright/test';
import { DIGEST_ENV, storeDigest } from './store-digest.js';
import { target } from './target.js';
import { TOKENS_ENV, fetchAllTokens } from './tokens.js';
import { preflight } from './preflight.js';
import { rosteringSetup } from '../rostering/_support/setup.js';

/**
 * Runs once per run (per shard): fetches one token per configured client, checks that the target
 * file fits the deployment (preflight.ts), and notes the store digest when the target offers one
 * (the teardown compares it). Returns the teardown.
 */
export default async function globalSetup(_config: FullConfig): Promise<() => Promise<void>> {
  const ctx = await request.newContext();
  let rosteringTeardown: (() => Promise<void>) | undefined;
  try {
    const tokens = await fetchAllTokens(ctx, target);
    // A target file that cannot work fails here, once and saying why, not in every test.
    const problems = await preflight(ctx, target, tokens.primary);
    if (problems.length) throw new Error(`preflight: the target file does not fit the deployment:\n- ${problems.join('\n- ')}`);
    process.env[TOKENS_ENV] = JSON.stringify(tokens);
    const before = await storeDigest(ctx);
    if (before) process.env[DIGEST_ENV] = before;
    // Rostering clients' tokens and the data the rostering suites read (only when they run).
    rosteringTeardown = await rosteringSetup();
  } finally {
    await ctx.dispose();
  }
  return async () => {
    await rosteringTeardown?.();
    const before = process.env[DIGEST_ENV];
    if (!before) return;
    const after = await request.newContext().then(async (c) => { try { return await storeDigest(c); } finally { await c.dispose(); } });
    if (after !== before) throw new Error(`the run did not leave the store as it found it: digest before ${before}, after ${after}`);
    console.log(`store digest unchanged by the run: ${after}`);
  };
}
