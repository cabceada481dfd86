import { httpClient } from './http.js';
import { test as base, DataClient, deleteCreated, expect, swept, target } from './fixtures.js';
import { Builder } from './builders.js';
import { clientToken } from './capabilities.js';
import { sharedTokens } from './tokens.js';
import { runDescriptors } from './run-pool.js';

/**
 * The suites' `test`: the harness fixtures plus
 * - `data`: a model-driven Builder on the primary client (everything it creates is deleted after the test);
 * - `as(role)`: a client acting as another configured role (not applicable when the target has none);
 *   whatever it creates with create() is deleted after the test by the primary client.
 */
interface DataFixtures {
  data: Builder;
  as: (role: string) => DataClient;
}

class RoleClient extends DataClient {
  constructor(request: DataClient['request'], token: string, private readonly owner: DataClient) {
    super(request, target, token, []);
  }

  /** Whatever a POST creates (201), even when a test expected a refusal, is deleted afterwards. */
  override async post(path: string, body: Record<string, unknown> | string, headers: Record<string, string> = {}) {
    const res = await super.post(path, body, headers);
    if (res.status() === 201 && res.headers().location) this.owner.track(res.headers().location);
    return res;
  }
}

export const test = base.extend<DataFixtures>({
  // The primary client, tracking every record a POST creates (201): a write a test expected to be
  // refused but the target accepted leaves nothing behind either. Deleting twice is harmless (404).
  api: [async ({ api }, use) => {
    const post = api.post.bind(api);
    api.post = async (path, body, headers = {}) => {
      const res = await post(path, body, headers);
      if (res.status() === 201 && res.headers().location) api.track(res.headers().location);
      return res;
    };
    await use(api);
  }, { scope: 'test', box: 'self' }],
  data: [async ({ api, pool }, use) => {
    await use(new Builder(api, pool));
  }, { box: 'self' }],
  as: [async ({ request, api }, use) => {
    await use((role: string) => new RoleClient(request, clientToken(role), api));
  }, { box: 'self' }],
});

/**
 * The worker fixture `pool` (registered with the harness's other worker fixtures in
 * fixtures.ts): the worker's dependencies (BuildOptions.shared), records the generated tests'
 * bodies reference, made once per worker process on its own client and deleted, newest first,
 * when the worker ends.
 */
export async function workerPool(use: (pool: Builder) => Promise<void>): Promise<void> {
  const request = httpClient();
  const created: { url: string }[] = [];
  await use(new Builder(new DataClient(request, target, sharedTokens().primary, created), undefined, runDescriptors()));
  try {
    // The tests' records, which reference the pool's, go first (sweeper.ts); the pool's go
    // whether or not all of theirs could.
    await swept().finally(() => deleteCreated(request, created, 'worker pool cleanup'));
  } finally {
    await request.dispose();
  }
}

export { expect, target };
