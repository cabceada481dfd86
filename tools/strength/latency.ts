import type { Transformer } from './proxy.js';

/** A Transformer that also counts the exchanges it held, by method. */
export interface LatencyTransformer extends Transformer {
  exchanges: Map<string, number>;
}

/**
 * A deployment `roundTripMs` away: the proxy holds each request for half the round trip before
 * forwarding it, and each answer for the other half before sending it back (issue #24 point 5:
 * "a 40 ms proxy"). It changes nothing else. Connection set-up is not delayed: clients keep
 * their connections alive, and each test pays the round trip per exchange. The exchanges are
 * counted by method: what a distant run pays is round trips.
 */
export function latency(roundTripMs: number): LatencyTransformer {
  const half = () => new Promise<void>((resolve) => setTimeout(resolve, roundTripMs / 2));
  const exchanges = new Map<string, number>();
  return {
    exchanges,
    request: (req) => { exchanges.set(req.method, (exchanges.get(req.method) ?? 0) + 1); return half(); },
    response: half,
  };
}
