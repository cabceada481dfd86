/**
 * `npm run cleanup` (with TARGET=<target file>, as for a run; CONFORMANCE_REPORTS_DIR or
 * CONFORMANCE_LEDGER_DIR where the runs kept their ledger): removes what earlier runs of the
 * suites created on that deployment and left behind (a killed run, a refused cleanup), found by
 * their run ids in the ledger (ledger.ts), and says what it removed. Runs still in progress are
 * left alone. Every run does the same at its start, so this is for a deployment that must be
 * left clean now.
 *
 * Then the rostering data an earlier run left holding the target's reserved organization ids,
 * found without a ledger (earlier-worlds.ts): a run killed on a machine that kept no ledger (an
 * ephemeral CI runner, a killed shard 1). Do not run it while a run on another machine is
 * writing to the deployment: its data would look left behind. Exit 0 when nothing of the
 * target's is left, 1 otherwise.
 */
import { httpClient } from '../http.js';
import { decideStandardOnce } from '../standard-decision.js';
import { target, targetFile } from '../target.js';

const ctx = httpClient();
try {
  // The rostering data is computed again in the standard the deployment serves: decided before
  // the modules that read the judged model are loaded (judged-model.ts reads the decision once).
  const standard = await decideStandardOnce(target, undefined);
  const { LEDGER_DIR, remaining, runsInProgress, unsettled } = await import('../ledger.js');
  const { describeRemoval, removeLeftovers, targetDataApis } = await import('../leftovers.js');
  const { removeEarlierRostering } = await import('../../rostering/_support/earlier-worlds.js');
  const before = [...remaining().values(), ...unsettled().values()].reduce((n, urls) => n + urls.length, 0);
  const { dataApis, tokenFor } = targetDataApis(ctx);
  const removal = await removeLeftovers(ctx, dataApis, tokenFor);
  console.log(`cleanup of ${targetFile} (${dataApis.join(', ')}), ledger ${LEDGER_DIR}:`);
  console.log(`  ${describeRemoval(removal) ?? `nothing to remove (${before ? `${before} records of runs in progress or of other targets` : 'no records left by earlier runs'})`}`);
  if (removal.elsewhere) console.log(`  ${removal.elsewhere} records of other data APIs left alone (their target's cleanup removes them)`);
  for (const f of removal.failed) console.log(`  not removed: ${f}`);
  const earlier = await removeEarlierRostering(ctx, tokenFor, { runsInProgress: runsInProgress() });
  if (earlier?.seeds.length) {
    console.log(`  rostering data of earlier runs holding the reserved organization ids (runs …${earlier.seeds.join(', …')}, computed in Data Standard ${standard.standard ?? '?'}): removed ${earlier.removed} records, ${earlier.absent} already gone${earlier.failed.length ? `, ${earlier.failed.length} could not be removed` : ''}`);
  }
  if (earlier?.inProgress.length) console.log(`  rostering data of runs still in progress here left alone (runs …${earlier.inProgress.join(', …')})`);
  for (const f of earlier?.failed ?? []) console.log(`  not removed: ${f}`);
  process.exitCode = removal.failed.length || earlier?.failed.length ? 1 : 0;
} catch (err) {
  console.error(`cleanup failed: ${(err as Error).message.split('\n')[0]}`);
  process.exitCode = 1;
} finally {
  await ctx.dispose();
}
