import { request, type FullConfig } from '@playwright/test';
import { target } from './target.js';
import { TOKENS_ENV, fetchAllTokens } from './tokens.js';

/** Runs once per run (per shard): fetches one token per configured client. */
export default async function globalSetup(_config: FullConfig): Promise<void> {
  const ctx = await request.newContext();
  try {
    process.env[TOKENS_ENV] = JSON.stringify(await fetchAllTokens(ctx, target));
  } finally {
    await ctx.dispose();
  }
}
