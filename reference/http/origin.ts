import type { Context } from 'koa';

/** Scheme, host and port the client used, for absolute URLs (Location, discovery). */
export const origin = (ctx: Context): string => `${ctx.protocol}://${ctx.host}`;
