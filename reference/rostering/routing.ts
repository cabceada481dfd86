import { AdminDatabases, AdminDatabaseError, readConnectionString, type AdminDatabase } from '../admin-db/index.js';
import type { StoreRegistry } from '../store/registry.js';
import type { DataStore } from '../store/store.js';
import { RosteringConfigError, type RosteringConfig } from './config.js';
import type { RosterRoute } from './route.js';
import { RosterError, unauthorized } from './status.js';
import type { Caller } from './token-check.js';

/**
 * Data-store resolution by the seed's four routing flows (seed: Routing flows; research §8):
 * 1. the admin database: CONNECTION_CONFIG (single-tenant) or the route tenant's entry in
 *    TENANTS_CONNECTION_CONFIG, after the tenantId claim is found equal to the route tenant;
 * 2. the instance id: with context routing, the odsInstances entry whose context matches the
 *    route; otherwise the odsInstanceId claim, else the first odsInstances entry;
 * 3. the instance's connection string from the admin instance table, decrypted when encrypted;
 * 4. the data store that connection string names.
 */
export class StoreResolver {
  /** Decrypted connection strings by stored value: a changed table entry is decrypted afresh. */
  private readonly plain = new Map<string, string>();

  private constructor(
    private readonly config: RosteringConfig,
    private readonly stores: StoreRegistry,
    private readonly single: AdminDatabase | undefined,
    private readonly tenants: Map<string, AdminDatabase>,
  ) {}

  /** Opens every configured admin database, so a bad one fails at start. */
  static async create(config: RosteringConfig, stores: StoreRegistry, admins = new AdminDatabases()): Promise<StoreResolver> {
    const open = async (variable: string, connection: string) => {
      try {
        return await admins.get(connection);
      } catch (err) {
        if (err instanceof AdminDatabaseError) throw new RosteringConfigError(variable, err.message);
        throw err;
      }
    };
    const single = config.adminConnection ? await open('CONNECTION_CONFIG', config.adminConnection) : undefined;
    const tenants = new Map<string, AdminDatabase>();
    for (const [key, t] of config.tenants) tenants.set(key, await open('TENANTS_CONNECTION_CONFIG', t.adminConnection));
    return new StoreResolver(config, stores, single, tenants);
  }

  resolve(route: RosterRoute, caller: Caller): DataStore {
    let admin = this.single;
    if (this.config.multiTenancy) {
      const tenant = route.tenant!;
      if (!caller.tenantId || caller.tenantId.toLowerCase() !== tenant.toLowerCase()) throw unauthorized();
      admin = this.tenants.get(tenant.toLowerCase());
      if (!admin) throw new RosterError(404, 'The requested resource was not found.');
    }
    const instanceId = this.instanceId(route, caller, admin!);
    const row = admin!.instance(instanceId);
    if (!row || !row.ConnectionString) throw new RosterError(404, 'The specified data could not be found.');
    let plain = this.plain.get(row.ConnectionString);
    if (plain === undefined) {
      // A decryption failure is a server fault (500 with no detail), never an echo of the value.
      plain = readConnectionString(row.ConnectionString, this.config.encryptionKey);
      this.plain.set(row.ConnectionString, plain);
    }
    return this.stores.open(plain);
  }

  private instanceId(route: RosterRoute, caller: Caller, admin: AdminDatabase): number {
    const context = this.config.context;
    if (!context) {
      const id = caller.odsInstanceId ?? caller.odsInstances[0]?.id;
      if (id === undefined) throw new RosterError(404, 'The specified data could not be found.');
      return id;
    }
    if (route.contextMissing) throw new RosterError(400, 'Required context parameter is missing from the request');
    const value = route.context!;
    if (caller.odsInstances.length) {
      const hit = caller.odsInstances.find((i) => i.context?.key === context.name && i.context.value === value);
      if (!hit) throw new RosterError(401, 'Not authorized to access the requested resource', 'unauthorized');
      return hit.id;
    }
    // No odsInstances claim: an odsInstanceId claim is honoured only for an instance whose
    // admin-table context matches the route (upstream trusts it blindly; we do not widen access).
    if (caller.odsInstanceId === undefined) throw new RosterError(404, 'The specified data could not be found.');
    const matches = admin.contexts(caller.odsInstanceId).some((c) => c.ContextKey === context.name && c.ContextValue === value);
    if (!matches) throw new RosterError(401, 'Not authorized to access the requested resource', 'unauthorized');
    return caller.odsInstanceId;
  }
}
