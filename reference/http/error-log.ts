import { appendFileSync } from 'node:fs';
import { format } from 'node:util';

/**
 * Where the servers log a request that failed inside them (a 500): standard error, or the file
 * named by REFERENCE_ERROR_LOG. Test harnesses name a file: their requests provoke such failures
 * on purpose (the fault hook, deliberately broken routing flows), and on a console those read
 * like defects. Read once, at start.
 */
const file = process.env.REFERENCE_ERROR_LOG;

export function logRequestError(...parts: unknown[]): void {
  if (!file) return console.error(...parts);
  appendFileSync(file, `${new Date().toISOString()} ${format(...parts)}\n`);
}
