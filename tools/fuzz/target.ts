/** The fuzz target: where the services are, a valid client, and valid documents to break. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DATA_ROOT, TOKEN_PATH } from '../../spec/generate/openapi-data.js';
import { model } from '../../spec/model/index.js';
import { REPO_ROOT, startChildReference, type ChildReference } from '../child-reference.js';

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
  const res = await fetch(`${opts.dataApiBaseUrl}${TOKEN_PATH}`, {
    method: 'POST',
    headers: { Authorization: `Basic ${Buffer.from(`${opts.client.key}:${opts.client.secret}`).toString('base64')}`, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials',
  });
  if (res.status !== 200) throw new Error(`token request failed: ${res.status} ${await res.text()}`);
  const token = ((await res.json()) as { access_token: string }).access_token;
  const samples: ResourceSample[] = [];
  for (const r of model.resources) {
    const page = await fetch(`${opts.dataApiBaseUrl}${DATA_ROOT}/core/${r.endpoint}?limit=2`, { headers: { Authorization: `Bearer ${token}` } });
    const items = page.status === 200 ? ((await page.json()) as Record<string, unknown>[]) : [];
    samples.push({
      name: r.name,
      endpoint: r.endpoint,
      docs: items.map(({ id: _id, _etag, _lastModifiedDate, [`${r.name}Id`]: _descriptorId, ...doc }) => doc),
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
export const FUZZ_ADMIN = { key: 'fuzz-admin', secret: 'fuzz-admin-secret-8d1e4b62' };

export interface FuzzSetup {
  child: ChildReference;
  target: FuzzTarget;
  /** Absolute paths no answer may name. */
  roots: string[];
  /** Stops the child (SIGTERM) and removes its directory. */
  close: () => Promise<void>;
}

/**
 * Starts the reference as a child process with the fuzzing configuration (demo data, so that
 * there are valid documents to break; a 1 MiB body limit; a durable store) and prepares the target.
 */
export async function startFuzzTarget(opts: { heapMb?: number } = {}): Promise<FuzzSetup> {
  const dir = mkdtempSync(join(tmpdir(), 'fuzz-'));
  const child = await startChildReference({
    dir,
    ...(opts.heapMb ? { heapMb: opts.heapMb } : {}),
    config: {
      demoData: true,
      maxBodyBytes: FUZZ_MAX_BODY_BYTES,
      dataStore: `file:${join(dir, 'store.json')}`,
      clients: [{ ...FUZZ_CLIENT, permissionSet: 'unrestricted', rosterScopes: ['roster-core.readonly', 'roster.readonly', 'roster-demographics.readonly'] }],
      admin: { ...FUZZ_ADMIN, loopbackOnly: true },
      // Tight, so that the run's bad tokens exhaust it: valid tokens must still pass (the judge checks).
      throttle: { rosteringFailuresPerAddress: { requestsPerSecond: 0.05, burst: 3 } },
    },
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
    return { child, target, roots: [REPO_ROOT.replace(/\/$/, ''), dir], close };
  } catch (err) {
    await close();
    throw err;
  }
}
