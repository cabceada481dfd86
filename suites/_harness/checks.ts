import type { HttpResponse } from './http.js';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { expect } from './expect.js';
import type { ProblemBody } from './problem.js';

/** Small assertion and request helpers shared by the data-API suites. */

/** Every message of a problem body: detail, errors and validationErrors values. */
export function messagesOf(body: ProblemBody): string[] {
  return [body.detail, ...(body.errors ?? []), ...Object.values(body.validationErrors ?? {}).flat()].filter((m): m is string => typeof m === 'string');
}

/**
 * `actual` holds everything `expected` holds: objects member by member (extra members allowed),
 * arrays as unordered collections of the same length, scalars by value and JSON type.
 */
export function contains(actual: unknown, expected: unknown, path = '$'): string[] {
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return [`${path}: expected an array, got ${JSON.stringify(actual)}`];
    if (actual.length !== expected.length) return [`${path}: expected ${expected.length} items, got ${actual.length}`];
    const unused = [...actual];
    const problems: string[] = [];
    expected.forEach((item, i) => {
      const at = unused.findIndex((a) => contains(a, item).length === 0);
      if (at < 0) problems.push(`${path}[${i}]: no returned item matches ${JSON.stringify(item)}`);
      else unused.splice(at, 1);
    });
    return problems;
  }
  if (expected && typeof expected === 'object') {
    if (!actual || typeof actual !== 'object' || Array.isArray(actual)) return [`${path}: expected an object, got ${JSON.stringify(actual)}`];
    return Object.entries(expected).flatMap(([k, v]) => contains((actual as Record<string, unknown>)[k], v, `${path}.${k}`));
  }
  return actual === expected ? [] : [`${path}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`];
}

/** Paths of null members anywhere in a JSON value. */
export function nullMembers(value: unknown, path = '$'): string[] {
  if (value === null) return [path];
  if (Array.isArray(value)) return value.flatMap((v, i) => nullMembers(v, `${path}[${i}]`));
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => nullMembers(v, `${path}.${k}`));
  return [];
}

/** An id in the usual form that names no record. */
export const unknownId = () => [...Array(32)].map(() => Math.floor(Math.random() * 16).toString(16)).join('');

/** The response of a request sent byte for byte as given (no Content-Type or charset added). */
export interface RawResponse {
  url(): string;
  status(): number;
  headers(): Record<string, string>;
  text(): Promise<string>;
  json(): Promise<unknown>;
}

/** A raw response where the harness expects its client's (expectProblem reads only what both have). */
export const asResponse = (res: RawResponse): HttpResponse => res as unknown as HttpResponse;

/** Sends a request with exactly these headers and body bytes (the API client adds its own). */
export function raw(method: string, url: string, headers: Record<string, string>, body?: Buffer | string): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    const send = u.protocol === 'https:' ? httpsRequest : httpRequest;
    const data = body === undefined ? undefined : Buffer.isBuffer(body) ? body : Buffer.from(body, 'utf8');
    const req = send(u, { method, headers: { ...headers, ...(data ? { 'Content-Length': String(data.length) } : {}) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const hdrs: Record<string, string> = {};
        for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) hdrs[k] = Array.isArray(v) ? v.join(', ') : v;
        resolve({ url: () => url, status: () => res.statusCode ?? 0, headers: () => hdrs, text: async () => text, json: async () => JSON.parse(text) as unknown });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    if (data) req.write(data);
    req.end();
  });
}
