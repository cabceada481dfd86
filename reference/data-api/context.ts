import type { CompiledModel } from '../../spec/model/compiled.js';
import type { Settings } from '../config/load.js';
import type { Action, Authorizer } from '../security/authorization.js';
import type { Principal } from '../security/bearer.js';
import type { DataStore } from '../store/store.js';
import type { RequestValidator } from './validator.js';

/** What every data-API handler works with. */
export interface DataApi {
  settings: Settings;
  model: CompiledModel;
  store: DataStore;
  validator: RequestValidator;
  /** The caller, at once for a token already verified, else once its signature is checked. */
  authenticate: (ctx: import('koa').Context) => Principal | Promise<Principal>;
  authorizer: Authorizer;
}

/** The caller of the current request (set once authenticated). */
export const principalOf = (ctx: import('koa').Context): Principal => ctx.state.principal as Principal;

/** Resource-level, then document-level authorization of one action (403s). */
export function authorize(api: DataApi, ctx: import('koa').Context, resource: import('../../spec/model/compiled.js').CompiledResource, action: Action, ...docs: Record<string, unknown>[]): void {
  const { client } = principalOf(ctx);
  api.authorizer.checkAction(client, resource, action);
  for (const doc of docs) api.authorizer.checkDocument(api.store, client, resource, doc, action);
}
