/**
 * `fn` over every item, at most `limit` at a time, the results in the items' order. For tests
 * that make one request per resource: in sequence they pay a round trip each (472 collections at
 * 40 ms are 19 s of a test's 30), a few at a time a round trip per `limit`.
 */
export async function inParallel<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/**
 * A request started now and awaited later (inside the check it belongs to), so that a distant
 * deployment answers it while the test waits on another. Until awaited, its failure is held, not
 * reported as an unhandled rejection; awaiting it still throws that failure where it is judged.
 */
export function early<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => undefined);
  return promise;
}

/**
 * Every task at once, like Promise.all, but waiting for all of them before it throws the first
 * failure (in the tasks' order): no write is still on its way when the test goes on or its
 * cleanup runs.
 */
export async function settleAll<T>(tasks: readonly Promise<T>[]): Promise<T[]> {
  const results = await Promise.allSettled(tasks);
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
  return results.map((r) => (r as PromiseFulfilledResult<T>).value);
}
