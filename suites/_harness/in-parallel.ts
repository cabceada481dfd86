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
