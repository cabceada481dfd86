import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { CompiledModel } from '../spec/model/compiled.js';
import { SERVED, TRANSITIONAL_DEFAULT, compileServed, servedDocumentFile } from '../spec/model/served.js';
import type { DataStandard } from '../spec/model/upstream.js';
import type { InterfaceDocuments } from './data-api/discovery.js';

/**
 * What one deployment serves (issue #22 point 2: one data standard per deployment, chosen by
 * configuration): the compiled model everything derives from (routes, store, validation,
 * dependencies, demo data, authorization, the rostering mapping), the interface descriptions
 * generated from it (spec/generate/index.ts writes them; the staleness check holds them), and
 * discovery's `dataModels` entry. Only the chosen standard is compiled.
 */
export interface ServedParts {
  /** The configured standard; absent: the transitional default (spec/model/served.ts). */
  standard?: DataStandard;
  model: CompiledModel;
  documents: InterfaceDocuments;
  /** A short hash of the documents' text (the build discovery reports). */
  documentHash: string;
  dataModel: { version: string; informationalVersion: string };
}

const repoFile = (path: string) => new URL(`../${path}`, import.meta.url);

export async function loadServedStandard(standard: DataStandard | undefined): Promise<ServedParts> {
  // The documents are read from disk, never built here: openapi-backend dereferences the document
  // in place (the generator shares sub-objects), and building them costs more than the rest of start-up.
  const hash = createHash('sha256');
  const read = (path: string) => {
    const text = readFileSync(repoFile(path), 'utf8');
    hash.update(text);
    return JSON.parse(text) as Record<string, unknown>;
  };
  if (!standard) {
    // TRANSITIONAL: the module-level model (5.2 with the seed's rows), imported only here so that
    // a configured standard never compiles it.
    const { model } = await import('../spec/model/index.js');
    const documents = { resources: read('spec/openapi/resources.json'), descriptors: read('spec/openapi/descriptors.json'), other: read('spec/openapi/other.json') };
    return { model, documents, documentHash: hash.digest('hex').slice(0, 12), dataModel: TRANSITIONAL_DEFAULT.dataModel };
  }
  const model = compileServed(standard);
  const documents = { resources: read(servedDocumentFile(standard, 'resources')), descriptors: read(servedDocumentFile(standard, 'descriptors')), other: read('spec/openapi/other.json') };
  return { standard, model, documents, documentHash: hash.digest('hex').slice(0, 12), dataModel: SERVED[standard].dataModel };
}
