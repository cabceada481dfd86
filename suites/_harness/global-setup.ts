import { request, type FullConfig } from '@playwright/test';
import { DIGEST_ENV, storeDigest } from './store-digest.js';
import { target } from './target.js';
import { TOKENS_ENV, fetchAllTokens } from './tokens.js';

/**
 * Runs once per run (per shard): fetches one token per configured client, and notes the store
 * digest when the target offers one (the teardown compares it). Returns the teardown.
 */
export default async function globalSetup(_config: FullConfig): Promise<() => Promise<void>> {
  const ctx = await request.newContext();
  try {
    process.env[TOKENS_ENV] = JSON.stringify(await fetchAllTokens(ctx, target));
    const before = await storeDigest(ctx);
    if (before) process.env[DIGEST_ENV] = before;
  } finally {
    await ctx.dispose();
  }
  return async () => {
    const before = process.env[DIGEST_ENV];
    if (!before) return;
    const after = await request.newContext().then(async (c) => { try { return await storeDigest(c); } finally { await c.dispose(); } });
    if (after !== before) throw new Error(`the run did not leave the store as it found it: digest before ${before}, after ${after}`);
    console.log(`store digest unchanged by the run: ${after}`);
  };
}
