import { randomUUID } from 'node:crypto';
import type { Context, Next } from 'koa';
import { ConfigurationError } from '../config/configuration-error.js';
import { logRequestError } from './error-log.js';
import { Problem, sendProblem } from './problems.js';

/**
 * Outermost middleware: assigns the correlation id (the `correlation-id` header, else a new one)
 * and turns every thrown Problem into its problem-details body. Anything else becomes the
 * registry's `system` problem with no internal detail (decisions #7), and is logged
 * (`expected:` for an injected fault, `configuration:` for an unusable setting).
 */
export async function errorBoundary(ctx: Context, next: Next): Promise<void> {
  const header = ctx.get('correlation-id');
  ctx.state.correlationId = header || randomUUID();
  try {
    await next();
  } catch (err) {
    if (err instanceof Problem) return sendProblem(ctx, err);
    // An injected fault is expected: one line saying so, not a stack trace that reads like a defect.
    if (err instanceof InjectedFault) logRequestError(`expected: [${ctx.state.correlationId}] ${ctx.method} ${ctx.path}: ${err.message}`);
    // A setting that cannot be used is the operator's to fix: its message, marked, without a stack trace.
    else if (err instanceof ConfigurationError) logRequestError(`configuration: [${ctx.state.correlationId}] ${ctx.method} ${ctx.path}: ${err.message}`);
    else logRequestError(`[${ctx.state.correlationId}] ${ctx.method} ${ctx.path}:`, err);
    sendProblem(ctx, new Problem('system'));
  }
}

/** An error thrown on purpose (the fault-injection hook): handled like any other, logged briefly. */
export class InjectedFault extends Error {}
