import { target } from './target.js';
import { unique } from './fixtures.js';

/** Model-driven bodies for what the suites create. Every natural key carries the run id. */
const pascal = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** A descriptor body in the run's namespace: `<prefix>/<Name>Descriptor`. */
export function descriptorBody(name: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    codeValue: unique('d'),
    namespace: `${target.testData.namespacePrefix}/${pascal(name)}Descriptor`,
    shortDescription: `Conformance ${name}`,
    ...extra,
  };
}

export const descriptorValue = (body: Record<string, unknown>) => `${body.namespace as string}#${body.codeValue as string}`;
