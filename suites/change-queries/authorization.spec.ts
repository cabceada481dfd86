import { test, expect } from '../_harness/data.js';
import { deletesOf, since } from '../_harness/changes.js';
import { rule } from '../_harness/rules.js';

/** The feeds list only what the caller may see (needs the school-limited client). */
test.describe('GET /core/<resource>/deletes for a relationship-based caller', () => {
  test('does not list the deletion of a record outside the caller\'s claims', rule('data.change-queries.deletes-authorization-filtered'), async ({ api, as, data }) => {
    const client = as('schoolLimited');
    const window = await since(api);
    const period = await data.create('classPeriod');
    expect((await api.delete(period.url)).status()).toBe(204);
    expect((await deletesOf(api, 'classPeriods', window)).map((i) => i.id)).toContain(period.id);
    expect((await deletesOf(client, 'classPeriods', window)).map((i) => i.id)).not.toContain(period.id);
  });
});
