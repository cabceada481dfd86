import type { Context } from 'koa';

/**
 * Ends the response here, past Koa's response handling (its documented bypass, `ctx.respond =
 * false`), for the answers written on every request: Koa's body and type setters look up a media
 * type and measure the body, and its own ending checks what these answers never are (a stream,
 * a HEAD, an empty status with a body). Node frames the body given (Content-Length, 0 when there
 * is none). Headers set on the context before stay, as with Koa's own answer; nothing may set
 * one after.
 */
export function answerDirectly(ctx: Context, status: number, body?: string): void {
  ctx.status = status;
  ctx.respond = false;
  ctx.res.end(body);
}
