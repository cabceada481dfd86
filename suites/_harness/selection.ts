/**
 * Whether a Playwright command line runs the suites whose paths match `pattern`: no path filter
 * at all, or one naming them (`playwright test suites/token` runs neither the rostering nor the
 * limits suite). Embedded runs start the extra servers such suites need only when they run.
 */
export function selects(argv: string[], pattern: RegExp): boolean {
  const at = argv.indexOf('test');
  const filters = (at < 0 ? [] : argv.slice(at + 1)).filter((a) => !a.startsWith('-') && (a.includes('/') || a.includes('.spec')));
  return !filters.length || filters.some((f) => pattern.test(f));
}

/** Whether a Playwright command line runs the rostering suites (and needs their extra servers). */
export const rosteringSelected = (argv: string[]): boolean => selects(argv, /rostering/);
