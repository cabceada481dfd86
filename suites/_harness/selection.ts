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

/**
 * Whether a Playwright command line runs the rostering suites (and needs their extra servers and
 * data): not when a `--grep-invert` leaves their tests out (a job that shards everything but the
 * rostering suites, which hold the target's fixed organization ids, must not write them).
 */
export const rosteringSelected = (argv: string[]): boolean => selects(argv, /rostering/) && !invertsRostering(argv);

function invertsRostering(argv: string[]): boolean {
  const i = argv.findIndex((a) => a === '--grep-invert' || a === '-gv' || a.startsWith('--grep-invert='));
  if (i < 0) return false;
  const pattern = argv[i].startsWith('--grep-invert=') ? argv[i].slice('--grep-invert='.length) : argv[i + 1];
  try {
    // Every rostering test carries its family's tag, @roster.<family>.
    return pattern !== undefined && new RegExp(pattern).test('@roster.roster-auth');
  } catch {
    return false;
  }
}

/** Options of `playwright test` that take a value as the next argument (never a file filter). */
const WITH_VALUE = new Set(['-c', '--config', '--reporter', '-j', '--workers', '--output', '--project', '--shard', '--repeat-each', '--retries', '--timeout', '--max-failures', '--trace', '--global-timeout', '--tsconfig', '--update-snapshots', '-u']);
/** Options that select tests; with a value unless written `--opt=value`. */
const SELECTING = new Set(['-g', '--grep', '-gv', '--grep-invert', '--only-changed']);
const SELECTING_ALONE = new Set(['--last-failed', '--only-changed']);

/**
 * What a `playwright test` command line selects, when it selects part of the suites (`--grep`,
 * `--grep-invert`, file filters, `--last-failed`, `--only-changed`); undefined for the whole run
 * (a shard is a part too, but its verdict is the merge's). The reporter then also says how the
 * selected rules fared, and exits by them (a vendor checking one rule), while the verdict about
 * the deployment stays incomplete.
 */
export function selectionOf(argv: string[]): string | undefined {
  const at = argv.indexOf('test');
  if (at < 0) return undefined;
  const args = argv.slice(at + 1);
  const parts: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const name = a.split('=')[0];
    if (SELECTING.has(name)) {
      const takesNext = !a.includes('=') && !(SELECTING_ALONE.has(a) && (args[i + 1] ?? '-').startsWith('-'));
      parts.push(takesNext ? `${a} ${args[++i]}` : a);
    } else if (SELECTING_ALONE.has(a)) {
      parts.push(a);
    } else if (WITH_VALUE.has(a)) {
      i++;
    } else if (!a.startsWith('-')) {
      parts.push(a);
    }
  }
  return parts.length ? parts.join(' ') : undefined;
}
