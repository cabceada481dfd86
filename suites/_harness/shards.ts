/**
 * Shards of one certification at the same time against one deployment (issue #24 point 2).
 *
 * The rostering data is written with the target's fixed organization ids (the clients' claims
 * name them), so two shards cannot each write their own. The shards of one run (one
 * CONFORMANCE_RUN_ID, run-id.ts) share it instead, and tell each other where they are through
 * markers on the deployment itself (shards may run on different machines, and the deployment is
 * all they share): descriptors in a namespace of the run's.
 *
 * - Shard 1 leads: it takes the store digest, writes the rostering data, then its marker
 *   (`shard-1`, state `ready`, or `unavailable` when its set-up failed) with what the others
 *   need to know of the data (ids the deployment held, flows withheld).
 * - Every other shard waits for that marker before writing anything (so the digest shard 1 took
 *   holds no shard's records), computes the same data from the run's id (world.ts), and registers
 *   (`shard-<i>`, `running`), beating every HEARTBEAT_MS while it runs, `done` at its end.
 * - At its end shard 1 waits until every other shard is done, stopped beating (killed), or never
 *   registered, then deletes the data and the markers; then its digest check.
 *
 * The markers are read and written through a MarkerStore, so the protocol is tested without a
 * deployment (tests/shards.test.ts), with a clock of its own.
 */

export const HEARTBEAT_MS = 10_000;
/** A shard whose beat the leader has not seen change for this long is taken as killed. */
export const STALE_MS = 60_000;
/** How long a shard waits for the leader's marker, and the leader for a shard to register (CONFORMANCE_SHARD_WAIT, seconds). */
export const joinWaitMs = (): number => Number(process.env.CONFORMANCE_SHARD_WAIT ?? 300) * 1000;

export type MarkerState = 'ready' | 'unavailable' | 'running' | 'done';

export interface Marker {
  /** `shard-<i>`. */
  code: string;
  state: MarkerState;
  /** The leader's published state (JSON), or a shard's beat count. */
  detail: string;
}

export interface MarkerStore {
  list(): Promise<Marker[]>;
  /** Creates the marker, or replaces the one with its code. */
  save(m: Marker): Promise<void>;
  remove(code: string): Promise<void>;
  /** A marker this shard made and leaves for the leader to delete: no longer this shard's to remove. */
  handOver?(code: string): void;
}

export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const realClock: Clock = { now: () => Date.now(), sleep: (ms) => new Promise((r) => setTimeout(r, ms)) };

export const markerCode = (shard: number) => `shard-${shard}`;

/** The leader's word to the others: its set-up went through (`ready`, with `detail`) or did not (`unavailable`, why). */
export async function publish(store: MarkerStore, state: 'ready' | 'unavailable', detail: string): Promise<void> {
  await store.save({ code: markerCode(1), state, detail });
}

/** A shard waits for the leader's marker; undefined when none came within `waitMs`. */
export async function awaitLeader(store: MarkerStore, clock: Clock, waitMs: number, pollMs = 1_000): Promise<Marker | undefined> {
  const until = clock.now() + waitMs;
  for (;;) {
    const leader = (await store.list()).find((m) => m.code === markerCode(1) && (m.state === 'ready' || m.state === 'unavailable'));
    if (leader) return leader;
    if (clock.now() >= until) return undefined;
    await clock.sleep(pollMs);
  }
}

/** A shard's presence: registered at once, beating until `done()` (which marks it done) or `leave()` (which removes it). */
export interface Presence {
  done(): Promise<void>;
  leave(): Promise<void>;
}

export async function register(store: MarkerStore, shard: number, every = HEARTBEAT_MS): Promise<Presence> {
  let beat = 0;
  const code = markerCode(shard);
  await store.save({ code, state: 'running', detail: String(beat) });
  let pending = Promise.resolve();
  const timer = setInterval(() => {
    // A beat lost (a slow answer) is only a beat: the next one carries on.
    pending = pending.then(() => store.save({ code, state: 'running', detail: String(++beat) })).catch(() => undefined);
  }, every);
  timer.unref();
  const stop = async () => { clearInterval(timer); await pending; };
  return {
    done: async () => { await stop(); await store.save({ code, state: 'done', detail: String(beat) }); store.handOver?.(code); },
    leave: async () => { await stop(); await store.remove(code); },
  };
}

export interface FollowersOutcome { done: number[]; stale: number[]; absent: number[] }

/**
 * The leader, at its end: waits until every other shard of `total` is done, has not beaten for
 * `staleMs` (killed), or has not registered `joinMs` after `readyAt` (never started). Returns which.
 */
export async function awaitFollowers(store: MarkerStore, clock: Clock, total: number, o: { readyAt: number; staleMs?: number; joinMs: number; pollMs?: number }): Promise<FollowersOutcome> {
  const staleMs = o.staleMs ?? STALE_MS;
  const seen = new Map<number, { detail: string; at: number }>();
  for (;;) {
    const markers = new Map((await store.list()).map((m) => [m.code, m]));
    const now = clock.now();
    const outcome: FollowersOutcome = { done: [], stale: [], absent: [] };
    let waiting = false;
    for (let shard = 2; shard <= total; shard++) {
      const m = markers.get(markerCode(shard));
      if (m?.state === 'done') { outcome.done.push(shard); continue; }
      if (m) {
        const last = seen.get(shard);
        if (!last || last.detail !== m.detail) seen.set(shard, { detail: m.detail, at: now });
        if (now - seen.get(shard)!.at >= staleMs) outcome.stale.push(shard);
        else waiting = true;
        continue;
      }
      if (now - o.readyAt >= o.joinMs) outcome.absent.push(shard);
      else waiting = true;
    }
    if (!waiting) return outcome;
    await clock.sleep(o.pollMs ?? 2_000);
  }
}

/** The leader's last step: every marker of the run goes (a killed shard's too). */
export async function clearMarkers(store: MarkerStore): Promise<void> {
  await Promise.all((await store.list()).map((m) => store.remove(m.code)));
}
