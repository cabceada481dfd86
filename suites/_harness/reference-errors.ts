import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The embedded reference logs the requests that failed inside it (500s) to this file rather
 * than to the run's console (REFERENCE_ERROR_LOG): the suites provoke such failures on purpose,
 * and printed among the results they read like defects. The run ends with a count.
 */
export const REFERENCE_ERROR_LOG = resolve(fileURLToPath(new URL('../../', import.meta.url)), process.env.CONFORMANCE_REPORTS_DIR ?? 'reports', 'reference-errors.log');

/** Empties the log at the start of a run. */
export function startReferenceErrorLog(): void {
  mkdirSync(dirname(REFERENCE_ERROR_LOG), { recursive: true });
  writeFileSync(REFERENCE_ERROR_LOG, '');
}

/** One line for the end of a run: how many failures the reference logged, and why: provoked, an unusable setting, or neither (a defect). */
export function referenceErrorSummary(): string | undefined {
  if (!existsSync(REFERENCE_ERROR_LOG)) return undefined;
  const lines = readFileSync(REFERENCE_ERROR_LOG, 'utf8').split('\n').filter((l) => /^\d{4}-\d\d-\d\dT/.test(l));
  if (!lines.length) return 'reference: no request failed inside it';
  const expected = lines.filter((l) => / expected: /.test(l)).length;
  const configuration = lines.filter((l) => / configuration: /.test(l)).length;
  const unexplained = lines.length - expected - configuration;
  return `reference: ${lines.length} request${lines.length === 1 ? '' : 's'} failed inside it: ${expected} provoked on purpose (expected:), ${configuration} on a setting that cannot be used (configuration:), ${unexplained} unexplained → ${relative(process.cwd(), REFERENCE_ERROR_LOG)}`;
}
