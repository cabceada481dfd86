import { dataStandards, defaultStandard, type DataStandard } from '../../spec/model/index.js';

/**
 * Which data standard a target serves, and whether the suites can judge it. One deployment serves
 * one standard (research/upstream-shapes/versions.md), and its bodies differ between standards
 * (4.0 parents vs contacts, int32 vs int64 organization ids, other keys and lengths): bodies of
 * another standard are refused by a correct deployment, so running the suites against it would
 * fail rules the deployment keeps (a false fail). Until the suites build each standard's bodies
 * (issue #22), a target found serving another standard stops in the preflight, with a verdict of
 * incomplete, never not conformant.
 *
 * The standard comes from the target file (`dataApi.dataStandard`) when declared, otherwise from
 * discovery (`GET {base_url}/` → `dataModels`): the entry upstream names `Ed-Fi`, or the only
 * entry. Its `version` ("5.2.0") gives major.minor. When neither tells, the suites say so and
 * judge the standard they build.
 */

/** The standard the suites build bodies for and judge. */
export const JUDGED_STANDARD: DataStandard = defaultStandard;

export interface FoundStandard {
  /** major.minor, e.g. "4.0"; undefined when nothing tells. */
  standard?: string;
  /** Where it was read, for the message. */
  from: string;
}

interface DataModel { name?: unknown; version?: unknown }

/** The standard the discovery document's `dataModels` names, if it names one. */
export function standardFromDiscovery(discovery: unknown): FoundStandard {
  const models = (discovery as { dataModels?: unknown } | null)?.dataModels;
  if (!Array.isArray(models) || !models.length) return { from: 'discovery has no dataModels' };
  const entries = models.filter((m): m is DataModel => typeof m === 'object' && m !== null);
  // Upstream lists one entry per schema (the core model, then TPDM, Sample, extensions).
  const core = entries.find((m) => m.name === 'Ed-Fi') ?? (entries.length === 1 ? entries[0] : undefined);
  if (!core) return { from: `discovery's dataModels name no core model (${entries.map((m) => String(m.name)).join(', ')})` };
  const version = typeof core.version === 'string' ? core.version : '';
  const parts = version.split('.');
  const from = `discovery's dataModels: ${String(core.name)} ${version || '(no version)'}`;
  if (parts.length < 2 || !parts.slice(0, 2).every((p) => p !== '' && [...p].every((c) => c >= '0' && c <= '9'))) return { from };
  return { standard: `${Number(parts[0])}.${Number(parts[1])}`, from };
}

/** Why the suites cannot judge the standard found, or undefined when they can (or nothing tells). */
export function standardProblem(found: FoundStandard): string | undefined {
  if (!found.standard || found.standard === JUDGED_STANDARD) return undefined;
  const known = (dataStandards as readonly string[]).includes(found.standard) ? '' : ', not one of the standards upstream ships';
  return `the deployment serves Data Standard ${found.standard} (${found.from}${known}); these suites build and judge Data Standard ${JUDGED_STANDARD} bodies only, which a correct ${found.standard} deployment refuses, so their verdict would not be about this deployment (issue #22). Declare dataApi.dataStandard only if discovery misreports the standard`;
}
