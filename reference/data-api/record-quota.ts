import type { Context } from 'koa';
import { Problem } from '../http/problems.js';
import { principalOf, type DataApi } from './context.js';

/**
 * A client's record quota (configuration `recordQuota`, per client or for all): a create beyond
 * it is refused with 403 `record-quota-exceeded`, so that one client cannot fill the store's
 * memory. Only creates count; an update or a delete is never refused by it, and a delete frees
 * one. Checked last before the create, after every check a client can act on.
 */
export function checkRecordQuota(api: DataApi, ctx: Context): void {
  const { client } = principalOf(ctx);
  if (client.recordQuota === undefined || api.store.recordsOwnedBy(client.key) < client.recordQuota) return;
  throw new Problem('record-quota-exceeded', {
    errors: [`The API client '${client.key}' holds ${client.recordQuota} records, the most this host lets it keep: delete records it no longer needs before creating others.`],
  });
}
