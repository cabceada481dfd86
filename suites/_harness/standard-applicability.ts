import { test } from '@playwright/test';
import { notApplicable } from './capabilities.js';
import { judged } from './judged-model.js';
import { NOT_IN_STANDARD } from './reporter/verdict.js';

/** The judged model, as a report names it. */
export const judgedName = `Data Standard ${judged}`;

/**
 * A rule about something only some data standards have (4.0's parents and deprecated
 * alternativeCourseCode, the seed's `_ext` on credential …) cannot be exercised on a deployment
 * of a standard without it: not applicable, never failed, never passed (decision 44). Nor does
 * it leave the verdict incomplete: a deployment of that standard cannot break it, as no
 * declaration could make it apply (the report marks the rule `notInStandard`).
 */
export function notInStandard(what: string): never {
  test.info().annotations.push({ type: NOT_IN_STANDARD, description: `${judgedName} has no ${what}` });
  return notApplicable(`${judgedName} has no ${what}`);
}
