import { Problem } from './problems.js';

/**
 * A token bucket per client: `burst` requests at once, refilled at `requestsPerSecond`. Over
 * the limit a request gets 429 with a Retry-After header, before any work is done for it.
 */
export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(private readonly limit: { requestsPerSecond: number; burst: number }) {}

  take(client: string, now = Date.now()): void {
    const b = this.buckets.get(client) ?? { tokens: this.limit.burst, at: now };
    b.tokens = Math.min(this.limit.burst, b.tokens + ((now - b.at) / 1000) * this.limit.requestsPerSecond);
    b.at = now;
    this.buckets.set(client, b);
    if (b.tokens < 1) {
      const wait = Math.ceil((1 - b.tokens) / this.limit.requestsPerSecond);
      throw new Problem('too-many-requests', { errors: [`Client '${client}' exceeded ${this.limit.requestsPerSecond} requests per second.`] }, { 'Retry-After': String(wait) });
    }
    b.tokens -= 1;
  }
}
