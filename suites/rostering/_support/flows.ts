import type { RosteringFlows } from '../../targets/types.js';
import { target } from '../../_harness/target.js';

/**
 * The rostering routing flows under test (seed: Routing flows), from the target file
 * (`rostering.flows`, typed in suites/targets/types.ts): per flow, where a deployment in that
 * configuration listens and what its admin databases hold, so the routing suites know which
 * token must read which data store. A flow the target does not describe is not applicable.
 * (The embedded reference's flows are built by tools/embedded/flows.ts, outside the suites.)
 */
export type FlowsDescription = RosteringFlows & { single?: { secrets?: string[] } };

export function flowsDescription(): FlowsDescription {
  return target.rostering?.flows ?? {};
}

/** Texts of the single flow that must never appear in a response. */
export function flowSecrets(f: NonNullable<FlowsDescription['single']>): string[] {
  return [...(f.secrets ?? []), ...(f.secretsEnv ? (process.env[f.secretsEnv] ?? '').split('\n').filter(Boolean) : [])];
}
