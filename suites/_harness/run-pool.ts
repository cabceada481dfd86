import type { HttpClient } from './http.js';
import { DataClient, deleteCreated } from './fixtures.js';
import { descriptorBody, descriptorValue } from './builders.js';
import { model } from './judged-model.js';
import { target } from './target.js';

/**
 * The run's descriptors: one of each descriptor resource of the judged standard, made once per
 * run (per shard) by the global set-up and deleted by its teardown, after every worker ended. The
 * workers' pools (data.ts workerPool) hand them out instead of each making its own.
 *
 * Why: each worker's pool made a descriptor of every kind its tests' shared bodies needed, about
 * eighty, and deleted them as it ended: with the twenty-four workers a distant deployment gets,
 * 1,914 POSTs and as many DELETEs in a whole 4.0 run, a tenth of its requests, for values every
 * test may share (BuildOptions.shared: no test changes, deletes or queries by a pool
 * dependency). A run-wide set costs one POST and one DELETE per descriptor resource (189 in 4.0,
 * 280 in 6.1), all at once: less than the workers' pools from RUN_POOL_MIN_WORKERS workers on,
 * more below it, where the workers' pools go on as before.
 */
export const RUN_DESCRIPTORS_ENV = 'CONFORMANCE_RUN_DESCRIPTORS';
export const RUN_POOL_MIN_WORKERS = 6;

/** The run's descriptor values by bare name (`gradeLevel`), as the set-up made them; none when it made none. */
export function runDescriptors(env: NodeJS.ProcessEnv = process.env): ReadonlyMap<string, string> | undefined {
  const raw = env[RUN_DESCRIPTORS_ENV];
  return raw ? new Map(Object.entries(JSON.parse(raw) as Record<string, string>)) : undefined;
}

/**
 * Makes the run's descriptors on `request` as the primary client (announced in the ledger like
 * every record a run makes, so a killed run's are found), and publishes them to the workers.
 * Returns their deletion, for the teardown, on a client of its own (the set-up's is gone by then).
 */
export async function makeRunDescriptors(request: HttpClient, token: string): Promise<(request: HttpClient) => Promise<void>> {
  const created: { url: string }[] = [];
  const client = new DataClient(request, target, token, created);
  // A kind the deployment will not create is left out, not fatal: a worker's pool then makes its
  // own when a test needs one, and that test fails under its own rule, as without the run's set.
  const made = await Promise.allSettled(model.resources.filter((r) => r.isDescriptor).map(async (r) => {
    const bare = r.name.replace(/Descriptor$/, '');
    const body = descriptorBody(bare);
    await client.create(r.endpoint, body);
    return [bare, descriptorValue(body)] as const;
  }));
  const values = made.flatMap((m) => (m.status === 'fulfilled' ? [m.value] : []));
  process.env[RUN_DESCRIPTORS_ENV] = JSON.stringify(Object.fromEntries(values));
  return (client: HttpClient) => deleteCreated(client, created, 'the run\'s descriptors');
}
