import { notApplicable } from './capabilities.js';
import { judged } from './judged-model.js';

/** The judged model, as a report names it. */
export const judgedName = `Data Standard ${judged}`;

/**
 * A rule about something only some data standards have (4.0's parents and deprecated
 * alternativeCourseCode, the seed's `_ext` on credential …) cannot be exercised on a deployment
 * of a standard without it: not applicable, never failed, never passed (decision 44).
 */
export function notInStandard(what: string): never {
  return notApplicable(`${judgedName} has no ${what}`);
}
