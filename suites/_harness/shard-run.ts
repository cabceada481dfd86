import { httpClient } from './http.js';
import { DataClient } from './fixtures.js';
import { target } from './target.js';
import { DETAIL_MAX, shardMarkers } from './shard-markers.js';
import { awaitFollowers, awaitLeader, clearMarkers, joinWaitMs, publish, realClock, register, type Clock, type MarkerStore, type Presence } from './shards.js';
import type { RosteringRun, RosteringShare, SharedRostering } from '../rostering/_support/setup.js';

/** What shard 1 tells the others of the rostering data (none when the run has no rostering), within a marker's DETAIL_MAX: longer texts are cut. */
export function sharedDetail(run: RosteringRun | undefined): string {
  const full: SharedRostering = { ...(run?.taken && Object.keys(run.taken).length ? { taken: run.taken } : {}), ...(run?.withheldFlows ? { withheldFlows: run.withheldFlows } : {}) };
  for (const width of [Infinity, 120, 60, 20]) {
    const cut = (o: Record<string, string | undefined> | undefined) => o && Object.fromEntries(Object.entries(o).map(([k, v]) => [k, (v ?? '').length > width ? `${(v ?? '').slice(0, width)}…` : v]));
    const text = JSON.stringify({ ...(full.taken ? { taken: cut(full.taken) } : {}), ...(full.withheldFlows ? { withheldFlows: cut(full.withheldFlows) } : {}) });
    if (text.length <= DETAIL_MAX) return text;
  }
  return JSON.stringify({ taken: Object.fromEntries(Object.keys(full.taken ?? {}).map((k) => [k, 'held'])) }).slice(0, DETAIL_MAX);
}

/**
 * One shard's part in a run shared by shards at the same time (shards.ts), in the global set-up
 * and teardown: shard 1 leads, the others follow.
 */
export class ShardRun {
  private presence?: Presence;
  private readyAt = 0;

  private constructor(
    readonly shard: { base: string; current: number; total: number },
    private readonly store: MarkerStore,
    /** For rosteringSetup: the seed every shard computes the data with; a follower's replay. */
    readonly rostering: RosteringShare,
    private readonly dispose: () => Promise<void>,
    private readonly clock: Clock,
  ) {}

  get leads(): boolean {
    return this.shard.current === 1;
  }

  /** Before any write of this shard: a follower waits for shard 1's word (what it wrote, or that it could not). */
  static async begin(shard: { base: string; current: number; total: number }, token: string, clock: Clock = realClock, store?: MarkerStore): Promise<ShardRun> {
    const request = httpClient();
    const markers = store ?? shardMarkers(new DataClient(request, target, token, []), target.testData.namespacePrefix, shard.base);
    const seed = shard.base.slice(-6);
    const dispose = () => request.dispose();
    if (shard.current === 1) return new ShardRun(shard, markers, { seed }, dispose, clock);
    const wait = joinWaitMs();
    console.log(`shard ${shard.current} of ${shard.total} (run ${shard.base}): waiting for shard 1's set-up (at most ${wait / 1000} s)`);
    const leader = await awaitLeader(markers, clock, wait);
    const why = !leader ? `shard 1 of this run (${shard.base}) gave no word within ${wait / 1000} s (CONFORMANCE_SHARD_WAIT), so this shard has no rostering data`
      : leader.state === 'unavailable' ? `shard 1 of this run (${shard.base}) could not write the rostering data: ${leader.detail}` : undefined;
    if (why) console.log(why);
    return new ShardRun(shard, markers, { seed, replay: why ?? (JSON.parse(leader!.detail || '{}') as SharedRostering) }, dispose, clock);
  }

  /** Once this shard's set-up is done: shard 1 says so to the others, with what it found; another shard registers. */
  async started(run: RosteringRun | undefined): Promise<void> {
    if (this.leads) {
      await publish(this.store, 'ready', sharedDetail(run));
      this.readyAt = this.clock.now();
    } else {
      this.presence = await register(this.store, this.shard.current);
    }
  }

  /**
   * This shard's set-up failed. Shard 1's word stays for the others, who learn it at once instead
   * of waiting (its marker is in its ledger: the next run, or `npm run cleanup`, removes it);
   * another shard leaves.
   */
  async failed(err: unknown): Promise<void> {
    try {
      if (this.leads) await publish(this.store, 'unavailable', ((err as Error).message ?? String(err)).split('\n')[0].slice(0, DETAIL_MAX)).catch(() => undefined);
      else await this.presence?.leave().catch(() => undefined);
    } finally {
      await this.dispose();
    }
  }

  /** Shard 1, before deleting the shared data: every other shard has ended, been killed or never came. */
  async awaitOthers(): Promise<void> {
    if (!this.leads) return;
    console.log(`teardown: waiting for the other ${this.shard.total - 1} shard(s) of run ${this.shard.base}`);
    const o = await awaitFollowers(this.store, this.clock, this.shard.total, { readyAt: this.readyAt, joinMs: joinWaitMs() });
    const said = [o.stale.length ? `shard ${o.stale.join(', ')} stopped answering (killed?)` : '', o.absent.length ? `shard ${o.absent.join(', ')} never started` : ''].filter(Boolean);
    console.log(`teardown: ${o.done.length} other shard(s) done${said.length ? `; ${said.join('; ')}: the merged report says so` : ''}`);
  }

  /** The end: a follower marks itself done (shard 1 deletes the marker), or leaves when shard 1 wrote nothing; shard 1 deletes every marker. */
  async end(): Promise<void> {
    try {
      if (this.leads) await clearMarkers(this.store);
      else if (typeof this.rostering.replay === 'string') await this.presence?.leave();
      else await this.presence?.done();
    } finally {
      await this.dispose();
    }
  }
}
