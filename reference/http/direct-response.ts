import type { Context } from 'koa';
import { logRequestError } from './error-log.js';

/** What holdAnswer needs of a response: Node's ServerResponse, or a test's stand-in. */
interface Ending {
  end(body?: string): unknown;
  destroy(error?: Error): unknown;
}

/**
 * Ends the response past Koa's response handling (its documented bypass, `ctx.respond =
 * false`), for the answers written on every request: Koa's body and type setters look up a media
 * type and measure the body, and its own ending checks what these answers never are (a stream,
 * a HEAD, an empty status with a body). Node frames the body given (Content-Length, 0 when there
 * is none). Headers set on the context before stay, as with Koa's own answer; nothing may set
 * one after.
 *
 * The answer leaves with the others of the same turn of the event loop (see holdAnswer).
 */
export function answerDirectly(ctx: Context, status: number, body?: string): void {
  ctx.status = status;
  ctx.respond = false;
  holdAnswer(ctx.res, body);
}

/**
 * Most answers held at once. Each held answer waits for the requests read after it in the same
 * turn; this bounds that wait to the handling of a few more requests (about 50 µs each for an
 * upsert), whatever the number of connections ready at once.
 */
export const MAX_HELD = 16;

const held: { res: Ending; body: string | undefined }[] = [];

/**
 * Holds an answer until the requests read in the same turn of the event loop have been handled,
 * then writes them one after the other (setImmediate runs right after the turn's I/O).
 *
 * Why: each answer's write wakes the client that waits for it. On this project's two-CPU
 * machine, waking an idle client CPU made an upsert's write cost 10–15 µs of server time, a
 * quarter of the request (`perf`: the kernel's wake-up under the write, sock_def_readable);
 * written back to back, the later writes find the client awake. Upserts went from 56 to 48–50 µs
 * of server CPU per request in the bench, GET by id from 21 to 19. A lone request waits for
 * nothing: its turn has no other.
 */
export function holdAnswer(res: Ending, body?: string): void {
  if (!held.length) setImmediate(writeHeld);
  held.push({ res, body });
  if (held.length >= MAX_HELD) writeHeld();
}

/**
 * Writes every held answer; one that cannot be written drops its own connection, never the
 * others', and is logged as a failure inside the server (a defect: before it was held, the error
 * would have reached the request's error boundary).
 */
function writeHeld(): void {
  const answers = held.splice(0);
  for (const { res, body } of answers) {
    try {
      res.end(body);
    } catch (err) {
      logRequestError('an answer could not be written:', err);
      res.destroy(err as Error);
    }
  }
}
