import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { CompiledModel } from '../spec/model/compiled.js';
import { SERVED, compileServed, servedDocumentFile } from '../spec/model/served.js';
import { defaultStandard, type DataStandard } from '../spec/model/upstream.js';
import type { InterfaceDocuments } from './data-api/discovery.js';
import { ext } from '../spec/model/dsl.js';
import type { OverlayEntry } from '../spec/model/overlay.js';
import { ConfigError } from './config/load.js';
import { repoFile } from '../spec/repo-files.js';

/**
 * What one deployment serves (issue #22 point 2: one data standard per deployment, chosen by
 * configuration): the compiled model everything derives from (routes, store, validation,
 * dependencies, demo data, authorization, the rostering mapping), the interface descriptions
 * generated from it (spec/generate/index.ts writes them; the staleness check holds them), and
 * discovery's `dataModels` entry. Only the chosen standard is compiled.
 */
export interface ServedParts {
  /** The configured standard, or the seed's (upstream.ts `defaultStandard`, 4.0) when none is. */
  standard: DataStandard;
  model: CompiledModel;
  documents: InterfaceDocuments;
  /** A short hash of the documents' text (the build discovery reports). */
  documentHash: string;
  dataModel: { version: string; informationalVersion: string };
}

/**
 * `extensionResources`: resources that also accept `_ext` (an installed extension), laid over the
 * standard as the seed's credential row is on 4.0. The interface descriptions stay the standard's.
 */
export function loadServedStandard(configured: DataStandard | undefined, extensionResources: readonly string[] = []): ServedParts {
  const standard = configured ?? defaultStandard;
  // The documents are read from disk, never built here: building them costs more than the rest of start-up.
  const hash = createHash('sha256');
  const read = (path: string) => {
    const text = readFileSync(repoFile(path), 'utf8');
    hash.update(text);
    return JSON.parse(text) as Record<string, unknown>;
  };
  const model = compileWithExtensions(standard, extensionResources);
  const documents = { resources: read(servedDocumentFile(standard, 'resources')), descriptors: read(servedDocumentFile(standard, 'descriptors')), other: read('spec/openapi/other.json') };
  return { standard, model, documents, documentHash: hash.digest('hex').slice(0, 12), dataModel: SERVED[standard].dataModel };
}

/** The standard with `_ext` on each named resource (overlay rows); a name the standard lacks is a configuration error. */
function compileWithExtensions(standard: DataStandard, names: readonly string[]): CompiledModel {
  const rows: OverlayEntry[] = names.map((resource) => ({ resource, member: '_ext', seed: 'configured: extensionResources', add: ext(), differs: [] }));
  try {
    return compileServed(standard, rows);
  } catch (err) {
    const unknown = /^overlay: no upstream resource (\S+)$/.exec((err as Error).message);
    if (!unknown) throw err;
    throw new ConfigError(`extensionResources: Data Standard ${standard} has no resource ${unknown[1]} (singular names, e.g. "credential")`);
  }
}
