import { Problem } from './problems.js';

export interface Rate { requestsPerSecond: number; burst: number }

/** Milliseconds since some fixed point: `Date.now` in service, a counter in tests. */
export type Clock = () => number;

/**
 * Token buckets by key (a client, a client key, a source address): `burst` at once, refilled at
 * `requestsPerSecond`. Keys may come from callers (an unknown client key, an address), so the
 * number kept is bounded: the oldest are forgotten first, which at worst lets one of them start
 * with a full bucket again. Time comes from the clock given, so tests can step it.
 */
export class Buckets {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(readonly rate: Rate, private readonly clock: Clock = Date.now, private readonly maxKeys = 10_000) {}

  /** Whole seconds until a request under this key may pass; 0 when it may pass now. */
  wait(key: string): number {
    const b = this.refill(key);
    return b.tokens >= 1 ? 0 : Math.ceil((1 - b.tokens) / this.rate.requestsPerSecond);
  }

  /** Whether anything was counted under this key that has not yet refilled. */
  counted(key: string): boolean {
    return this.buckets.has(key) && this.refill(key).tokens < this.rate.burst;
  }

  /** Counts one request (or one failure) under this key. */
  take(key: string): void {
    const b = this.refill(key);
    b.tokens = Math.max(b.tokens - 1, -this.rate.burst);
    this.buckets.delete(key);
    this.buckets.set(key, b);
    if (this.buckets.size > this.maxKeys) this.buckets.delete(this.buckets.keys().next().value as string);
  }

  /** Gives back what `take` counted, when what it counted turned out not to count (a right secret after all). */
  give(key: string): void {
    if (this.buckets.has(key)) {
      const b = this.refill(key);
      b.tokens = Math.min(this.rate.burst, b.tokens + 1);
    }
  }

  private refill(key: string): { tokens: number; at: number } {
    const now = this.clock();
    const b = this.buckets.get(key) ?? { tokens: this.rate.burst, at: now };
    b.tokens = Math.min(this.rate.burst, b.tokens + (Math.max(0, now - b.at) / 1000) * this.rate.requestsPerSecond);
    b.at = now;
    return b;
  }
}

/**
 * A token bucket per client: `burst` requests at once, refilled at `requestsPerSecond`. Over
 * the limit a request gets 429 with a Retry-After header, before any work is done for it.
 */
export class RateLimiter {
  private readonly buckets: Buckets;

  constructor(private readonly limit: Rate, clock: Clock = Date.now) {
    this.buckets = new Buckets(limit, clock);
  }

  take(client: string): void {
    const wait = this.buckets.wait(client);
    if (wait) throw new Problem('too-many-requests', { errors: [`Client '${client}' exceeded ${this.limit.requestsPerSecond} requests per second.`] }, { 'Retry-After': String(wait) });
    this.buckets.take(client);
  }
}
