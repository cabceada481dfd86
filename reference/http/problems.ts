import type { Context } from 'koa';
import registry from '../../spec/errors/problem-types.json' with { type: 'json' };
import type { ProblemTypeRegistry } from '../../spec/types/problem-type.js';

/** Problem-details responses, keyed by the registry's suffixes (spec/errors/problem-types.json). */
const reg = registry as ProblemTypeRegistry;
const bySuffix = new Map(reg.problemTypes.map((p) => [p.suffix, p]));

export type ProblemSuffix = (typeof registry.problemTypes)[number]['suffix'];

export interface ProblemExtras {
  detail?: string;
  errors?: string[];
  validationErrors?: Record<string, string[]>;
}

/** Thrown anywhere in a request; the error boundary turns it into the response. */
export class Problem extends Error {
  constructor(readonly suffix: ProblemSuffix, readonly extras: ProblemExtras = {}, readonly headers: Record<string, string> = {}) {
    super(suffix);
  }
}

/** The body of a problem; `prefix` is the deployment's problem-type prefix (the registry's by default). */
export function problemBody(suffix: ProblemSuffix, correlationId: string, extras: ProblemExtras = {}, prefix = reg.prefix) {
  const p = bySuffix.get(suffix);
  if (!p) throw new Error(`unregistered problem type ${suffix}`);
  return {
    detail: extras.detail ?? p.detail,
    type: `${prefix}${p.suffix}`,
    title: p.title,
    status: p.status,
    correlationId,
    ...(extras.validationErrors ? { validationErrors: extras.validationErrors } : {}),
    ...(extras.errors ? { errors: extras.errors } : {}),
  };
}

export function sendProblem(ctx: Context, problem: Problem): void {
  const body = problemBody(problem.suffix, ctx.state.correlationId as string, problem.extras, ctx.state.problemTypePrefix as string | undefined);
  ctx.status = body.status;
  for (const [k, v] of Object.entries(problem.headers)) ctx.set(k, v);
  ctx.type = 'application/json; charset=utf-8';
  ctx.body = JSON.stringify(body);
}
