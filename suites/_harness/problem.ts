import type { HttpResponse } from './http.js';
import { readFileSync } from 'node:fs';
import { expect } from './expect.js';
import { Ajv } from 'ajv';
import { target } from './target.js';
import { check, declares } from './rules.js';
import { expectToBe } from './expect-once.js';

/** The problem-details schema of the interface description (spec/openapi/other.json, the same for every standard). */
const document = JSON.parse(readFileSync(new URL('../../spec/openapi/other.json', import.meta.url), 'utf8')) as {
  components: { schemas: { problemDetails: object } };
};
const validateProblem = new Ajv({ strict: false, allErrors: true }).compile(document.components.schemas.problemDetails);

const registry = JSON.parse(readFileSync(new URL('../../spec/errors/problem-types.json', import.meta.url), 'utf8')) as {
  problemTypes: { suffix: string; title: string; status: number }[];
};

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  correlationId: string;
  validationErrors?: Record<string, string[]>;
  errors?: string[];
}

/** The rule that owns the content type of problem responses. */
export const PROBLEM_CONTENT_TYPE_RULE = 'data.errors.content-type-json-utf8';

/**
 * The seed's content type of problem details, `application/json; charset=utf-8`, compared as
 * HTTP compares media types: case and the space before the parameter do not matter, nor quotes
 * around the charset value. Anything else (no charset, another charset, `application/problem+json`,
 * another parameter) is another content type.
 */
export function isProblemContentType(contentType: string | undefined): boolean {
  const normalized = (contentType ?? '').toLowerCase().replace(/\s+/g, '').replace(/charset="([^"]*)"/, 'charset=$1');
  return normalized === 'application/json;charset=utf-8';
}

/** Asserts the seed's problem content type (the caller owns the rule: see expectProblem). */
export function expectProblemContentType(res: { headers(): Record<string, string>; status(): number; url(): string }): void {
  const got = res.headers()['content-type'];
  expectToBe(isProblemContentType(got), true, () => `Content-Type of the ${res.status()} answer to ${res.url()} is '${got ?? '(none)'}', not 'application/json; charset=utf-8'`);
}

/**
 * Asserts a problem-details response: the status, the body shape, and the `type` (target's
 * prefix + suffix) and `title` the registry gives that suffix. Returns the body.
 *
 * The content type belongs to its own rule (data.errors.content-type-json-utf8, decision 34): it
 * is checked here, exactly as the seed states it, in a check step of that rule whenever the test
 * declares the rule, and left alone in tests about other rules, so that a wrong content type
 * fails the content-type rule and no other. The errors suite declares it for every error kind.
 */
export async function expectProblem(res: HttpResponse, suffix: string): Promise<ProblemBody> {
  const entry = registry.problemTypes.find((p) => p.suffix === suffix);
  if (!entry) throw new Error(`expectProblem: '${suffix}' is not a registered problem type`);
  const text = await res.text();
  expectToBe(res.status(), entry.status, () => `status of ${res.url()}; body: ${text.slice(0, 500)}`);
  if (declares(PROBLEM_CONTENT_TYPE_RULE)) {
    await check(PROBLEM_CONTENT_TYPE_RULE, `the ${entry.status} ${suffix} problem is served as application/json; charset=utf-8`, () => expectProblemContentType(res));
  }
  const body = JSON.parse(text) as ProblemBody;
  expectToBe(validateProblem(body), true, () => `problem-details shape: ${JSON.stringify(validateProblem.errors)}`);
  expectToBe(body.type, `${target.dataApi.errorTypePrefix}${suffix}`);
  expectToBe(body.title, entry.title);
  expectToBe(body.status, entry.status);
  return body;
}

/**
 * A problem whose type is `suffix` or one of the seed's sub-types of it (decision 38: a body that
 * is not JSON may be `bad-request` or `bad-request:data-validation-failed`), with everything
 * expectProblem checks for the type it carries. Returns the body and the suffix it carries.
 */
export async function expectProblemUnder(res: HttpResponse, suffix: string): Promise<{ body: ProblemBody; suffix: string }> {
  const text = await res.text();
  const type = ((): string => { try { return String((JSON.parse(text) as { type?: unknown }).type ?? ''); } catch { return ''; } })();
  const carried = type.startsWith(target.dataApi.errorTypePrefix) ? type.slice(target.dataApi.errorTypePrefix.length) : type;
  const known = registry.problemTypes.some((p) => p.suffix === carried);
  expect(known && (carried === suffix || carried.startsWith(`${suffix}:`)), `status ${res.status()}, type '${type}' is ${target.dataApi.errorTypePrefix}${suffix} or one of its sub-types; body: ${text.slice(0, 500)}`).toBe(true);
  return { body: await expectProblem(res, carried), suffix: carried };
}
