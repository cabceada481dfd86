import type { CompiledModel } from '../../spec/model/compiled.js';
import { Persistence, type PersistenceOptions } from './persistence.js';
import { ConfigurationError } from '../config/configuration-error.js';
import { DataStore } from './store.js';

/** A connection string naming no store this reference has. */
export class UnsupportedConnectionString extends ConfigurationError {}

/**
 * Data stores by connection string, opened once and shared by every server in the process, so
 * that the rostering service reads exactly what the data API writes (decisions #25).
 * Connection strings: `memory:<name>` (in memory only) and `file:<path>` (in memory, made
 * durable by a journal and a state file at that path, see persistence.ts). Unknown schemes are
 * refused.
 */
export class StoreRegistry {
  private readonly stores = new Map<string, DataStore>();
  private readonly persistences: Persistence[] = [];

  constructor(readonly model: CompiledModel, private readonly options: PersistenceOptions = {}) {}

  open(connectionString: string): DataStore {
    const existing = this.stores.get(connectionString);
    if (existing) return existing;
    const colon = connectionString.indexOf(':');
    const scheme = connectionString.slice(0, colon);
    const rest = connectionString.slice(colon + 1);
    if ((scheme !== 'memory' && scheme !== 'file') || !rest) throw new UnsupportedConnectionString(`unsupported data-store connection string '${scheme}:…' (use memory:<name> or file:<path>)`);
    const store = new DataStore(this.model);
    if (scheme === 'file') {
      this.persistences.push(Persistence.open(rest, store, this.options));
    }
    this.stores.set(connectionString, store);
    return store;
  }

  /** Compacts every durable store (clean shutdown). */
  async flush(): Promise<void> {
    await Promise.all(this.persistences.map((p) => p.flush()));
  }
}
