/**
 * A finished test's records, deleted while the worker's next tests run (issue #24 point 5).
 *
 * A test's cleanup used to be part of the test: its rounds of DELETEs (one round trip per level
 * of what it made, then its descriptors) ran in its After Hooks. At 40 ms from the deployment
 * that was 119 of 889 slot-seconds in a whole 4.0 run, about 13 % of what the workers wait on.
 * Swept instead, the DELETEs travel while the next test runs, and the worker awaits them all
 * when it ends, before its pool (which the tests' records reference) is deleted.
 *
 * Nothing a later test sees changes: every record a test makes has a key of its own (builders.ts:
 * a record's own key members never come from the pool unless a unique string member makes the key
 * unique), other workers' tests already run beside it, and every suite reads only what it made.
 *
 * A DELETE that fails is no longer one of the test's assertions: it says nothing of the rules the
 * test checks (decision 34), and each of them is judged by its own assertions (every resource's
 * DELETE by discovery/every-resource-json.spec.ts and descriptors/shape.spec.ts). It is the
 * worker's error when it ends: Playwright reports it outside any test, the record stays in the
 * run's ledger, and the global teardown names what the run left for `npm run cleanup`.
 */
export interface Sweeper {
  /** Takes a finished test's deletion, started already (fixtures.ts deleteCreated); returns at once. */
  sweep(deletion: Promise<void>): void;
  /** Awaits every deletion swept so far, those swept meanwhile too; throws what could not be deleted, once. */
  swept(): Promise<void>;
}

export function sweeperOf(): Sweeper {
  const pending = new Set<Promise<void>>();
  const failures: string[] = [];
  return {
    sweep(deletion) {
      const deleting: Promise<void> = deletion
        .catch((err: unknown) => { failures.push(err instanceof Error ? err.message : String(err)); })
        .finally(() => { pending.delete(deleting); });
      pending.add(deleting);
    },
    async swept() {
      while (pending.size) await Promise.all([...pending]);
      if (failures.length) throw new Error(failures.splice(0).join('\n'));
    },
  };
}
