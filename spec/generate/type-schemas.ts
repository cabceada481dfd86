import { join } from 'node:path';
import * as TJS from 'typescript-json-schema';

/** JSON Schemas generated from the TypeScript types that configuration and data files follow. */
const TYPES: { file: string; type: string; out: string }[] = [
  { file: 'spec/types/rule.ts', type: 'RuleCatalogFile', out: 'spec/schemas/rule-catalog.schema.json' },
  { file: 'spec/types/problem-type.ts', type: 'ProblemTypeRegistry', out: 'spec/schemas/problem-types.schema.json' },
  { file: 'reference/config/types.ts', type: 'ReferenceConfig', out: 'spec/schemas/reference-config.schema.json' },
  { file: 'suites/targets/types.ts', type: 'Target', out: 'spec/schemas/target.schema.json' },
  { file: 'suites/targets/deviations.ts', type: 'KnownDeviationsFile', out: 'spec/schemas/known-deviations.schema.json' },
  { file: 'suites/_harness/reporter/types.ts', type: 'ConformanceReport', out: 'spec/schemas/conformance-report.schema.json' },
  { file: 'bench/types.ts', type: 'BenchReport', out: 'spec/schemas/bench-report.schema.json' },
];

export function generateTypeSchemas(root: string): Record<string, unknown> {
  const program = TJS.getProgramFromFiles(TYPES.map((t) => join(root, t.file)), { strict: true, skipLibCheck: true }, root);
  const settings: TJS.PartialArgs = { required: true, noExtraProps: true, strictNullChecks: true, ignoreErrors: false };
  const out: Record<string, unknown> = {};
  for (const t of TYPES) {
    const schema = TJS.generateSchema(program, t.type, settings);
    if (!schema) throw new Error(`no schema for ${t.type}`);
    out[t.out] = schema;
  }
  return out;
}
