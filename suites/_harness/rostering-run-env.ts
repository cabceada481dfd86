/**
 * The environment variable through which the global set-up hands what the rostering suites
 * prepared (suites/rostering/_support/setup.ts) to the workers and to the conformance reporter.
 */
export const ROSTERING_RUN_ENV = 'CONFORMANCE_ROSTERING_RUN';
