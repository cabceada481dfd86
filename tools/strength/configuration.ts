/**
 * Which embedded configuration a strength run judges, decided once from the command line, so that
 * the runner and the faults' model agree: `--target <file>` (or `=<file>`) names an embedded
 * target file (suites/_harness/target.ts, EMBEDDED_TARGETS); by default the seed's, on 4.0. A
 * fault that only another standard can show (Fault.standards) runs with that standard's target.
 */
import { readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_TARGET, EMBEDDED_TARGETS } from '../../suites/_harness/target.js';
import type { Target } from '../../suites/targets/types.js';
import { defaultStandard, type DataStandard } from '../../spec/model/upstream.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** The target file `--target` names, and the other arguments. */
export function targetArg(argv: string[]): { file: string; rest: string[] } {
  const at = argv.findIndex((a) => a === '--target' || a.startsWith('--target='));
  if (at < 0) return { file: DEFAULT_TARGET, rest: argv };
  const value = argv[at].includes('=') ? argv[at].slice('--target='.length) : argv[at + 1];
  if (!value) throw new Error('--target takes an embedded target file, e.g. --target suites/targets/reference-6.1.json');
  return { file: resolve(value), rest: argv.filter((_, i) => i !== at && (argv[at].includes('=') || i !== at + 1)) };
}

export const { file: referenceTargetFile, rest: args } = targetArg(process.argv.slice(2));
const config = EMBEDDED_TARGETS[referenceTargetFile];
if (!config) throw new Error(`--target ${relative(root, referenceTargetFile)} is not a target of the embedded reference (${Object.keys(EMBEDDED_TARGETS).map((f) => relative(root, f)).join(', ')})`);
/** The reference configuration file (`reference/config/…`) every embedded deployment reads. */
export const configFile: string = config;
export const referenceTarget = JSON.parse(readFileSync(referenceTargetFile, 'utf8')) as Target;
export const basePath = new URL(referenceTarget.dataApi.baseUrl).pathname.replace(/\/$/, '');
const referenceConfig = JSON.parse(readFileSync(join(root, configFile), 'utf8')) as { dataStandard?: DataStandard; issuer?: { issuer?: string; audience?: string } };
/** The issuer and audience the conformance configuration gives every embedded deployment, if any. */
export const conformanceIssuer = referenceConfig.issuer ?? {};
/** The data standard the deployments serve (the configuration's; the seed's when it names none). */
export const servedStandard: DataStandard = referenceConfig.dataStandard ?? defaultStandard;

/** The problem-type prefix the deployments are configured with (the target's errorTypePrefix): a fault's own problem says it, as theirs do. */
export const servedErrorTypePrefix: string = referenceTarget.dataApi.errorTypePrefix ?? 'urn:core:api:';

/** The first embedded target whose configuration serves one of `standards`. */
export function targetServing(standards: DataStandard[]): string {
  const serves = (file: string) => (JSON.parse(readFileSync(join(root, file), 'utf8')) as { dataStandard?: DataStandard }).dataStandard ?? defaultStandard;
  const found = Object.entries(EMBEDDED_TARGETS).find(([, file]) => standards.includes(serves(file)));
  if (!found) throw new Error(`no embedded target serves Data Standard ${standards.join(' or ')}`);
  return found[0];
}
