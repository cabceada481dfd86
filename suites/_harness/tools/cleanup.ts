/**
 * `npm run cleanup` (with TARGET=<target file>, as for a run; CONFORMANCE_REPORTS_DIR or
 * CONFORMANCE_LEDGER_DIR where the runs kept their ledger): removes what earlier runs of the
 * suites created on that deployment and left behind (a killed run, a refused cleanup), found by
 * their run ids in the ledger (ledger.ts), and says what it removed. Runs still in progress are
 * left alone. Every run does the same at its start, so this is for a deployment that must be
 * left clean now. Exit 0 when nothing of the target's is left, 1 otherwise.
 */
import { httpClient } from '../http.js';
import { LEDGER_DIR, remaining, unsettled } from '../ledger.js';
import { describeRemoval, removeLeftovers, targetDataApis } from '../leftovers.js';
import { targetFile } from '../target.js';

const ctx = httpClient();
try {
  const before = [...remaining().values(), ...unsettled().values()].reduce((n, urls) => n + urls.length, 0);
  const { dataApis, tokenFor } = targetDataApis(ctx);
  const removal = await removeLeftovers(ctx, dataApis, tokenFor);
  console.log(`cleanup of ${targetFile} (${dataApis.join(', ')}), ledger ${LEDGER_DIR}:`);
  console.log(`  ${describeRemoval(removal) ?? `nothing to remove (${before ? `${before} records of runs in progress or of other targets` : 'no records left by earlier runs'})`}`);
  if (removal.elsewhere) console.log(`  ${removal.elsewhere} records of other data APIs left alone (their target's cleanup removes them)`);
  for (const f of removal.failed) console.log(`  not removed: ${f}`);
  process.exitCode = removal.failed.length ? 1 : 0;
} catch (err) {
  console.error(`cleanup failed: ${(err as Error).message.split('\n')[0]}`);
  process.exitCode = 1;
} finally {
  await ctx.dispose();
}
