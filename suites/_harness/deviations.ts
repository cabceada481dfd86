import { existsSync, readFileSync } from 'node:fs';
import type { KnownDeviation, KnownDeviationsFile } from '../targets/deviations.js';
import { targetFile } from './target.js';

/** The known-deviations file beside the target file (`x.json` → `x.deviations.json`), if any. */
export const deviationsFile = targetFile.replace(/\.json$/, '.deviations.json');

export function loadDeviations(file = deviationsFile): KnownDeviation[] {
  if (!existsSync(file)) return [];
  return (JSON.parse(readFileSync(file, 'utf8')) as KnownDeviationsFile).deviations;
}

export const isExpired = (d: KnownDeviation, today = new Date().toISOString().slice(0, 10)) => d.expires < today;

/** Whether an entry covers a test, given its report title (`file › describe › title`) and primary rule. */
export function covers(d: KnownDeviation, title: string, primaryRule: string | undefined): boolean {
  if (d.test && title.includes(d.test)) return true;
  return !!d.rule && d.rule === primaryRule;
}

/** The unexpired entry covering a test, if any. */
export function deviationFor(deviations: KnownDeviation[], title: string, primaryRule: string | undefined): KnownDeviation | undefined {
  return deviations.find((d) => !isExpired(d) && covers(d, title, primaryRule));
}
