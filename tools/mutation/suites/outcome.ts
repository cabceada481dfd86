/**
 * What a family run's output says (family.ts): whether it failed only because a port was taken,
 * and the failure a killed mutant's recorded reason names.
 */

/**
 * A port taken between the check and the listen (by another run, or by an outgoing connection's
 * ephemeral port) fails the run without saying anything of the mutant: Playwright's own message,
 * Node's error code, or the reference's one line (reference/main.ts: "cannot listen on
 * 127.0.0.1:24001 (in use): …", relayed by the embedded launcher as exit code 1). Fifty recorded
 * kills were such runs before the reference's line was recognised.
 */
export function portTaken(output: string): boolean {
  return /EADDRINUSE|is already used|cannot listen on \S+ \(in use\)/.test(output);
}

/**
 * The first failure Playwright names ("  1) suites/… › title"); when the embedded deployments did
 * not start, Playwright's line with the first line they printed (which says why, or at least
 * which process); otherwise the run's first error line.
 */
export function firstFailure(output: string): string {
  const lines = output.split('\n');
  const numbered = lines.find((l) => /^\s+1\) /.test(l));
  const error = lines.find((l) => /Error/.test(l));
  const server = lines.find((l) => l.startsWith('[WebServer] '));
  const notStarted = error !== undefined && /config\.webServer/.test(error) && server !== undefined ? `${error.trim()}: ${server}` : undefined;
  return (numbered ?? notStarted ?? error ?? lines.find((l) => l.trim()) ?? 'failed without output').trim().replace(/\s+/g, ' ').slice(0, 300);
}
