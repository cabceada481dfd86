import type { Transformer } from './proxy.js';

/**
 * A deployment `roundTripMs` away: the proxy holds each request for half the round trip before
 * forwarding it, and each answer for the other half before sending it back (issue #24 point 5:
 * "a 40 ms proxy"). It changes nothing else. Connection set-up is not delayed: clients keep
 * their connections alive, and each test pays the round trip per exchange.
 */
export function latency(roundTripMs: number): Transformer {
  const half = () => new Promise<void>((resolve) => setTimeout(resolve, roundTripMs / 2));
  return { request: half, response: half };
}
