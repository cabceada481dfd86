/**
 * What tools/embedded/launch.ts starts, and how playwright.config.ts knows it is done: the
 * processes travel as JSON in LAUNCH_ENV, and the launcher writes READY_LINE on stdout once every
 * one of them answers.
 */
export interface LaunchedProcess {
  name: string;
  /** The command and its arguments, run from the project root without a shell. */
  argv: string[];
  env: Record<string, string>;
  /** Answers (status 200–403, as Playwright's own check) once the process is ready. */
  readyUrl: string;
}

export const LAUNCH_ENV = 'CONFORMANCE_EMBEDDED_PROCESSES';
export const READY_LINE = 'embedded deployments ready';
