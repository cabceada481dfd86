import type { Transformer } from './proxy.js';

/** A Transformer that also counts the exchanges it held, by method. */
export interface LatencyTransformer extends Transformer {
  exchanges: Map<string, number>;
}

/**
 * A deployment `roundTripMs` away, exchange by exchange: the deviating proxy holds each request
 * for half the round trip before forwarding it, and each answer for the other half before
 * sending it back. It changes nothing else; connection set-up is not delayed. The killed-run
 * acceptance uses it, since it watches each exchange as the deployment answers it; the remote
 * certification (--remote-latency) goes through the cheaper delay-proxy.ts instead. The
 * exchanges are counted by method.
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
