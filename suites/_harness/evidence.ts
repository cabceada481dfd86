import type { HttpResponse } from './http.js';
import type { Exchange } from './reporter/types.js';

/**
 * What a test sent and received, kept so that a failure can be shown and replayed. Credentials
 * are redacted here, before anything is written anywhere.
 */
const MAX_BODY = 4000;

export function redactHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) out[k] = /^(authorization|cookie)$/i.test(k) ? v.replace(/^(\S+)\s.*$/, '$1 <redacted>') : v;
  return out;
}

export async function exchangeOf(method: string, url: string, headers: Record<string, string>, body: string | undefined, res: HttpResponse): Promise<Exchange> {
  let text: string | undefined;
  try { text = (await res.text()).slice(0, MAX_BODY); } catch { text = undefined; }
  const responseHeaders: Record<string, string> = {};
  for (const { name, value } of res.headersArray()) if (!/^(date|connection|keep-alive)$/i.test(name)) responseHeaders[name] = value;
  return {
    method, url, requestHeaders: redactHeaders(headers),
    ...(body !== undefined ? { requestBody: body.slice(0, MAX_BODY) } : {}),
    status: res.status(), responseHeaders,
    ...(text ? { responseBody: text } : {}),
  };
}

/** A curl command replaying one exchange; a bearer token becomes `$TOKEN`, Basic `$CREDENTIALS`. */
export function curlOf(e: Exchange): string {
  const q = (s: string) => `'${s.replace(/'/g, "'\\''")}'`;
  const parts = ['curl', '-i', '-X', e.method, q(e.url)];
  for (const [k, v] of Object.entries(e.requestHeaders)) {
    if (/^authorization$/i.test(k)) parts.push('-H', /^bearer/i.test(v) ? '"Authorization: Bearer $TOKEN"' : '"Authorization: Basic $CREDENTIALS"');
    else parts.push('-H', q(`${k}: ${v}`));
  }
  if (e.requestBody !== undefined) parts.push('--data-binary', q(e.requestBody));
  return parts.join(' ');
}
