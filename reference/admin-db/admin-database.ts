import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { Low, Memory } from 'lowdb';
import { JSONFile } from 'lowdb/node';
import { ConfigurationError } from '../config/configuration-error.js';
import { encryptConnectionString } from './connection-string-crypto.js';

/**
 * The admin database: the data-store instance table and its contexts, with the upstream table
 * and column names (research/rostering.md §8). Kept in a lowdb JSON file, or in memory.
 *
 * Admin connection strings:
 * - `memory:default` — in memory, holding instance 1 (`default`) whose connection string names
 *   the data store the data API writes (`memory:default` unless told otherwise);
 * - `memory:<name>` — in memory, empty;
 * - `file:<path>` (or a path ending in `.json`) — a lowdb JSON file that must exist.
 */
export interface OdsInstanceRow {
  OdsInstanceId: number;
  Name: string;
  InstanceType?: string | null;
  /** Plain, or encrypted as `base64(iv)|base64(ciphertext)|base64(hmac)` (decisions #26). */
  ConnectionString: string;
}

export interface OdsInstanceContextRow {
  OdsInstanceContextId: number;
  OdsInstance_OdsInstanceId: number;
  ContextKey: string;
  ContextValue: string;
}

export interface AdminData {
  OdsInstances: OdsInstanceRow[];
  OdsInstanceContexts: OdsInstanceContextRow[];
}

export class AdminDatabaseError extends ConfigurationError {}

export class AdminDatabase {
  private byId = new Map<number, OdsInstanceRow>();

  private constructor(readonly connection: string, private readonly db: Low<AdminData>) {
    this.index();
  }

  /** Opens (and reads) the admin database an admin connection string names. */
  static async open(connection: string, defaultStore = 'memory:default'): Promise<AdminDatabase> {
    const c = connection.trim();
    if (c.startsWith('memory:')) {
      const data: AdminData = c === 'memory:default'
        ? { OdsInstances: [{ OdsInstanceId: 1, Name: 'default', InstanceType: null, ConnectionString: defaultStore }], OdsInstanceContexts: [] }
        : { OdsInstances: [], OdsInstanceContexts: [] };
      return new AdminDatabase(c, new Low(new Memory<AdminData>(), data));
    }
    const path = c.startsWith('file:') ? c.slice('file:'.length) : c.endsWith('.json') ? c : undefined;
    if (!path) throw new AdminDatabaseError(`unsupported admin connection '${c.split(':', 1)[0]}:…' (use memory:<name> or file:<path>)`);
    const file = resolve(path);
    if (!existsSync(file)) throw new AdminDatabaseError(`admin database file ${file} does not exist`);
    const db = new Low<AdminData>(new JSONFile<AdminData>(file), { OdsInstances: [], OdsInstanceContexts: [] });
    try {
      await db.read();
    } catch (err) {
      throw new AdminDatabaseError(`admin database file ${file} is not JSON: ${(err as Error).message}`);
    }
    check(db.data, file);
    return new AdminDatabase(c, db);
  }

  instances(): readonly OdsInstanceRow[] { return this.db.data.OdsInstances; }

  instance(id: number): OdsInstanceRow | undefined { return this.byId.get(id); }

  contexts(instanceId: number): OdsInstanceContextRow[] {
    return this.db.data.OdsInstanceContexts.filter((c) => c.OdsInstance_OdsInstanceId === instanceId);
  }

  /**
   * Adds an instance (and its contexts), storing the connection string encrypted when a key is
   * given, and writes the database back. Returns the new row.
   */
  async addInstance(opts: { name: string; connectionString: string; instanceType?: string; contexts?: Record<string, string>; encryptionKey?: Buffer }): Promise<OdsInstanceRow> {
    const data = this.db.data;
    const row: OdsInstanceRow = {
      OdsInstanceId: Math.max(0, ...data.OdsInstances.map((i) => i.OdsInstanceId)) + 1,
      Name: opts.name,
      InstanceType: opts.instanceType ?? null,
      ConnectionString: opts.encryptionKey ? encryptConnectionString(opts.connectionString, opts.encryptionKey) : opts.connectionString,
    };
    data.OdsInstances.push(row);
    let next = Math.max(0, ...data.OdsInstanceContexts.map((c) => c.OdsInstanceContextId));
    for (const [key, value] of Object.entries(opts.contexts ?? {})) {
      data.OdsInstanceContexts.push({ OdsInstanceContextId: ++next, OdsInstance_OdsInstanceId: row.OdsInstanceId, ContextKey: key, ContextValue: value });
    }
    await this.db.write();
    this.index();
    return row;
  }

  /** Re-reads a file-backed database (after an outside edit). */
  async reload(): Promise<void> {
    await this.db.read();
    check(this.db.data, this.connection);
    this.index();
  }

  private index(): void {
    this.byId = new Map(this.db.data.OdsInstances.map((i) => [i.OdsInstanceId, i]));
  }
}

function check(data: unknown, where: string): asserts data is AdminData {
  const d = data as Partial<AdminData> | null;
  const ok = !!d && typeof d === 'object'
    && Array.isArray(d.OdsInstances) && d.OdsInstances.every((i) => Number.isInteger(i?.OdsInstanceId) && typeof i.ConnectionString === 'string')
    && (d.OdsInstanceContexts === undefined || (Array.isArray(d.OdsInstanceContexts) && d.OdsInstanceContexts.every((c) => Number.isInteger(c?.OdsInstance_OdsInstanceId) && typeof c.ContextKey === 'string' && typeof c.ContextValue === 'string')));
  if (!ok) throw new AdminDatabaseError(`admin database ${where} must hold OdsInstances [{OdsInstanceId, Name, ConnectionString}] and OdsInstanceContexts [{OdsInstance_OdsInstanceId, ContextKey, ContextValue}]`);
  d.OdsInstanceContexts ??= [];
}

/**
 * Admin databases by admin connection string, opened once per process and shared, so that the
 * data API and the rostering service see the same instance table.
 */
export class AdminDatabases {
  private readonly open = new Map<string, Promise<AdminDatabase>>();

  /** `defaultStore`: the data-store connection string instance 1 of `memory:default` names. */
  constructor(private readonly defaultStore = 'memory:default') {}

  get(connection: string): Promise<AdminDatabase> {
    const key = connection.trim();
    let db = this.open.get(key);
    if (!db) {
      db = AdminDatabase.open(key, this.defaultStore);
      this.open.set(key, db);
      db.catch(() => this.open.delete(key));
    }
    return db;
  }
}
