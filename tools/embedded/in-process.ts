/**
 * The reference in this process, for the harness's own unit tests (the preflight is tested
 * against a real deployment): the suites' side never imports reference/, it comes through here.
 */
export { startForTest as startInProcess } from '../../reference/tests/helpers.js';
export type { ReferenceConfig } from '../../reference/config/types.js';
