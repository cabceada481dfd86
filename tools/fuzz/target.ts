/** The fuzz target: where the services are, a valid client, and valid documents to break. */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DATA_ROOT } from '../../spec/generate/openapi-data.js';
import { model } from '../../spec/model/index.js';
import type { ReferenceConfig } from '../../reference/config/types.js';
import { REPO_ROOT, startChildReference, type ChildReference } from '../child-reference.js';
import { checkStore, fetchToken } from './store-check.js';

export interface ResourceSample {
  name: string;
  endpoint: string;
  /** Valid documents (as stored, without id and system members). */
  docs: Record<string, unknown>[];
  ids: string[];
  etags: string[];
  queryFields: string[];
}

export interface FuzzTarget {
  /** `{base_url}`: origin + basePath. */
  dataApiBaseUrl: string;
  /** Origin of the rostering service. */
  rosteringBaseUrl: string;
  client: { key: string; secret: string };
  /** A bearer token of the client (with rostering scopes). */
  token: string;
  /** The configured maxBodyBytes: larger bodies must get 413 (or a closed connection). */
  maxBodyBytes: number;
  samples: ResourceSample[];
  /** Values no response may contain (secrets, keys, connection strings), with a label each. */
  forbidden: { label: string; value: string }[];
  /** The admin credential the target is configured with (admin recipes use it, and guesses). */
  admin?: { key: string; secret: string };
}

/** Fetches a token and one or two valid documents of every resource (the reference should hold demo data). */
export async function prepareTarget(opts: Omit<FuzzTarget, 'token' | 'samples'>): Promise<FuzzTarget> {
  const token = await fetchToken(opts.dataApiBaseUrl, opts.client);
  const samples: ResourceSample[] = [];
  for (const r of model.resources) {
    const page = await fetch(`${opts.dataApiBaseUrl}${DATA_ROOT}/core/${r.endpoint}?limit=2`, { headers: { Authorization: `Bearer ${token}` } });
    const items = page.status === 200 ? ((await page.json()) as Record<string, unknown>[]) : [];
    samples.push({
      name: r.name,
      endpoint: r.endpoint,
      // A descriptor's own id (schoolTypeDescriptorId) is the server's; a school's schoolId is its key.
      docs: items.map(({ id: _id, _etag, _lastModifiedDate, ...doc }) => {
        if (r.isDescriptor) delete doc[`${r.name}Id`];
        return doc;
      }),
      ids: items.map((i) => String(i.id)),
      etags: items.map((i) => String(i._etag)),
      queryFields: Object.keys(r.queryFields),
    });
  }
  return { ...opts, token, samples };
}

/** The client the fuzzing configuration declares. */
export const FUZZ_CLIENT = { key: 'fuzz-client', secret: 'fuzz-client-secret-3f9c2a71' };
export const FUZZ_MAX_BODY_BYTES = 1024 * 1024;
/** The fuzz client's record quota: a run's new records reach it (403 record-quota-exceeded from then on). */
export const FUZZ_RECORD_QUOTA = 150;
/** The namespace of the new records a run creates (recipe 'fresh'). */
export const FRESH_NAMESPACE = 'uri://fuzz.test/GradeLevelDescriptor';
export const FUZZ_ADMIN = { key: 'fuzz-admin', secret: 'fuzz-admin-secret-8d1e4b62' };

export interface FuzzSetup {
  child: ChildReference;
  target: FuzzTarget;
  /** Absolute paths no answer may name. */
  roots: string[];
  /**
   * After a run (issue 23 points 4, 5 and 10; tools/fuzz/store-check.ts): the record quota held,
   * SIGTERM while compactions fail is clean, the files are 0600, the journals carry the run to a
   * restart, and a damaged or missing state file is refused in one line (--recover says what is
   * lost). Stops the child. What went wrong, if anything.
   */
  storeCheck: () => Promise<string[]>;
  /** Stops the child (SIGTERM) and removes its directory. */
  close: () => Promise<void>;
}

/**
 * Starts the reference as a child process with the fuzzing configuration (demo data, so that
 * there are valid documents to break; a 1 MiB body limit; a record quota; a durable store that
 * compacts every 50 writes, each compaction failing: a directory is where the state file's temp
 * file goes) and prepares the target.
 */
export async function startFuzzTarget(opts: { heapMb?: number; recordQuota?: number; port?: number } = {}): Promise<FuzzSetup> {
  const dir = mkdtempSync(join(tmpdir(), 'fuzz-'));
  const store = join(dir, 'store.json');
  const compactionBlocker = `${store}.tmp`;
  mkdirSync(compactionBlocker);
  const recordQuota = opts.recordQuota ?? FUZZ_RECORD_QUOTA;
  const config: ReferenceConfig = {
    // Free ports unless given (the rostering service on the next one).
    ...(opts.port ? { port: opts.port, rosteringPort: opts.port + 1 } : {}),
    demoData: true,
    maxBodyBytes: FUZZ_MAX_BODY_BYTES,
    dataStore: `file:${store}`,
    journalCompactEvery: 50,
    clients: [{ ...FUZZ_CLIENT, permissionSet: 'unrestricted', recordQuota, rosterScopes: ['roster-core.readonly', 'roster.readonly', 'roster-demographics.readonly'] }],
    admin: { ...FUZZ_ADMIN, loopbackOnly: true },
    // Tight, so that the run's bad tokens exhaust it: valid tokens must still pass (the judge checks).
    throttle: { rosteringFailuresPerAddress: { requestsPerSecond: 0.05, burst: 3 } },
  };
  const child = await startChildReference({ dir, ...(opts.heapMb ? { heapMb: opts.heapMb } : {}), config }).catch((err: unknown) => {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  });
  const close = async () => { await child.stop(); rmSync(dir, { recursive: true, force: true }); };
  try {
    const target = await prepareTarget({
      dataApiBaseUrl: child.dataApiBaseUrl,
      rosteringBaseUrl: child.rosteringBaseUrl,
      client: FUZZ_CLIENT,
      maxBodyBytes: FUZZ_MAX_BODY_BYTES,
      forbidden: [{ label: 'client secret', value: FUZZ_CLIENT.secret }, { label: 'admin secret', value: FUZZ_ADMIN.secret }, { label: 'store path', value: dir }],
      admin: FUZZ_ADMIN,
    });
    const storeCheck = () => checkStore({ child, target, config, dir, store, compactionBlocker, recordQuota, freshNamespace: FRESH_NAMESPACE });
    return { child, target, roots: [REPO_ROOT.replace(/\/$/, ''), dir], storeCheck, close };
  } catch (err) {
    await close();
    throw err;
  }
}
