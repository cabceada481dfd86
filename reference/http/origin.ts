import type { Context } from 'koa';

/**
 * Scheme, host and port for absolute URLs (Location, discovery, interface description): the
 * configured public base URL's origin when there is one (set by the app in ctx.state), else the
 * one the client used, which follows its Host header.
 */
export const origin = (ctx: Context): string => (ctx.state.publicOrigin as string | undefined) ?? `${ctx.protocol}://${ctx.host}`;
