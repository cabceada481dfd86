import type { CompiledModel } from './compiled.js';
import { overlay, type OverlayEntry } from './overlay.js';
import { compileStandard } from './standards.js';
import type { DataStandard } from './upstream.js';

/**
 * What a deployment serves for each data standard (decision 44: "a deployment is judged against
 * the standard it serves — 4.0 by the seed's tables and the 4.0 extract, 5.2 and 6.1 by their
 * extracts"): 4.0 with the seed's rows laid over it, 5.2 and 6.1 exactly as upstream. And how
 * discovery names it (research upstream-shapes/versions.md, "Discovery": `dataModels` entries are
 * `{ name, version, informationalVersion }` from the standard's MetaEd project, whose versions
 * are "4.0.0", "5.2.0", "6.1.0" and descriptions "The Ed-Fi Data Model 4.0" / "… 5.2" / "… 6.1").
 */
export interface ServedStandard {
  /** Seed rows laid over the standard's extract. */
  overlay: readonly OverlayEntry[];
  /** Discovery's `dataModels` entry but its name (the naming profile's `dataModelName`). */
  dataModel: { version: string; informationalVersion: string };
  /** What the interface descriptions say they describe. */
  describes: string;
}

export const SERVED: Readonly<Record<DataStandard, ServedStandard>> = {
  '4.0': {
    overlay,
    dataModel: { version: '4.0.0', informationalVersion: 'The Ed-Fi Data Model 4.0' },
    describes: 'Ed-Fi Data Standard 4.0 with the seed\'s rows',
  },
  '5.2': {
    overlay: [],
    dataModel: { version: '5.2.0', informationalVersion: 'The Ed-Fi Data Model 5.2' },
    describes: 'Ed-Fi Data Standard 5.2 as upstream serves it',
  },
  '6.1': {
    overlay: [],
    dataModel: { version: '6.1.0', informationalVersion: 'The Ed-Fi Data Model 6.1' },
    describes: 'Ed-Fi Data Standard 6.1 as upstream serves it',
  },
};

/** The model a deployment of `standard` serves (only that standard is compiled), with any rows a deployment adds (an installed extension). */
export function compileServed(standard: DataStandard, more: readonly OverlayEntry[] = []): CompiledModel {
  return compileStandard(standard, { overlay: [...SERVED[standard].overlay, ...more] });
}

/** Where a standard's generated data-API documents are (repository-relative; `other` is shared: spec/openapi/other.json). */
export const servedDocumentFile = (standard: DataStandard, section: 'resources' | 'descriptors'): string =>
  `spec/openapi-standards/ds-${standard}/${section}.json`;
