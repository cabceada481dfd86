import { dataStandards, defaultStandard, type DataStandard } from '../../spec/model/upstream.js';

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
 * Where nothing tells, the seed's standard (4.0, decision 44) is judged, and the console says so.
 */

export interface FoundStandard {
  /** major.minor, e.g. "4.0"; undefined when nothing tells. */
  standard?: string;
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
  return { standard: `${Number(parts[0])}.${Number(parts[1])}`, from };
}

/** The standard a target file declares, as found. */
export const declaredStandard = (standard: DataStandard): FoundStandard => ({ standard, from: 'declared in the target file (dataApi.dataStandard)' });

const judgeable = (s: string | undefined): s is DataStandard => (dataStandards as readonly string[]).includes(s ?? '');

/** The standard the suites judge a target by, from what was found of it (nothing found: the seed's). */
export function judgedFor(found: FoundStandard | undefined): DataStandard {
  return judgeable(found?.standard) ? found.standard : defaultStandard;
}

/** One line for the console: the standard found, where from, and what is judged. */
export function judgedLine(found: FoundStandard): string {
  const what = `Data Standard ${judgedFor(found)}`;
  if (!found.standard) return `data standard: not told (${found.from}); judged by ${what}, the seed's`;
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
