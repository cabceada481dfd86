import type { CompiledModel } from '../../spec/model/compiled.js';
import type { Settings } from '../config/load.js';
import type { Principal } from '../security/bearer.js';
import type { DataStore } from '../store/store.js';
import type { RequestValidator } from './validator.js';

/** What every data-API handler works with. */
export interface DataApi {
  settings: Settings;
  model: CompiledModel;
  store: DataStore;
  validator: RequestValidator;
  authenticate: (ctx: import('koa').Context) => Promise<Principal>;
}
