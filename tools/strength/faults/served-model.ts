import type { CompiledModel } from '../../../spec/model/compiled.js';
import { compileServed } from '../../../spec/model/served.js';
import { servedStandard } from '../configuration.js';

/**
 * The model of the standard the strength run's deployments serve (configuration.ts, --target):
 * the faults look resources and members up in it, so a fault bites on 6.1's resources on a 6.1
 * run, not only on those 4.0 shares with it.
 */
export const model: CompiledModel = compileServed(servedStandard);
