import type { HttpResponse } from './http.js';

/**
 * Sends again after a 429 (Retry-After, 1 to 10 s, at most three times). A deployment may
 * throttle failed credential or token checks per address or per key (the seed leaves it open):
 * such a 429 answers for how many refusals a test sends, not for the request. A 429 that does
 * not end still reaches the test, which then fails.
 */
export async function pastThrottle(send: () => Promise<HttpResponse>): Promise<HttpResponse> {
  for (let attempt = 0; ; attempt++) {
    const res = await send();
    if (res.status() !== 429 || attempt === 3) return res;
    const seconds = Math.min(Math.max(Number(res.headers()['retry-after']) || 1, 1), 10);
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  }
}
