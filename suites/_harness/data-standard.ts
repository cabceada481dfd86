import { TRANSITIONAL_DEFAULT } from '../../spec/model/served.js';
import { dataStandards, type DataStandard } from '../../spec/model/upstream.js';

/**
 * Which data standard a target serves, and so which model the suites judge it by (decision 44:
 * "a deployment is judged against the standard it serves"). One deployment serves one standard
 * (research/upstream-shapes/versions.md), and its bodies differ between standards (4.0 parents vs
 * contacts, int32 vs int64 organization ids, other keys and lengths), so the suites build each
 * standard's own bodies and list each standard's own generated tests.
 *
 * The standard comes from the target file (`dataApi.dataStandard`) when declared, otherwise from
 * discovery (`GET {base_url}/` → `dataModels`): the entry upstream names `Ed-Fi`, or the only
 * entry. Its `version` ("5.2.0") gives major.minor. A standard that is none of 4.0, 5.2 and 6.1
 * cannot be judged: the preflight stops with a verdict of incomplete, never not conformant.
 *
 * TRANSITIONAL (issue #22): a target that declares nothing and whose discovery names the
 * reference's unset default (5.2 with the specification's overlay, spec/model/served.ts) is
 * judged by that model, as are targets where nothing tells, until the defaults flip to 4.0.
 */

/** What the suites judge: a standard as served (spec/model/served.ts), or the transitional model. */
export type Judged = DataStandard | 'transitional';

export interface FoundStandard {
  /** major.minor, e.g. "4.0"; undefined when nothing tells. */
  standard?: string;
  /** The core entry's informationalVersion, which tells the transitional default apart. */
  informationalVersion?: string;
  /** Where it was read, for the message. */
  from: string;
}

interface DataModel { name?: unknown; version?: unknown; informationalVersion?: unknown }

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
  const informational = typeof core.informationalVersion === 'string' ? { informationalVersion: core.informationalVersion } : {};
  return { standard: `${Number(parts[0])}.${Number(parts[1])}`, ...informational, from };
}

/** The standard a target file declares, as found. */
export const declaredStandard = (standard: DataStandard): FoundStandard => ({ standard, from: 'declared in the target file (dataApi.dataStandard)' });

const judgeable = (s: string | undefined): s is DataStandard => (dataStandards as readonly string[]).includes(s ?? '');

/** The model the suites judge a target by, from what was found of its standard. */
export function judgedFor(found: FoundStandard): Judged {
  if (!judgeable(found.standard)) return 'transitional';
  const transitional = found.informationalVersion === TRANSITIONAL_DEFAULT.dataModel.informationalVersion
    && found.standard === standardFromDiscovery({ dataModels: [TRANSITIONAL_DEFAULT.dataModel] }).standard;
  return transitional ? 'transitional' : found.standard;
}

/** One line for the console: the standard found, where from, and what is judged. */
export function judgedLine(found: FoundStandard): string {
  const judged = judgedFor(found);
  const what = judged === 'transitional' ? `the transitional model (${TRANSITIONAL_DEFAULT.describes})` : `Data Standard ${judged}`;
  if (!found.standard) return `data standard: not told (${found.from}); judged by ${what}`;
  return `data standard: ${found.standard} (${found.from}); judged by ${what}`;
}

/** Why the suites cannot judge the standard found, or undefined when they can (or nothing tells). */
export function standardProblem(found: FoundStandard): string | undefined {
  if (!found.standard || judgeable(found.standard)) return undefined;
  return `the deployment serves Data Standard ${found.standard} (${found.from}), not one of the standards upstream ships (${dataStandards.join(', ')}); the suites have no model of it, so their verdict would not be about this deployment. Declare dataApi.dataStandard only if discovery misreports the standard`;
}

// ---- the decision, made once per run ------------------------------------------------------------

/**
 * Every Playwright process (the main one and each worker) lists the same tests, and generated
 * tests are listed from the judged model: so the main process decides once (playwright.config.ts)
 * and hands the decision to the workers, which inherit its environment.
 */
export const JUDGED_STANDARD_ENV = 'CONFORMANCE_JUDGED_STANDARD';

/** The decision this process inherited, if any (absent outside a Playwright run: unit tests, tools). */
export function inheritedDecision(): FoundStandard | undefined {
  const text = process.env[JUDGED_STANDARD_ENV];
  if (!text) return undefined;
  return JSON.parse(text) as FoundStandard;
}
