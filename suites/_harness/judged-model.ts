import type { CompiledModel } from '../../spec/model/compiled.js';
import { compileServed } from '../../spec/model/served.js';
import type { DataStandard } from '../../spec/model/upstream.js';
import { inheritedDecision, judgedFor } from './data-standard.js';

/**
 * The one place that says which model the suites judge (decision 44: a deployment is judged
 * against the standard it serves). Builders, generated checks and expectations all read `model`
 * from here, so a run against a 4.0 deployment lists and builds 4.0's resources, keys and
 * lengths. The standard was decided once in Playwright's main process (playwright.config.ts,
 * data-standard.ts) and inherited here; outside a run (unit tests, tools) nothing was decided and
 * the seed's standard is judged, as it is for a target where nothing tells.
 */
export const judged: DataStandard = judgedFor(inheritedDecision());

export const model: CompiledModel = compileServed(judged);

/** Whether the judged model has a resource (singular name), for rules about resources only some standards have. */
export const hasResource = (name: string): boolean => model.byName.has(name);
