import type { CompiledModel } from '../../spec/model/compiled.js';
import { DataStore } from './store.js';

/**
 * Data stores by connection string, opened once and shared by every server in the process, so
 * that the rostering service reads exactly what the data API writes (decisions #25).
 * Connection strings: `memory:<name>` (in memory). Unknown schemes are refused.
 */
export class StoreRegistry {
  private readonly stores = new Map<string, DataStore>();

  constructor(readonly model: CompiledModel) {}

  open(connectionString: string): DataStore {
    const existing = this.stores.get(connectionString);
    if (existing) return existing;
    const [scheme] = connectionString.split(':', 1);
    if (scheme !== 'memory') throw new Error(`unsupported data-store connection string scheme '${scheme}'`);
    const store = new DataStore(this.model);
    this.stores.set(connectionString, store);
    return store;
  }
}

/** The data store every single-instance deployment uses. */
export const DEFAULT_CONNECTION_STRING = 'memory:default';
