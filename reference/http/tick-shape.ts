import { createHook } from 'node:async_hooks';

/**
 * Keeps one entry of Node's nextTick queue alive for the life of the process, so that process.nextTick
 * stays on its fast path.
 *
 * Why: nextTick builds each queue entry as an object literal with computed symbol keys. V8 holds
 * the shapes (maps) of those entries only weakly, from its inline caches and from the optimized
 * code of nextTick. A full garbage collection that finds no entry alive (any idle moment of a
 * server whose heap is large enough to need full collections: start-up, the store growing) drops
 * the shapes and deoptimizes nextTick; the next entry gets new shapes. After a few rounds the
 * inline cache gives up (megamorphic) and every later nextTick, several per request, goes
 * through V8's runtime: measured on Node 20, 8 % of a GET by id's server CPU in the reference
 * (issue #25), 45 ns → 220 ns per call; bare Koa, which never runs a full collection in the
 * bench, never pays it. One entry kept alive keeps its shapes, and the transitions to them, alive.
 *
 * The entry is caught by an async hook enabled around one nextTick call and disabled at once:
 * async hooks cost every asynchronous operation while enabled, and nothing else exposes the entry.
 * It must run before the process's first full collection: main.ts and server.ts import this
 * module first.
 */
let kept: object | undefined;

function keepTickEntryShape(): void {
  if (kept) return;
  const hook = createHook({
    init(_asyncId, type, _triggerAsyncId, resource) {
      if (type === 'TickObject' && !kept) kept = resource;
    },
  });
  hook.enable();
  try {
    process.nextTick(() => {});
  } finally {
    hook.disable();
  }
}

/** The kept entry (for the tests): undefined until keepTickEntryShape ran. */
export function keptTickEntry(): object | undefined {
  return kept;
}

keepTickEntryShape();
