import type { RosteringFlows } from '../../targets/types.js';
import { isEmbeddedReference, target } from '../../_harness/target.js';
import { rosteringSelected } from '../../_harness/selection.js';

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

/**
 * The flows this run can reach, for removing what earlier runs left there: every flow the target
 * describes, but in an embedded run without the rostering suites only the single one, the
 * reference itself, since that run starts no other (playwright.config.ts). Asking their token
 * endpoints there failed the whole removal with ECONNREFUSED.
 */
export function reachableFlows(argv: readonly string[] = process.argv): FlowsDescription {
  const flows = flowsDescription();
  if (!isEmbeddedReference || rosteringSelected([...argv])) return flows;
  return flows.single ? { single: flows.single } : {};
}

/** Texts of the single flow that must never appear in a response. */
export function flowSecrets(f: NonNullable<FlowsDescription['single']>): string[] {
  return [...(f.secrets ?? []), ...(f.secretsEnv ? (process.env[f.secretsEnv] ?? '').split('\n').filter(Boolean) : [])];
}
