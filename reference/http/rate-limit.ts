import { Problem } from './problems.js';

export interface Rate { requestsPerSecond: number; burst: number }

/**
 * Token buckets by key (a client, a client key, a source address): `burst` at once, refilled at
 * `requestsPerSecond`. Keys may come from callers (an unknown client key, an address), so the
 * number kept is bounded: the oldest are forgotten first, which at worst lets one of them start
 * with a full bucket again.
 */
export class Buckets {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(readonly rate: Rate, private readonly maxKeys = 10_000) {}

  /** Whole seconds until a request under this key may pass; 0 when it may pass now. */
  wait(key: string, now = Date.now()): number {
    const b = this.refill(key, now);
    return b.tokens >= 1 ? 0 : Math.ceil((1 - b.tokens) / this.rate.requestsPerSecond);
  }

  /** Counts one request (or one failure) under this key. */
  take(key: string, now = Date.now()): void {
    const b = this.refill(key, now);
    b.tokens = Math.max(b.tokens - 1, -this.rate.burst);
    this.buckets.delete(key);
    this.buckets.set(key, b);
    if (this.buckets.size > this.maxKeys) this.buckets.delete(this.buckets.keys().next().value as string);
  }

  private refill(key: string, now: number): { tokens: number; at: number } {
    const b = this.buckets.get(key) ?? { tokens: this.rate.burst, at: now };
    b.tokens = Math.min(this.rate.burst, b.tokens + ((now - b.at) / 1000) * this.rate.requestsPerSecond);
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

  constructor(private readonly limit: Rate) {
    this.buckets = new Buckets(limit);
  }

  take(client: string, now = Date.now()): void {
    const wait = this.buckets.wait(client, now);
    if (wait) throw new Problem('too-many-requests', { errors: [`Client '${client}' exceeded ${this.limit.requestsPerSecond} requests per second.`] }, { 'Retry-After': String(wait) });
    this.buckets.take(client, now);
  }
}
