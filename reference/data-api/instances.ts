import { type AdminDatabases, parseEncryptionKey, readConnectionString } from '../admin-db/index.js';
import type { Settings } from '../config/load.js';
import { Problem } from '../http/problems.js';
import type { Principal } from '../security/bearer.js';
import type { StoreRegistry } from '../store/registry.js';
import type { DataStore } from '../store/store.js';

/**
 * Which data store ("ODS instance") a data request works on: the first instance the token's
 * `odsInstances` claim names (instance 1 without one), read from the admin database's instance
 * table (the tenant's, when multi-tenant) and opened by its connection string, decrypted per
 * decisions #26. The same admin databases serve the rostering service, so both resolve the
 * same store for the same token.
 */
export class InstanceResolver {
  private readonly key?: Buffer;
  private readonly resolved = new Map<string, DataStore>();

  constructor(private readonly settings: Settings, private readonly stores: StoreRegistry, private readonly admins: AdminDatabases) {
    if (settings.connectionStringEncryptionKey) this.key = parseEncryptionKey(settings.connectionStringEncryptionKey);
  }

  /** Multi-tenant deployments carry the tenant as the first path segment after {base_url}. */
  get multiTenant(): boolean {
    return Object.keys(this.settings.tenants).length > 0;
  }

  /**
   * The store of a single-tenant principal, kept as long as the principal (bearer.ts keeps one
   * per verified token): its instance never changes, and every request of the token needs it.
   */
  private readonly byPrincipal = new WeakMap<Principal, DataStore>();

  /** The request's data store: at once when the principal's is known, else once its admin database is read. */
  storeFor(principal: Principal, tenant?: string): DataStore | Promise<DataStore> {
    return this.byPrincipal.get(principal) ?? this.resolve(principal, tenant);
  }

  private async resolve(principal: Principal, tenant?: string): Promise<DataStore> {
    let admin = this.settings.adminDatabase;
    if (this.multiTenant) {
      const name = Object.keys(this.settings.tenants).find((t) => t.toLowerCase() === (tenant ?? '').toLowerCase());
      if (!name) throw new Problem('not-found', { detail: 'The specified data could not be found.', errors: [`Unknown tenant '${tenant ?? ''}'.`] });
      if ((principal.claims.tenantId ?? '').toLowerCase() !== name.toLowerCase()) {
        throw new Problem('security:authentication', { errors: ["The token's tenant does not match the tenant of the route."] });
      }
      admin = this.settings.tenants[name].adminDatabase;
    }
    const id = firstInstanceId(principal);
    const cacheKey = `${admin}\u0000${id}`;
    const hit = this.resolved.get(cacheKey);
    if (hit) return this.keep(principal, hit);
    // An admin database or connection string that cannot be used (ConfigurationError) reaches
    // the error boundary: a bare system problem, never echoing a connection string or key.
    const row = (await this.admins.get(admin)).instance(id);
    if (!row) throw new Problem('not-found', { detail: 'The specified data could not be found.', errors: [`No data store instance ${id} is configured.`] });
    const store = this.stores.open(readConnectionString(row.ConnectionString, this.key));
    this.resolved.set(cacheKey, store);
    return this.keep(principal, store);
  }

  /** Kept per principal only where no tenant is part of the route (a multi-tenant request checks its tenant each time). */
  private keep(principal: Principal, store: DataStore): DataStore {
    if (!this.multiTenant) this.byPrincipal.set(principal, store);
    return store;
  }
}

/**
 * Per principal, parsed once: bearer.ts keeps one Principal per verified token for its lifetime,
 * so the claim is read once per token instead of once per request (#25: per-token work done once).
 */
const instanceIds = new WeakMap<Principal, number>();

function firstInstanceId(principal: Principal): number {
  let id = instanceIds.get(principal);
  if (id === undefined) {
    id = parseFirstInstanceId(principal);
    instanceIds.set(principal, id);
  }
  return id;
}

function parseFirstInstanceId(principal: Principal): number {
  const raw = principal.claims.odsInstances;
  if (!raw) return 1;
  try {
    const parsed = JSON.parse(raw) as { OdsInstances?: { OdsInstanceId?: number }[] };
    return parsed.OdsInstances?.[0]?.OdsInstanceId ?? 1;
  } catch {
    return 1;
  }
}
