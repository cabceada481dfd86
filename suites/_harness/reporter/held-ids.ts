import { ROSTERING_RUN_ENV } from '../rostering-run-env.js';
import type { HeldId } from './types.js';

/**
 * The reserved organization ids (rostering.organizations) the deployment already held, from this
 * run's set-up in this process: the suites never wrote over them, and the tests reading their
 * data were not applicable (issue #24 point 1, decision 32). A merge of shards' blob reports does
 * not carry them (each shard's tests still say why they were not applicable).
 */
export function heldIds(env: NodeJS.ProcessEnv = process.env): HeldId[] {
  const raw = env[ROSTERING_RUN_ENV];
  if (!raw) return [];
  let run: { taken?: Record<string, string>; withheldFlows?: Record<string, string> };
  try { run = JSON.parse(raw) as typeof run; } catch { return []; }
  return [
    ...Object.entries(run.taken ?? {}).map(([field, heldBy]) => ({ field: `rostering.organizations.${field}`, heldBy })),
    // A flow's entry names its field and id first: `rostering.organizations.lea1 90200011 is already …`.
    ...Object.entries(run.withheldFlows ?? {}).map(([flow, what]) => {
      const [, field = '', heldBy = what] = /^(\S+) \S+ (.*)$/.exec(what) ?? [];
      return { field, flow, heldBy };
    }),
  ];
}
